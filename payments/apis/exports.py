"""Staff: `GET /api/exports/{kind}?start=AAAA-MM-JJ&end=AAAA-MM-JJ` answers a CSV file (docs/decisions.md 39);
with `format=xlsx` (or `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`), the same table
as an .xlsx workbook. The file formats are DRF renderers, chosen by DRF's content negotiation; errors answer JSON."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.errors import CONFLICT, NOT_FOUND
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput, StudioAutoSchema
from studio.spreadsheets import XLSX_CONTENT_TYPE

from ..exports import EXPORTS, FILE_FORMATS, export_file
from ..services.common import PaymentError

MSG_EXPORT_UNKNOWN = "Cet export n'existe pas."
MSG_EXPORT_DATE = "Les dates de l'export doivent être au format AAAA-MM-JJ."
MSG_EXPORT_RANGE = "La date de fin doit être le jour de début ou après, sur cinq ans au plus."
MSG_EXPORT_FORMAT = "Ce format d'export n'existe pas : choisissez csv ou xlsx."
MSG_EXPORT_NOT_ACCEPTABLE = "Un export est un fichier CSV ou .xlsx : l'en-tête Accept n'accepte ni l'un ni l'autre."
NOT_ACCEPTABLE = 406
MAX_EXPORT_DAYS = 5 * 366
JSON = "application/json"
FILE_DESCRIPTION = (
    "Le fichier : CSV UTF-8 avec BOM, « ; » (format=csv, par défaut), ou classeur .xlsx aux cellules typées "
    "(format=xlsx)."
)


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class XlsxRenderer(BaseRenderer):
    media_type = XLSX_CONTENT_TYPE
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class ExportNegotiation(DefaultContentNegotiation):
    """DRF's negotiation (`format=` first, then the Accept header), refusing in French."""

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            raise PaymentError(MSG_EXPORT_NOT_ACCEPTABLE, code="export_not_acceptable", status=NOT_ACCEPTABLE) from None

    def filter_renderers(self, renderers, format):
        matching = [r for r in renderers if r.format == format]
        if not matching:
            raise PaymentError(MSG_EXPORT_FORMAT, code="export_format", status=NOT_FOUND, field="format")
        return matching


class ExportSchema(StudioAutoSchema):
    """The file is CSV or .xlsx; an error is the JSON every API answers."""

    def _get_response_for_code(self, serializer, status_code, media_types=None, direction="response"):
        if media_types is None and not str(status_code).startswith("2"):
            media_types = (JSON,)
        return super()._get_response_for_code(serializer, status_code, media_types, direction)


class ExportQuery(serializers.Serializer):
    start = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=dict.fromkeys(["required", "null", "invalid"], MSG_EXPORT_DATE)
    )
    end = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=dict.fromkeys(["required", "null", "invalid"], MSG_EXPORT_DATE)
    )


class ExportApi(APIView):
    permission_classes = [IsStudioStaff]
    renderer_classes = [CsvRenderer, XlsxRenderer]  # the first is the default: CSV
    content_negotiation_class = ExportNegotiation
    schema = ExportSchema()

    @extend_schema(
        operation_id="export_file",
        parameters=[
            OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=list(EXPORTS)),
            OpenApiParameter("format", str, enum=list(FILE_FORMATS), description="csv (par défaut) ou xlsx."),
            OpenApiParameter("start", OpenApiTypes.DATE, required=True, description="Premier jour (heure de Paris)."),
            OpenApiParameter("end", OpenApiTypes.DATE, required=True, description="Dernier jour inclus."),
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=FILE_DESCRIPTION),
            (200, XLSX_CONTENT_TYPE): OpenApiResponse(OpenApiTypes.BINARY, description=FILE_DESCRIPTION),
            (400, JSON): ErrorOutput,
            (404, JSON): ErrorOutput,
            (406, JSON): ErrorOutput,
            (409, JSON): ErrorOutput,
        },
    )
    def get(self, request, kind: str):
        if kind not in EXPORTS:
            raise PaymentError(MSG_EXPORT_UNKNOWN, code="export_unknown", status=NOT_FOUND)
        query = ExportQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        start, end = query.validated_data["start"], query.validated_data["end"]
        if end < start or (end - start).days > MAX_EXPORT_DAYS:
            # Two dates each valid that contradict each other (no schema can say it): a conflict, as elsewhere.
            raise PaymentError(MSG_EXPORT_RANGE, code="export_range", status=CONFLICT, field="end")
        name, content = export_file(kind, start=start, end=end, file_format=request.accepted_renderer.format)
        return Response(content, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and response.status_code >= 400:
            # An error is the API's JSON body, whichever file format was asked for.
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSON
        return super().finalize_response(request, response, *args, **kwargs)
