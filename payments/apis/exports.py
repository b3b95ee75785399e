"""Staff: `GET /api/exports/{kind}?start=AAAA-MM-JJ&end=AAAA-MM-JJ` answers a CSV file (issue 20, DECISIONS.md 39)."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from studio.errors import CONFLICT, NOT_FOUND
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..exports import EXPORTS, export_csv
from ..services import PaymentError

MSG_EXPORT_UNKNOWN = "Cet export n'existe pas."
MSG_EXPORT_DATE = "Les dates de l'export doivent être au format AAAA-MM-JJ."
MSG_EXPORT_RANGE = "La date de fin doit être le jour de début ou après, sur cinq ans au plus."
MAX_EXPORT_DAYS = 5 * 366


class ExportQuery(serializers.Serializer):
    start = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=dict.fromkeys(["required", "null", "invalid"], MSG_EXPORT_DATE)
    )
    end = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=dict.fromkeys(["required", "null", "invalid"], MSG_EXPORT_DATE)
    )


class ExportApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="export_csv",
        parameters=[
            OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=list(EXPORTS)),
            OpenApiParameter("start", OpenApiTypes.DATE, required=True, description="Premier jour (heure de Paris)."),
            OpenApiParameter("end", OpenApiTypes.DATE, required=True, description="Dernier jour inclus."),
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV UTF-8 avec BOM, « ; »."),
            400: ErrorOutput,
            404: ErrorOutput,
            409: ErrorOutput,
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
        name, text = export_csv(kind, start=start, end=end)
        response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
