"""`GET /api/instructors/{id}/statements?month=YYYY-MM` (docs/decisions.md 52): an instructor's monthly statement,
as JSON (default), CSV (`format=csv`, docs/decisions.md 39) or PDF (`format=pdf`). Staff read anyone's; an instructor
only their own (another's is a 404, as an unknown one); anyone else is refused (403)."""

from datetime import date

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.models import Instructor
from studio.errors import BAD_REQUEST, FORBIDDEN, NOT_FOUND, ApplicationError
from studio.fields import DateTimeOutputField
from studio.permissions import IsStudioStaffOrInstructor, is_studio_staff
from studio.schema import ErrorOutput, StudioAutoSchema

from ..selectors.instructor import MSG_NOT_AN_INSTRUCTOR, teaching_instructor
from ..selectors.statements import instructor_statement
from ..statement_files import statement_csv, statement_file_name, statement_pdf

MSG_STATEMENT_INSTRUCTOR_NOT_FOUND = "Professeur introuvable."
MSG_STATEMENT_MONTH = "Le mois s'écrit AAAA-MM (par exemple 2026-11)."
MSG_STATEMENT_FORMAT = "Ce format n'existe pas : choisissez json, csv ou pdf."
JSON = "application/json"
PDF = "application/pdf"


class StatementError(ApplicationError):
    default_code = "statement_invalid"


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"  # the bytes are UTF-8 with their byte-order mark (docs/decisions.md 39)

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class PdfRenderer(BaseRenderer):
    media_type = PDF
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class StatementNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            raise StatementError(MSG_STATEMENT_FORMAT, code="statement_format", status=406) from None

    def filter_renderers(self, renderers, format):
        matching = [r for r in renderers if r.format == format]
        if not matching:
            raise StatementError(MSG_STATEMENT_FORMAT, code="statement_format", status=NOT_FOUND, field="format")
        return matching


class StatementSchema(StudioAutoSchema):
    def _get_response_for_code(self, serializer, status_code, media_types=None, direction="response"):
        if media_types is None and not str(status_code).startswith("2"):
            media_types = (JSON,)
        return super()._get_response_for_code(serializer, status_code, media_types, direction)


class StatementQuery(serializers.Serializer):
    month = serializers.RegexField(
        r"^(20[0-9]{2})-(0[1-9]|1[0-2])$",
        required=False,
        error_messages=dict.fromkeys(["invalid", "blank", "null"], MSG_STATEMENT_MONTH),
    )

    def to_internal_value(self, data):
        # Absent is this month; sent empty is no month (DRF would read an empty query value as absent).
        if data.get("month") == "":
            raise serializers.ValidationError({"month": [MSG_STATEMENT_MONTH]})
        return super().to_internal_value(data)


class StatementLineOutput(serializers.Serializer):
    session_id = serializers.IntegerField()
    date = DateTimeOutputField(source="start")
    course_title = serializers.CharField()
    attendees = serializers.IntegerField(help_text="Participants des réservations pointées présentes.")
    rule_kind = serializers.CharField(source="rule.kind", default=None, allow_null=True)
    rule = serializers.CharField(source="rule_text")
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)


class StatementInstructorOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class StatementOutput(serializers.Serializer):
    instructor = StatementInstructorOutput()
    month = serializers.CharField()
    month_label = serializers.CharField()
    lines = StatementLineOutput(many=True)
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    csv_url = serializers.CharField()
    pdf_url = serializers.CharField()


def statement_instructor(*, user, instructor_id: int) -> Instructor:
    """Staff: any instructor. An instructor: their own record only; another's is answered as an unknown one."""
    if is_studio_staff(user):
        instructor = Instructor.objects.filter(pk=instructor_id).first()
    else:
        own = teaching_instructor(user)
        if own is None:
            raise StatementError(MSG_NOT_AN_INSTRUCTOR, code="not_an_instructor", status=FORBIDDEN)
        instructor = own if own.pk == instructor_id else None
    if instructor is None:
        raise StatementError(MSG_STATEMENT_INSTRUCTOR_NOT_FOUND, code="instructor_not_found", status=NOT_FOUND)
    return instructor


def statement_month(value: str | None) -> date:
    if not value:
        return timezone.localdate().replace(day=1)
    year, month = value.split("-")
    return date(int(year), int(month), 1)


class InstructorStatementApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]
    renderer_classes = [JSONRenderer, CsvRenderer, PdfRenderer]  # the first is the default: JSON
    content_negotiation_class = StatementNegotiation
    schema = StatementSchema()

    @extend_schema(
        operation_id="instructor_statement",
        parameters=[
            OpenApiParameter("month", str, pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$", description="AAAA-MM (Paris)."),
            OpenApiParameter("format", str, enum=["json", "csv", "pdf"], description="json (par défaut), csv, pdf."),
        ],
        responses={
            (200, JSON): StatementOutput,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="Le relevé en CSV."),
            (200, PDF): OpenApiResponse(OpenApiTypes.BINARY, description="Le relevé en PDF."),
            (BAD_REQUEST, JSON): ErrorOutput,
            (FORBIDDEN, JSON): ErrorOutput,
            (NOT_FOUND, JSON): ErrorOutput,
            (406, JSON): ErrorOutput,
        },
    )
    def get(self, request, instructor_id: int):
        query = StatementQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        instructor = statement_instructor(user=request.user, instructor_id=instructor_id)
        statement = instructor_statement(
            instructor=instructor, month=statement_month(query.validated_data.get("month"))
        )
        file_format = request.accepted_renderer.format
        if file_format in ("csv", "pdf"):
            content = statement_csv(statement) if file_format == "csv" else statement_pdf(statement)
            name = statement_file_name(statement, file_format)
            return Response(content, headers={"Content-Disposition": f'attachment; filename="{name}"'})
        base = f"/api/instructors/{instructor.pk}/statements?month={statement.month:%Y-%m}"
        body = {
            "instructor": instructor,
            "month": f"{statement.month:%Y-%m}",
            "month_label": statement.month_label,
            "lines": statement.lines,
            "total": statement.total,
            "csv_url": f"{base}&format=csv",
            "pdf_url": f"{base}&format=pdf",
        }
        return Response(StatementOutput(body).data)

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSON
        return super().finalize_response(request, response, *args, **kwargs)
