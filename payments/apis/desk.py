"""The front desk's till ("Caisse", docs/decisions.md 43), staff only:

- `POST /api/desk/sales` `{user_id, tariff_id | reservation_id | charge_id, payments: [{means, amount}],
  idempotency_key}`: sell a class card or a subscription's first period, settle a booking "à régler", or pay a
  subscription's later period (due or refused), paid by one or several means;
- `GET /api/desk/periods?user_id=N`: the client's subscription periods due or refused, to be paid at the desk;
- `GET /api/desk/takings?date=YYYY-MM-DD`: the day's takings by means and its sales ("caisse du jour");
- `GET /api/desk/takings.csv?date=YYYY-MM-DD`: the same as CSV (docs/decisions.md 39).
"""

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput
from studio.spreadsheets import CSV_CONTENT_TYPE

from ..choices import DeskMeans
from ..desk_selectors import desk_periods_due, desk_takings, desk_takings_csv
from ..services.desk import MSG_DESK_SALE_RECORDED, DeskError, desk_sale_record, euros_text, means_text
from ..services.desk_periods import desk_period_sale_record
from .desk_bookings import MSG_USER_ID_INVALID, _id
from .desk_fields import desk_lines, desk_lines_field, idempotency_key_field

MSG_TARIFF_ID_INVALID = "Tarif invalide."
MSG_RESERVATION_ID_INVALID = "Réservation invalide."
MSG_CHARGE_ID_INVALID = "Échéance invalide."
MSG_TAKINGS_DATE_INVALID = "Indiquez le jour au format AAAA-MM-JJ."

DATE_PARAMETER = OpenApiParameter(
    "date", OpenApiTypes.DATE, description="Le jour (heure de Paris), aujourd'hui par défaut."
)


class DeskSaleInput(serializers.Serializer):
    user_id = _id(MSG_USER_ID_INVALID)
    tariff_id = _id(MSG_TARIFF_ID_INVALID, required=False, allow_null=True)
    reservation_id = _id(MSG_RESERVATION_ID_INVALID, required=False, allow_null=True)
    charge_id = _id(MSG_CHARGE_ID_INVALID, required=False, allow_null=True)
    payments = desk_lines_field(required=True)
    idempotency_key = idempotency_key_field(required=True)


class DeskLineOutput(serializers.Serializer):
    means = serializers.ChoiceField(choices=DeskMeans.choices)
    label = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)


class DeskSaleOutput(serializers.Serializer):
    order_id = serializers.CharField()
    title = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    status = serializers.CharField()
    granted_pass_id = serializers.IntegerField(allow_null=True)
    reservation_id = serializers.IntegerField(allow_null=True)
    payments = DeskLineOutput(many=True)
    message = serializers.CharField()


class DeskMeansTotalOutput(serializers.Serializer):
    means = serializers.ChoiceField(choices=DeskMeans.choices)
    label = serializers.CharField()
    count = serializers.IntegerField()
    total = serializers.DecimalField(max_digits=12, decimal_places=2)


class DeskTakingsSaleOutput(serializers.Serializer):
    order_id = serializers.CharField()
    completed_at = serializers.DateTimeField()
    client = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True)
    title = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    status = serializers.CharField()
    status_label = serializers.CharField()
    staff = serializers.CharField()
    payments = DeskLineOutput(many=True)


class DeskTakingsOutput(serializers.Serializer):
    date = serializers.DateField()
    by_means = DeskMeansTotalOutput(many=True)
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    sales = DeskTakingsSaleOutput(many=True)


class DeskTakingsQuery(serializers.Serializer):
    date = serializers.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],
        error_messages=dict.fromkeys(["null", "invalid"], MSG_TAKINGS_DATE_INVALID),
    )

    def to_internal_value(self, data):
        # Absent is today; sent empty is no date (DRF would read an empty query value as absent).
        if data.get("date") == "":
            raise serializers.ValidationError({"date": [MSG_TAKINGS_DATE_INVALID]})
        return super().to_internal_value(data)


def _day(request):
    query = DeskTakingsQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data.get("date") or timezone.localdate()


class DeskSalesApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="desk_sale_create",
        request=DeskSaleInput,
        responses={201: DeskSaleOutput, 400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request):
        serializer = DeskSaleInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        items = [data.get(name) for name in ("tariff_id", "reservation_id", "charge_id")]
        if data.get("charge_id") is not None:
            if sum(item is not None for item in items) != 1:
                raise DeskError.of("item_required")
            order = desk_period_sale_record(
                staff=request.user,
                member_id=data["user_id"],
                charge_id=data["charge_id"],
                lines=desk_lines(data["payments"]),
                idempotency_key=data["idempotency_key"],
            )
        else:
            order = desk_sale_record(
                staff=request.user,
                member_id=data["user_id"],
                tariff_id=data.get("tariff_id"),
                reservation_id=data.get("reservation_id"),
                lines=desk_lines(data["payments"]),
                idempotency_key=data["idempotency_key"],
            )
        lines = list(order.desk_payments.order_by("id"))
        output = {
            "order_id": order.order_id,
            "title": order.title,
            "amount": order.amount,
            "status": order.status,
            "granted_pass_id": order.granted_pass_id,
            "reservation_id": order.reservation_id,
            "payments": [{"means": li.means, "label": li.get_means_display(), "amount": li.amount} for li in lines],
            "message": MSG_DESK_SALE_RECORDED.format(
                title=order.title, amount=euros_text(order.amount), means=means_text(lines)
            ),
        }
        return Response(DeskSaleOutput(output).data, status=status.HTTP_201_CREATED)


class DeskPeriodsQuery(serializers.Serializer):
    user_id = _id(MSG_USER_ID_INVALID)


class DeskPeriodOutput(serializers.Serializer):
    charge_id = serializers.IntegerField()
    subscription_id = serializers.IntegerField()
    title = serializers.CharField()
    period = serializers.IntegerField()
    periods_committed = serializers.IntegerField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    due_on = serializers.DateField()


class DeskPeriodsApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="desk_periods_due",
        parameters=[
            OpenApiParameter(
                "user_id",
                {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
                description="Le client.",
                required=True,
            )
        ],
        responses={200: DeskPeriodOutput(many=True), 400: ErrorOutput, 403: ErrorOutput},
    )
    def get(self, request):
        query = DeskPeriodsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = desk_periods_due(member_id=query.validated_data["user_id"])
        return Response(DeskPeriodOutput(rows, many=True).data)


class DeskTakingsApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="desk_takings",
        parameters=[DATE_PARAMETER],
        responses={200: DeskTakingsOutput, 400: ErrorOutput, 403: ErrorOutput},
    )
    def get(self, request):
        return Response(DeskTakingsOutput(desk_takings(day=_day(request))).data)


class DeskTakingsCsvApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="desk_takings_csv",
        parameters=[DATE_PARAMETER],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="La caisse du jour en CSV."),
            (400, "application/json"): ErrorOutput,
            (403, "application/json"): ErrorOutput,
        },
    )
    def get(self, request):
        name, content = desk_takings_csv(day=_day(request))
        response = HttpResponse(content.encode("utf-8"), content_type=f"{CSV_CONTENT_TYPE}")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
