"""The staff's payment orders (the dashboard's card-payment orders): a paginated list, and orders typed in by hand."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.pagination import StandardPagination
from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..choices import CURRENCY_EUR
from ..models import PaymentStatus
from ..selectors import DEFAULT_ORDERING, ORDERINGS, payment_order_for_staff, payment_orders_for_staff
from ..services.common import (
    MSG_AMOUNT_INVALID,
    MSG_EMAIL_INVALID,
    MSG_REQUIRED_FIELDS,
    MSG_STATUS_INVALID,
    PaymentError,
)
from ..services.staff import payment_order_staff_create, payment_order_staff_delete, payment_order_staff_update
from .checkout import MESSAGE_MAX, ORDER_ID_MAX
from .fields import MAX_ID, NO_NUL, Amount, Email, Text, choice, messages, optional_text

MSG_CURRENCY_INVALID = "Seul l'euro (EUR) est accepté."
MSG_ORDERING_INVALID = "Tri inconnu."
MSG_PAGE_INVALID = "Numéro de page invalide."
MSG_PAGE_SIZE_INVALID = f"La taille de page doit être un nombre entre 1 et {StandardPagination.max_page_size}."
SEARCH_MAX = 200


class PaymentOrderOutput(serializers.Serializer):
    order_id = serializers.CharField()
    provider = serializers.CharField()
    email = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    title = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    date = serializers.CharField()
    time = serializers.CharField()
    type = serializers.CharField()
    status = choice(PaymentStatus.choices, message=MSG_STATUS_INVALID)
    message = serializers.CharField()
    quantity = serializers.IntegerField()
    reservation_id = serializers.IntegerField(allow_null=True)
    tariff_id = serializers.IntegerField(allow_null=True)
    payment_method = serializers.CharField(help_text="card, wallet, sepa_debit, paypal, ou vide si inconnu.")
    payment_method_label = serializers.CharField(
        help_text="Le moyen de paiement en clair : « Carte •••• 4242 (CB) », « Apple Pay », « PayPal »…"
    )
    capture_id = serializers.CharField()
    provider_note = serializers.CharField()
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)


class DisputeOutput(serializers.Serializer):
    dispute_id = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class PaymentOrderDetailOutput(PaymentOrderOutput):
    """One order for the staff, with the chargebacks the member's bank opened on it (answered in Stripe's
    Dashboard; they block nothing here)."""

    disputes = DisputeOutput(many=True)


class PaymentOrderPageOutput(serializers.Serializer):
    count = serializers.IntegerField(min_value=0)
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = PaymentOrderOutput(many=True)


def _required(max_length: int) -> Text:
    return Text(missing=MSG_REQUIRED_FIELDS, max_length=max_length)


class PaymentOrderInput(serializers.Serializer):
    """An order typed in by the staff (frontend/src/islands/dashboard/sections/Orders.jsx): the columns of
    PaymentOrder; a blank `status` or `type` keeps the current one (or the default)."""

    order_id = _required(ORDER_ID_MAX)
    email = Email(missing=MSG_REQUIRED_FIELDS, invalid=MSG_EMAIL_INVALID)
    first_name = optional_text(150)
    last_name = optional_text(150)
    title = _required(200)
    amount = Amount(message=MSG_AMOUNT_INVALID, missing=MSG_REQUIRED_FIELDS)
    currency = choice([CURRENCY_EUR], message=MSG_CURRENCY_INVALID, blank=True, required=False)
    date = _required(40)
    time = _required(40)
    type = optional_text(30)
    status = choice(PaymentStatus.choices, message=MSG_STATUS_INVALID, blank=True, required=False)
    message = optional_text(MESSAGE_MAX)


class PaymentOrdersQuery(serializers.Serializer):
    ordering = choice(list(ORDERINGS), message=MSG_ORDERING_INVALID, default=DEFAULT_ORDERING)
    status = choice(PaymentStatus.choices, message=MSG_STATUS_INVALID, blank=True, required=False)
    search = optional_text(SEARCH_MAX)
    page = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        error_messages=messages(MSG_PAGE_INVALID, "invalid", "min_value", "max_value", "max_string_length"),
    )
    page_size = serializers.IntegerField(
        min_value=1,
        max_value=StandardPagination.max_page_size,
        required=False,
        error_messages=messages(MSG_PAGE_SIZE_INVALID, "invalid", "min_value", "max_value", "max_string_length"),
    )


# The query as PaymentOrdersQuery reads it (written out: drf-spectacular would add a minLength to `search`).
LIST_PARAMETERS = [
    OpenApiParameter("ordering", {"type": "string", "enum": list(ORDERINGS), "default": DEFAULT_ORDERING}),
    OpenApiParameter("status", {"type": "string", "enum": [*PaymentStatus.values, ""]}),
    OpenApiParameter(
        "search",
        {"type": "string", "maxLength": SEARCH_MAX, "pattern": NO_NUL.regex.pattern},
        description="Dans l'identifiant, l'e-mail, le nom ou l'objet.",
    ),
    OpenApiParameter("page", {"type": "integer", "minimum": 1, "maximum": MAX_ID}),
    OpenApiParameter("page_size", {"type": "integer", "minimum": 1, "maximum": StandardPagination.max_page_size}),
]


class StaffOrdersApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]  # the dashboard sends JSON


class PaymentOrdersApi(StaffOrdersApi):
    """GET (paginated; ?ordering=[-]created|date|amount|status|email, ?status=, ?search=) and POST, staff only."""

    @extend_schema(
        parameters=LIST_PARAMETERS,
        responses={
            200: PaymentOrderPageOutput,
            404: OpenApiResponse(ErrorOutput, description="Au-delà de la dernière page."),
        },
    )
    def get(self, request):
        # A plain dict: a QueryDict would let a blank `page` or `ordering` fall back to the default unsaid.
        query = PaymentOrdersQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        values = query.validated_data
        orders = payment_orders_for_staff(
            ordering=values["ordering"], status=values.get("status", ""), search=values.get("search", "")
        )
        paginator = StandardPagination()
        page = paginator.paginate_queryset(orders, request, view=self)  # the count, then the page
        return Response(PaymentOrderPageOutput(paginator.page_body(page)).data)

    @extend_schema(request=PaymentOrderInput, responses={201: PaymentOrderOutput})
    def post(self, request):
        values = PaymentOrderInput(data=request.data)
        values.is_valid(raise_exception=True)
        order = payment_order_staff_create(data=values.validated_data)
        return Response(PaymentOrderOutput(order).data, status=status.HTTP_201_CREATED)


ORDER_ID = OpenApiParameter("order_id", OpenApiTypes.STR, OpenApiParameter.PATH)


class PaymentOrderDetailApi(StaffOrdersApi):
    """GET, PUT and DELETE /api/paypal/orders/<order_id>, staff only."""

    @extend_schema(
        operation_id="paypal_order_detail",
        parameters=[ORDER_ID],
        responses={
            200: PaymentOrderDetailOutput,
            404: OpenApiResponse(ErrorOutput, description="Commande introuvable."),
        },
    )
    def get(self, request, order_id):
        order = payment_order_for_staff(order_id=order_id)
        if order is None:
            raise PaymentError.of("order_not_found")
        return Response(PaymentOrderDetailOutput(order).data)

    @extend_schema(parameters=[ORDER_ID], request=PaymentOrderInput, responses={200: PaymentOrderOutput})
    def put(self, request, order_id):
        values = PaymentOrderInput(data=request.data)
        values.is_valid(raise_exception=True)
        order = payment_order_staff_update(order_id=order_id, data=values.validated_data)
        return Response(PaymentOrderOutput(order).data)

    @extend_schema(parameters=[ORDER_ID], responses={204: None})
    def delete(self, request, order_id):
        payment_order_staff_delete(order_id=order_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
