"""The questionnaire, the documents and the member's declaration over the API (docs/decisions.md 48).

- `GET /api/health/current`: what the member reads before booking (the questions with their advice, both documents)
  and what they still have to do (`missing`).
- `GET/POST /api/health/declaration`: the member's own declaration (their answers), and recording it.
- `GET /api/users/{id}/health-declaration`: an admin reads a member's answers; nobody else (supervisors and
  instructors included: 403), since answers are health data.
- `GET/POST /api/health/questionnaires` and `/api/health/documents`: staff read the versions and publish a new one.
"""

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import FILLED, StrictBooleanField
from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from . import selectors, services
from .models import DocumentKind, HealthDeclaration, Questionnaire, StudioDocument

MSG_NO_DECLARATION = "Aucune déclaration enregistrée."
MSG_ADMINS_ONLY = "Seuls les administrateurs du studio lisent les réponses au questionnaire de santé."
MSG_FIELD_INVALID = "Valeur invalide."


class IsStudioAdmin(BasePermission):
    message = MSG_ADMINS_ONLY

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and getattr(user, "is_admin", False))


class QuestionOutput(serializers.Serializer):
    text = serializers.CharField()
    advice = serializers.CharField(help_text="Le conseil montré quand le membre répond « oui » (vide : aucun).")


class QuestionnaireOutput(serializers.Serializer):
    version = serializers.IntegerField()
    questions = QuestionOutput(many=True)
    published_at = serializers.DateTimeField()


class DocumentOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=DocumentKind.choices)
    version = serializers.IntegerField()
    title = serializers.CharField()
    body = serializers.CharField()
    published_at = serializers.DateTimeField()


class CurrentOutput(serializers.Serializer):
    questionnaire = QuestionnaireOutput(allow_null=True)
    waiver = DocumentOutput(allow_null=True)
    house_rules = DocumentOutput(allow_null=True)
    missing = serializers.ListField(
        child=serializers.ChoiceField(choices=["questionnaire", "waiver", "house_rules"]),
        help_text="Ce que le membre doit encore faire avant de réserver (vide : rien).",
    )
    valid_until = serializers.DateTimeField(allow_null=True, help_text="Fin de validité de la déclaration en cours.")


class DeclarationInput(serializers.Serializer):
    questionnaire_version = serializers.IntegerField(allow_null=True, min_value=1, max_value=2**31 - 1)
    waiver_version = serializers.IntegerField(allow_null=True, min_value=1, max_value=2**31 - 1)
    house_rules_version = serializers.IntegerField(allow_null=True, min_value=1, max_value=2**31 - 1)
    answers = serializers.ListField(
        child=StrictBooleanField(error_messages={"invalid": services.MSG_ANSWERS_INVALID}),
        max_length=services.MAX_QUESTIONS,
        error_messages={"not_a_list": services.MSG_ANSWERS_INVALID, "required": services.MSG_ANSWERS_INVALID},
    )
    accepted = StrictBooleanField(
        error_messages={key: services.MSG_ACCEPT_REQUIRED for key in ("invalid", "required", "null")},
        help_text="true : le membre accepte la décharge de responsabilité et le règlement intérieur.",
    )


class DeclarationOutput(serializers.Serializer):
    signed_at = serializers.DateTimeField()
    valid_until = serializers.DateTimeField()
    questionnaire_version = serializers.IntegerField(allow_null=True)
    answers = serializers.ListField(child=serializers.DictField(child=serializers.CharField()))
    waiver_version = serializers.IntegerField(allow_null=True)
    house_rules_version = serializers.IntegerField(allow_null=True)


class RecordedOutput(serializers.Serializer):
    message = serializers.CharField()
    advice = serializers.ListField(child=serializers.CharField(), help_text="Les conseils des questions « oui ».")
    valid_until = serializers.DateTimeField()


def _filled(max_length: int, *, too_long: str, missing: str) -> serializers.CharField:
    """A required text with something else than spaces (the schema's pattern says so too)."""
    return serializers.CharField(
        max_length=max_length,
        validators=[RegexValidator(FILLED, message=missing)],
        error_messages={"max_length": too_long, "blank": missing, "required": missing, "null": missing},
    )


class QuestionInput(serializers.Serializer):
    text = _filled(
        services.QUESTION_MAX, too_long=services.MSG_QUESTION_TOO_LONG, missing=services.MSG_QUESTIONS_INVALID
    )
    advice = serializers.CharField(
        max_length=services.ADVICE_MAX,
        required=False,
        allow_blank=True,
        default="",
        error_messages={"max_length": services.MSG_QUESTION_TOO_LONG},
    )


class QuestionnaireInput(serializers.Serializer):
    questions = serializers.ListField(
        child=QuestionInput(),
        min_length=1,
        max_length=services.MAX_QUESTIONS,
        error_messages={key: services.MSG_QUESTIONS_INVALID for key in ("min_length", "max_length", "empty")},
    )


class DocumentInput(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=DocumentKind.choices, error_messages={"invalid_choice": services.MSG_DOCUMENT_INVALID}
    )
    title = _filled(services.TITLE_MAX, too_long=services.MSG_DOCUMENT_TOO_LONG, missing=services.MSG_DOCUMENT_INVALID)
    body = _filled(services.BODY_MAX, too_long=services.MSG_DOCUMENT_TOO_LONG, missing=services.MSG_DOCUMENT_INVALID)


class MessageOutput(serializers.Serializer):
    message = serializers.CharField()


def _questionnaire(q: Questionnaire | None):
    if q is None:
        return None
    return {"version": q.version, "questions": q.questions, "published_at": q.published_at}


def _document(d: StudioDocument | None):
    if d is None:
        return None
    return {"kind": d.kind, "version": d.version, "title": d.title, "body": d.body, "published_at": d.published_at}


def _valid(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


class CurrentApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="health_current", responses=CurrentOutput)
    def get(self, request):
        current = selectors.current_set()
        declaration = HealthDeclaration.objects.filter(member_id=request.user.pk).first()
        body = {
            "questionnaire": _questionnaire(current.questionnaire),
            "waiver": _document(current.waiver),
            "house_rules": _document(current.house_rules),
            "missing": selectors.declaration_missing(member_id=request.user.pk, current=current),
            "valid_until": selectors.declaration_valid_until(declaration) if declaration else None,
        }
        return Response(CurrentOutput(body).data)


def _declaration_body(member_id: int):
    exported = selectors.declaration_export(member_id=member_id)
    if exported is None:
        raise services.DeclarationError(MSG_NO_DECLARATION, code="declaration_not_found", status=404)
    declaration = HealthDeclaration.objects.get(member_id=member_id)
    return {**exported, "valid_until": selectors.declaration_valid_until(declaration)}


class DeclarationApi(APIView):
    """The member's own declaration: read it, or record it (the answers and the acceptance of the versions read)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(operation_id="health_declaration_mine", responses={200: DeclarationOutput, 404: ErrorOutput})
    def get(self, request):
        return Response(DeclarationOutput(_declaration_body(request.user.pk)).data)

    @extend_schema(
        operation_id="health_declaration_record",
        request=DeclarationInput,
        responses={
            201: RecordedOutput,
            400: ErrorOutput,
            409: OpenApiResponse(ErrorOutput, description="Version dépassée."),
        },
    )
    def post(self, request):
        values = _valid(DeclarationInput, request)
        declaration, advice = services.declaration_record(member=request.user, **values)
        body = {
            "message": services.MSG_DECLARATION_RECORDED,
            "advice": advice,
            "valid_until": selectors.declaration_valid_until(declaration),
        }
        return Response(RecordedOutput(body).data, status=status.HTTP_201_CREATED)


class MemberDeclarationApi(APIView):
    """An admin reads a member's declaration (403 for everyone else, 404 when there is none)."""

    permission_classes = [IsStudioAdmin]

    @extend_schema(
        operation_id="health_declaration_of_member",
        responses={200: DeclarationOutput, 403: ErrorOutput, 404: ErrorOutput},
    )
    def get(self, request, user_id: int):
        return Response(DeclarationOutput(_declaration_body(user_id)).data)


class QuestionnairesApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]

    @extend_schema(operation_id="health_questionnaires", responses=QuestionnaireOutput(many=True))
    def get(self, request):
        versions = Questionnaire.objects.order_by("-version")[:20]
        return Response(QuestionnaireOutput([_questionnaire(q) for q in versions], many=True).data)

    @extend_schema(
        operation_id="health_questionnaire_publish",
        request=QuestionnaireInput,
        responses={201: QuestionnaireOutput, 400: ErrorOutput},
    )
    def post(self, request):
        values = _valid(QuestionnaireInput, request)
        questionnaire = services.questionnaire_publish(by=request.user, questions=values["questions"])
        return Response(QuestionnaireOutput(_questionnaire(questionnaire)).data, status=status.HTTP_201_CREATED)


class DocumentsApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]

    @extend_schema(operation_id="health_documents", responses=DocumentOutput(many=True))
    def get(self, request):
        documents = StudioDocument.objects.order_by("kind", "-version")[:40]
        return Response(DocumentOutput([_document(d) for d in documents], many=True).data)

    @extend_schema(
        operation_id="health_document_publish", request=DocumentInput, responses={201: DocumentOutput, 400: ErrorOutput}
    )
    def post(self, request):
        values = _valid(DocumentInput, request)
        document = services.document_publish(by=request.user, **values)
        return Response(DocumentOutput(_document(document)).data, status=status.HTTP_201_CREATED)
