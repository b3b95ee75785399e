"""Publishing the questionnaire and the documents, and recording a member's declaration (docs/decisions.md 48).

A publication is a new version (the previous ones stay as they were, for the declarations that point to them). A
declaration is recorded only against the versions in force: a member who read an older one (a new version was
published while their page was open) is asked to read again. Answers are health data: kept as booleans with the date,
one declaration per member, deleted with the account."""

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from studio.errors import CONFLICT, ApplicationError

from .models import DocumentKind, HealthDeclaration, Questionnaire, StudioDocument
from .selectors import current_set, declaration_missing

MAX_QUESTIONS = 30
QUESTION_MAX = 300
ADVICE_MAX = 1000
TITLE_MAX = 150
BODY_MAX = 20000

MSG_DECLARATION_REQUIRED = (
    "Avant votre premier cours, répondez au questionnaire de santé et acceptez la décharge de responsabilité et le "
    "règlement intérieur."
)
MSG_DECLARATION_RENEW = (
    "Le questionnaire de santé, la décharge ou le règlement intérieur ont changé, ou votre déclaration date de plus "
    "d'un an : merci de les relire avant de réserver."
)
MSG_DECLARATION_RECORDED = "Merci, vos réponses sont enregistrées : vous pouvez réserver."
MSG_DECLARATION_OUTDATED = "Une nouvelle version vient d'être publiée : relisez-la avant de valider."
MSG_ACCEPT_REQUIRED = "Acceptez la décharge de responsabilité et le règlement intérieur pour réserver."
MSG_ANSWERS_INVALID = "Répondez par oui ou par non à chaque question."
MSG_QUESTIONS_INVALID = f"Le questionnaire compte de 1 à {MAX_QUESTIONS} questions, chacune avec son texte."
MSG_QUESTION_TOO_LONG = f"Une question tient en {QUESTION_MAX} caractères, un conseil en {ADVICE_MAX}."
MSG_DOCUMENT_INVALID = "Donnez un titre et un texte au document."
MSG_DOCUMENT_TOO_LONG = f"Le titre tient en {TITLE_MAX} caractères, le texte en {BODY_MAX}."
MSG_PUBLISHED = "Nouvelle version publiée : elle sera demandée avant la prochaine réservation de chaque membre."


class DeclarationError(ApplicationError):
    default_code = "declaration_invalid"
    messages = {
        "declaration_required": MSG_DECLARATION_REQUIRED,
        "declaration_renew": MSG_DECLARATION_RENEW,
        "outdated": MSG_DECLARATION_OUTDATED,
        "accept_required": MSG_ACCEPT_REQUIRED,
        "answers_invalid": MSG_ANSWERS_INVALID,
        "questions_invalid": MSG_QUESTIONS_INVALID,
        "question_too_long": MSG_QUESTION_TOO_LONG,
        "document_invalid": MSG_DOCUMENT_INVALID,
        "document_too_long": MSG_DOCUMENT_TOO_LONG,
    }
    statuses = {"declaration_required": CONFLICT, "declaration_renew": CONFLICT, "outdated": CONFLICT}


def declaration_require(*, member) -> None:
    """Refuse a member's own booking while their declaration is missing or out of date (409, with `missing` naming
    what to do, so that the booking popup can ask it in the flow)."""
    if member is None:  # nobody to ask (the booking endpoints ask visitors to log in first)
        return
    missing = declaration_missing(member_id=member.pk)
    if not missing:
        return
    first_time = not HealthDeclaration.objects.filter(member_id=member.pk).exists()
    error = DeclarationError.of("declaration_required" if first_time else "declaration_renew")
    error.extra = {"missing": missing}
    raise error


def _clean_questions(questions) -> list[dict]:
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise DeclarationError.of("questions_invalid", field="questions")
    cleaned = []
    for question in questions:
        if not isinstance(question, dict):
            raise DeclarationError.of("questions_invalid", field="questions")
        text = str(question.get("text") or "").replace("\x00", "").strip()
        advice = str(question.get("advice") or "").replace("\x00", "").strip()
        if not text:
            raise DeclarationError.of("questions_invalid", field="questions")
        if len(text) > QUESTION_MAX or len(advice) > ADVICE_MAX:
            raise DeclarationError.of("question_too_long", field="questions")
        cleaned.append({"text": text, "advice": advice})
    return cleaned


def questionnaire_publish(*, by, questions) -> Questionnaire:
    """A new version of the questionnaire (the number after the highest; two staff publishing at once: one wins the
    number, the other is told to try again by the unique constraint, answered as the outdated refusal)."""
    cleaned = _clean_questions(questions)
    try:
        with transaction.atomic():
            version = (Questionnaire.objects.aggregate(top=Max("version"))["top"] or 0) + 1
            return Questionnaire.objects.create(version=version, questions=cleaned, published_by=by)
    except IntegrityError:
        raise DeclarationError.of("outdated") from None


def document_publish(*, by, kind: str, title: str, body: str) -> StudioDocument:
    if kind not in DocumentKind.values:
        raise DeclarationError.of("document_invalid", field="kind")
    title = (title or "").replace("\x00", "").strip()
    body = (body or "").replace("\x00", "").strip()
    if not title or not body:
        raise DeclarationError.of("document_invalid", field="body" if title else "title")
    if len(title) > TITLE_MAX or len(body) > BODY_MAX:
        raise DeclarationError.of("document_too_long", field="body")
    try:
        with transaction.atomic():
            version = (StudioDocument.objects.filter(kind=kind).aggregate(top=Max("version"))["top"] or 0) + 1
            return StudioDocument.objects.create(kind=kind, version=version, title=title, body=body, published_by=by)
    except IntegrityError:
        raise DeclarationError.of("outdated") from None


def declaration_record(
    *,
    member,
    questionnaire_version: int | None,
    waiver_version: int | None,
    house_rules_version: int | None,
    answers: list,
    accepted: bool,
) -> tuple[HealthDeclaration, list[str]]:
    """The member's answers to the questionnaire in force and their acceptance of the documents in force, replacing
    any earlier declaration. Returns it and the advice of each question answered "yes"."""
    current = current_set()
    read = (
        (current.questionnaire, questionnaire_version),
        (current.waiver, waiver_version),
        (current.house_rules, house_rules_version),
    )
    if any((version.version if version else None) != sent for version, sent in read):
        raise DeclarationError.of("outdated")
    questions = current.questionnaire.questions if current.questionnaire else []
    if not isinstance(answers, list) or len(answers) != len(questions) or any(type(a) is not bool for a in answers):
        raise DeclarationError.of("answers_invalid", field="answers")
    if (current.waiver or current.house_rules) and accepted is not True:
        raise DeclarationError.of("accept_required", field="accepted")
    with transaction.atomic():
        declaration, _ = HealthDeclaration.objects.update_or_create(
            member=member,
            defaults={
                "questionnaire": current.questionnaire,
                "waiver": current.waiver,
                "house_rules": current.house_rules,
                "answers": answers,
                "flagged": any(answers),
                "signed_at": timezone.now(),
            },
        )
    advice = [q["advice"] for q, answer in zip(questions, answers, strict=True) if answer and q["advice"]]
    return declaration, advice


def declaration_erase(*, member_id: int) -> int:
    """The account is deleted: its health answers go (docs/decisions.md 34, 48)."""
    deleted, _ = HealthDeclaration.objects.filter(member_id=member_id).delete()
    return deleted
