"""Reads of the questionnaire, the documents and the declarations (docs/decisions.md 48)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from .models import DocumentKind, HealthDeclaration, Questionnaire, StudioDocument

# A declaration holds for a year; then, or when any of the three gets a new version, it is asked again.
DECLARATION_VALID_DAYS = 365


MSG_MISSING_AT_THE_DESK = "À compléter à l'accueil : {what}."
MISSING_LABELS = {
    "questionnaire": "le questionnaire de santé",
    "waiver": "la décharge de responsabilité",
    "house_rules": "le règlement intérieur",
}


@dataclass(frozen=True)
class CurrentSet:
    """The versions in force: any of them may be missing (nothing published yet), and then nothing asks for it."""

    questionnaire: Questionnaire | None
    waiver: StudioDocument | None
    house_rules: StudioDocument | None

    @property
    def empty(self) -> bool:
        return self.questionnaire is None and self.waiver is None and self.house_rules is None


def current_set() -> CurrentSet:
    """The newest version of each, in two queries (the documents are a handful of versions)."""
    documents = {}
    for document in StudioDocument.objects.order_by("kind", "-version").only("kind", "version", "title", "body"):
        documents.setdefault(document.kind, document)
    return CurrentSet(
        questionnaire=Questionnaire.objects.order_by("-version").first(),
        waiver=documents.get(DocumentKind.WAIVER),
        house_rules=documents.get(DocumentKind.HOUSE_RULES),
    )


def declaration_valid_until(declaration: HealthDeclaration) -> datetime:
    return declaration.signed_at + timedelta(days=DECLARATION_VALID_DAYS)


def declaration_missing(*, member_id: int, now: datetime | None = None, current: CurrentSet | None = None) -> list[str]:
    """What the member still has to do before booking: "questionnaire", "waiver", "house_rules" (their current
    version is not the one declared, or the declaration is a year old), or nothing."""
    current = current or current_set()
    if current.empty:
        return []
    declaration = HealthDeclaration.objects.filter(member_id=member_id).first()
    expired = declaration is None or declaration_valid_until(declaration) <= (now or timezone.now())
    wanted = (
        ("questionnaire", current.questionnaire, "questionnaire_id"),
        ("waiver", current.waiver, "waiver_id"),
        ("house_rules", current.house_rules, "house_rules_id"),
    )
    return [
        name
        for name, version, field in wanted
        if version is not None and (expired or getattr(declaration, field) != version.pk)
    ]


def missing_text(missing: list[str]) -> str:
    """What staff booking on a member's behalf are told the member still has to do (empty: nothing)."""
    if not missing:
        return ""
    return MSG_MISSING_AT_THE_DESK.format(what=", ".join(MISSING_LABELS[name] for name in missing))


def members_flagged(*, member_ids) -> dict[int, datetime]:
    """The members among these who answered "yes" to a question, with the date they did: all an instructor's sheet
    shows of their health ("À signaler"), never the answers. One query."""
    return dict(
        HealthDeclaration.objects.filter(member_id__in=list(member_ids), flagged=True).values_list(
            "member_id", "signed_at"
        )
    )


def members_missing(*, member_ids, now: datetime | None = None) -> set[int]:
    """The members among these who would be asked again before booking (the staff's sheet shows it). Two queries
    and one for the set in force."""
    current = current_set()
    if current.empty:
        return set()
    limit = (now or timezone.now()) - timedelta(days=DECLARATION_VALID_DAYS)
    ids = set(member_ids)
    up_to_date = HealthDeclaration.objects.filter(member_id__in=list(ids), signed_at__gt=limit)
    for field, version in (
        ("questionnaire", current.questionnaire),
        ("waiver", current.waiver),
        ("house_rules", current.house_rules),
    ):
        if version is not None:
            up_to_date = up_to_date.filter(**{field: version})
    return ids - set(up_to_date.values_list("member_id", flat=True))


def declaration_export(*, member_id: int) -> dict | None:
    """The member's declaration as their data export shows it: each question with their answer, what they accepted
    and when."""
    declaration = (
        HealthDeclaration.objects.select_related("questionnaire", "waiver", "house_rules")
        .filter(member_id=member_id)
        .first()
    )
    if declaration is None:
        return None
    questions = declaration.questionnaire.questions if declaration.questionnaire else []
    return {
        "signed_at": declaration.signed_at.isoformat(),
        "questionnaire_version": declaration.questionnaire.version if declaration.questionnaire else None,
        "answers": [
            {"question": question["text"], "answer": "oui" if answer else "non"}
            for question, answer in zip(questions, declaration.answers, strict=False)
        ],
        "waiver_version": declaration.waiver.version if declaration.waiver else None,
        "house_rules_version": declaration.house_rules.version if declaration.house_rules else None,
    }
