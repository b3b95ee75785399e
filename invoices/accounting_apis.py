"""Staff: the accountant's files for a period (docs/decisions.md 54). `GET /api/accounting/journal?start=&end=`
answers the journal as CSV, `GET /api/accounting/fec?start=&end=` the FEC file; dates and errors as the other exports
(payments' exports API: the same query, messages and renderers)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from payments.apis.exports import (
    JSON,
    MAX_EXPORT_DAYS,
    MSG_EXPORT_RANGE,
    CsvRenderer,
    ExportNegotiation,
    ExportQuery,
    ExportSchema,
)
from studio.errors import CONFLICT
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from .accounting_files import fec_file, journal_csv
from .errors import InvoiceError

MSG_ACCOUNTING_YEARS = "Les comptes d'une période entre l'an 2000 et l'an 2100 seulement."
FIRST_YEAR, LAST_YEAR = 2000, 2100


class FecRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


PERIOD = [
    OpenApiParameter("start", OpenApiTypes.DATE, required=True, description="Premier jour (heure de Paris)."),
    OpenApiParameter("end", OpenApiTypes.DATE, required=True, description="Dernier jour inclus."),
]
ERRORS = {(status, JSON): ErrorOutput for status in (400, 406, 409)}


class _AccountingFileApi(APIView):
    permission_classes = [IsStudioStaff]
    content_negotiation_class = ExportNegotiation
    schema = ExportSchema()
    write = staticmethod(journal_csv)

    def get(self, request):
        query = ExportQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        start, end = query.validated_data["start"], query.validated_data["end"]
        if not FIRST_YEAR <= start.year <= LAST_YEAR or not FIRST_YEAR <= end.year <= LAST_YEAR:
            # No invoice before the site, and a Paris day of year 1 has no UTC instant.
            raise InvoiceError(MSG_ACCOUNTING_YEARS, code="export_years", status=CONFLICT, field="start")
        if end < start or (end - start).days > MAX_EXPORT_DAYS:
            raise InvoiceError(MSG_EXPORT_RANGE, code="export_range", status=CONFLICT, field="end")
        name, content = self.write(start=start, end=end)
        return Response(content, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSON
        return super().finalize_response(request, response, *args, **kwargs)


class AccountingJournalApi(_AccountingFileApi):
    renderer_classes = [CsvRenderer]
    write = staticmethod(journal_csv)

    @extend_schema(
        operation_id="accounting_journal",
        parameters=PERIOD,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="Le journal : CSV UTF-8 avec BOM, « ; »."),
            **ERRORS,
        },
    )
    def get(self, request):
        return super().get(request)


class AccountingFecApi(_AccountingFileApi):
    renderer_classes = [FecRenderer]
    write = staticmethod(fec_file)

    @extend_schema(
        operation_id="accounting_fec",
        parameters=PERIOD,
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, description="Le FEC : 18 colonnes séparées par des tabulations, UTF-8."
            ),
            **ERRORS,
        },
    )
    def get(self, request):
        return super().get(request)
