"""Promo codes (docs/decisions.md 49, 56): the staff's list and edits (`/api/promo-codes`), and the member's preview of
a code and a gift card on what they are about to buy (`/api/promo-codes/check`). The order endpoints price them again
under their locks: the preview promises nothing."""

from decimal import Decimal

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.models import Reservation
from courses.models import Tariff
from studio.errors import NOT_FOUND
from studio.fields import StrictBooleanField
from studio.parsers import JSON_ONLY
from studio.permissions import IsStudioStaff
from studio.ratelimit import PublicFormThrottle, public_form_limited
from studio.schema import ErrorOutput, StudioAutoSchema

from ..models import PromoCode, PromoKind
from ..services.promo import (
    MSG_PROMO_NOT_FOUND,
    PromoError,
    promo_check_applies,
    promo_delete,
    promo_discount,
    promo_find,
    promo_get,
    promo_save,
)
from ..services.spending import gift_card_find, gift_card_part

MAX_ID = 2**31 - 1
MAX_QUANTITY = 50
MSG_CODE = "Le code : 2 à 40 lettres, chiffres, tirets ou soulignés."
MSG_KIND = "Le type de remise est « percent » ou « amount »."
MSG_VALUE = "La valeur de la remise est un nombre entre 0,01 et 99 999."
MSG_DATE = "Date invalide (AAAA-MM-JJ)."
MSG_LIMIT = "Une limite d'utilisations est un nombre entre 1 et 100 000, ou vide."
MSG_TARIFFS = "Les tarifs sont une liste d'identifiants de tarifs existants."
MSG_LABEL = "Le libellé fait au plus 120 caractères."
MSG_ACTIVE = "« actif » vaut true ou false."
MSG_WHAT = "Indiquez le tarif (tariff_id) ou la réservation (reservation_id) concernés."
MSG_PURCHASE_NOT_FOUND = "Ce tarif ou cette réservation est introuvable."
MSG_QUANTITY = f"La quantité doit être un nombre entre 1 et {MAX_QUANTITY}."
MSG_GIFT_CODE = "Le code de carte cadeau fait au plus 32 caractères."
VALUE_PATTERN = r"^(?:[1-9][0-9]{0,4}(?:\.[0-9]{1,2})?|0\.(?:0[1-9]|[1-9][0-9]?))$"
NOT_FOUND_ANSWER = OpenApiResponse(ErrorOutput, description="Code promo introuvable.")
TEXT_KEYS = ("invalid", "blank", "required", "null", "max_length", "min_length")
NUMBER_KEYS = ("invalid", "required", "null", "min_value", "max_value", "max_string_length")


def _messages(text: str, *keys: str) -> dict:
    return dict.fromkeys(keys, text)


def _limit():
    return serializers.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        allow_null=True,
        error_messages=_messages(MSG_LIMIT, *NUMBER_KEYS),
    )


def _day():
    return serializers.DateField(
        required=False, allow_null=True, error_messages=_messages(MSG_DATE, "invalid", "datetime")
    )


def _id(message: str):
    return serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, error_messages=_messages(message, *NUMBER_KEYS)
    )


class PromoInput(serializers.Serializer):
    code = serializers.RegexField(
        r"^[A-Za-z0-9_-]{2,40}$", max_length=40, error_messages=_messages(MSG_CODE, *TEXT_KEYS)
    )
    label = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", error_messages=_messages(MSG_LABEL, *TEXT_KEYS)
    )
    kind = serializers.ChoiceField(
        choices=PromoKind.choices, error_messages=_messages(MSG_KIND, "invalid_choice", "required", "null")
    )
    # Text, so that the schema says exactly what is taken: 0.01 to 99999.99, two decimals at most.
    value = serializers.RegexField(VALUE_PATTERN, max_length=8, error_messages=_messages(MSG_VALUE, *TEXT_KEYS))
    tariffs = serializers.ListField(
        child=serializers.IntegerField(
            min_value=1, max_value=MAX_ID, error_messages=_messages(MSG_TARIFFS, *NUMBER_KEYS)
        ),
        required=False,
        default=list,
        max_length=200,
        error_messages=_messages(MSG_TARIFFS, "not_a_list", "max_length", "null"),
    )
    starts_on = _day()
    ends_on = _day()
    max_uses = _limit()
    max_uses_per_member = _limit()
    active = StrictBooleanField(required=False, default=True, error_messages=_messages(MSG_ACTIVE, "invalid", "null"))

    def validate_value(self, value):
        return Decimal(value)

    def validate_tariffs(self, ids):
        ids = sorted(set(ids))
        if Tariff.objects.filter(pk__in=ids).count() != len(ids):
            raise serializers.ValidationError(MSG_TARIFFS)
        return ids


class PromoOutput(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    label = serializers.CharField()
    kind = serializers.ChoiceField(choices=PromoKind.choices)
    value = serializers.DecimalField(max_digits=8, decimal_places=2)
    tariffs = serializers.SerializerMethodField(help_text="Les tarifs couverts ; vide : tous les achats.")
    starts_on = serializers.DateField(allow_null=True)
    ends_on = serializers.DateField(allow_null=True)
    max_uses = serializers.IntegerField(allow_null=True)
    max_uses_per_member = serializers.IntegerField(allow_null=True)
    uses_count = serializers.IntegerField(help_text="Commandes payées avec ce code.")
    active = serializers.BooleanField()

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_tariffs(self, promo) -> list[int]:
        return sorted(t.pk for t in promo.tariffs.all())


def _values(request) -> dict:
    data = PromoInput(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


class PromoListApi(APIView):
    """GET /api/promo-codes: the codes, newest first; POST: a new code (staff)."""

    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(responses=PromoOutput(many=True))
    def get(self, request):
        return Response(PromoOutput(PromoCode.objects.prefetch_related("tariffs"), many=True).data)

    @extend_schema(request=PromoInput, responses={201: PromoOutput, 400: ErrorOutput, 409: ErrorOutput})
    def post(self, request):
        promo = promo_save(values=_values(request))
        return Response(PromoOutput(promo).data, status=status.HTTP_201_CREATED)


class PromoDetailApi(APIView):
    """PUT /api/promo-codes/{id}: the code replaced; DELETE: removed when no order used it (409 otherwise)."""

    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(
        request=PromoInput, responses={200: PromoOutput, 400: ErrorOutput, 404: NOT_FOUND_ANSWER, 409: ErrorOutput}
    )
    def put(self, request, promo_id: int):
        promo_get(promo_id)
        return Response(PromoOutput(promo_save(promo_id=promo_id, values=_values(request))).data)

    @extend_schema(responses={204: None, 404: NOT_FOUND_ANSWER, 409: ErrorOutput})
    def delete(self, request, promo_id: int):
        promo_delete(promo_id=promo_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CheckInput(serializers.Serializer):
    # Always sent (blank: no code), so that a request names what it checks.
    code = serializers.CharField(
        max_length=40, allow_blank=True, error_messages=_messages(MSG_PROMO_NOT_FOUND, *TEXT_KEYS)
    )
    gift_card_code = serializers.CharField(
        max_length=32, required=False, allow_blank=True, default="", error_messages=_messages(MSG_GIFT_CODE, *TEXT_KEYS)
    )
    tariff_id = _id(MSG_WHAT)
    reservation_id = _id(MSG_WHAT)
    quantity = serializers.IntegerField(
        min_value=1,
        max_value=MAX_QUANTITY,
        required=False,
        default=1,
        error_messages=_messages(MSG_QUANTITY, *NUMBER_KEYS),
    )

    def validate(self, attrs):
        if ("tariff_id" in attrs) == ("reservation_id" in attrs):
            raise serializers.ValidationError(MSG_WHAT)
        return attrs


class CheckSchema(StudioAutoSchema):
    """The preview is about one purchase: `oneOf` a tariff or a reservation says so in the schema."""

    def _map_serializer(self, serializer, direction, bypass_extensions=False):
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        if isinstance(serializer, CheckInput) and direction == "request":
            schema["oneOf"] = [
                {"required": ["tariff_id"], "not": {"required": ["reservation_id"]}},
                {"required": ["reservation_id"], "not": {"required": ["tariff_id"]}},
            ]
        return schema


class CheckOutput(serializers.Serializer):
    price = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Le prix avant remise.")
    discount = serializers.DecimalField(max_digits=10, decimal_places=2)
    discount_label = serializers.CharField()
    total = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Le prix facturé, remise déduite.")
    gift_card_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    gift_card_balance = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    to_pay = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Ce qui reste à payer par carte.")


def _price(user, values) -> tuple[Decimal, int | None]:
    """The purchase's price from the database: the member's own reservation, or a tariff × quantity."""
    if "reservation_id" in values:
        reservation = Reservation.objects.filter(pk=values["reservation_id"], user_id=user.pk).first()
        if reservation is None:
            raise PromoError(MSG_PURCHASE_NOT_FOUND, code="purchase_not_found", status=NOT_FOUND)
        return reservation.total_amount, None
    tariff = Tariff.objects.filter(pk=values["tariff_id"]).first()
    if tariff is None:
        raise PromoError(MSG_PURCHASE_NOT_FOUND, code="purchase_not_found", status=NOT_FOUND)
    return (tariff.price * values["quantity"]).quantize(Decimal("0.01")), tariff.pk


class PromoCheckApi(APIView):
    """POST /api/promo-codes/check: what a code and a gift card would take off a purchase, refused in French when
    one cannot apply. The order prices them again (limits under lock)."""

    permission_classes = [IsAuthenticated]
    parser_classes = JSON_ONLY
    schema = CheckSchema()
    # Promo codes are words one can guess (BIENVENUE15): the previews are counted per client address. A gift card's
    # code typed here counts against the balance check's limit too, so that this is no way around it (point 61).
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "promo_check"

    @extend_schema(
        request=CheckInput,
        responses={200: CheckOutput, 400: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput, 429: ErrorOutput},
    )
    def post(self, request):
        data = CheckInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        price, tariff_id = _price(request.user, values)
        discount, label = Decimal("0.00"), ""
        if values["code"].strip():
            promo = promo_find(values["code"], field="code")
            promo_check_applies(promo, tariff_id=tariff_id)
            discount, label = promo_discount(promo, price), f"Code promo {promo.code}"
        total = price - discount
        part, balance = Decimal("0.00"), None
        if values["gift_card_code"].strip():
            refused, wait = public_form_limited(request._request, "gift_card_check")
            if refused:
                self.throttled(request, wait)
            card = gift_card_find(values["gift_card_code"])
            part, balance = gift_card_part(card, total), card.balance
        body = {
            "price": price,
            "discount": discount,
            "discount_label": label,
            "total": total,
            "gift_card_amount": part,
            "gift_card_balance": balance,
            "to_pay": total - part,
        }
        return Response(CheckOutput(body).data)
