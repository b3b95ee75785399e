"""The gift cards' API below payments (docs/decisions.md 55 and 56): the holder's own cards, the balance check by
code (public, rate-limited), and staff's list, adjustment and CSV export. Buying one is payments' order
(payments/apis/gift_card_orders.py, which answers the same `/api/gift-cards` with POST)."""

from datetime import date

from django.core.validators import RegexValidator
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import FILLED
from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.ratelimit import PublicFormThrottle
from studio.schema import ErrorOutput
from studio.spreadsheets import CSV_CONTENT_TYPE

from ..errors import MSG_GIFT_CARD_NOT_FOUND
from ..exports import gift_cards_csv
from ..models import GiftCard, GiftCardStatus
from ..selectors import gift_cards_for_staff
from ..services.gift_cards import MSG_ADJUST_REASON, gift_card_adjust, gift_card_by_code, gift_cards_of_holder

MSG_ADJUST_AMOUNT = "Indiquez un montant en euros, par exemple 10.00 ou -5.00 (jamais 0)."
MSG_CARD_NOT_FOUND = "Carte cadeau introuvable."
CODE_MAX = 40
STAFF_LIST_MAX = 200


def _today() -> date:
    return timezone.localdate()


class GiftCardOutput(serializers.Serializer):
    code = serializers.CharField()
    kind = serializers.CharField(help_text="amount (un montant) ou tariff (un tarif offert).")
    tariff_title = serializers.CharField(allow_blank=True)
    initial_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    balance = serializers.DecimalField(max_digits=10, decimal_places=2)
    status = serializers.ChoiceField(choices=GiftCardStatus.choices)
    expires_on = serializers.DateField(allow_null=True)
    expired = serializers.BooleanField()
    recipient_name = serializers.CharField(allow_blank=True)
    send_on = serializers.DateField(allow_null=True)
    sent_at = serializers.DateTimeField(allow_null=True)
    bought_by_me = serializers.BooleanField()


def gift_card_body(card: GiftCard, *, user=None, today: date | None = None) -> dict:
    today = today or _today()
    return {
        "code": card.code,
        "kind": card.kind,
        "tariff_title": card.tariff.title if card.tariff_id else "",
        "initial_amount": card.initial_amount,
        "balance": card.balance,
        "status": card.status,
        "expires_on": card.expires_on,
        "expired": card.expires_on is not None and card.expires_on < today,
        "recipient_name": card.recipient_name,
        "send_on": card.send_on,
        "sent_at": card.sent_at,
        "bought_by_me": user is not None and card.buyer_id == user.pk,
    }


class MyGiftCardsApi(APIView):
    """GET /api/gift-cards: the cards the member holds (bought, or sent to their e-mail address)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="gift_cards_mine", responses={200: GiftCardOutput(many=True), 403: ErrorOutput})
    def get(self, request):
        cards = gift_cards_of_holder(request.user).select_related("tariff")
        today = _today()
        return Response(
            GiftCardOutput([gift_card_body(c, user=request.user, today=today) for c in cards], many=True).data
        )


class GiftCardCheckInput(serializers.Serializer):
    code = serializers.CharField(
        max_length=CODE_MAX,
        # The schema says a blank code is refused, as it is.
        validators=[RegexValidator(FILLED, message=MSG_GIFT_CARD_NOT_FOUND)],
        error_messages=dict.fromkeys(("required", "null", "blank", "invalid", "max_length"), MSG_GIFT_CARD_NOT_FOUND),
    )


class GiftCardBalanceOutput(serializers.Serializer):
    code = serializers.CharField()
    balance = serializers.DecimalField(max_digits=10, decimal_places=2)
    status = serializers.ChoiceField(choices=GiftCardStatus.choices)
    expires_on = serializers.DateField(allow_null=True)
    expired = serializers.BooleanField()


class GiftCardCheckApi(APIView):
    """POST /api/gift-cards/check {code}: a card's balance and validity, for anyone holding its code; rate-limited
    per client address, so that codes cannot be guessed (docs/decisions.md 31)."""

    permission_classes = [AllowAny]
    parser_classes = [BoundedJSONParser]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "gift_card_check"

    @extend_schema(
        operation_id="gift_card_check",
        request=GiftCardCheckInput,
        responses={200: GiftCardBalanceOutput, 400: ErrorOutput, 404: ErrorOutput, 429: ErrorOutput},
    )
    def post(self, request):
        data = GiftCardCheckInput(data=request.data)
        data.is_valid(raise_exception=True)
        card = gift_card_by_code(data.validated_data["code"])
        today = _today()
        return Response(
            GiftCardBalanceOutput(
                {
                    "code": card.code,
                    "balance": card.balance,
                    "status": card.status,
                    "expires_on": card.expires_on,
                    "expired": card.expires_on is not None and card.expires_on < today,
                }
            ).data
        )


class StaffGiftCardOutput(GiftCardOutput):
    id = serializers.IntegerField()
    buyer_name = serializers.CharField(allow_blank=True)
    buyer_email = serializers.CharField(allow_blank=True)
    recipient_email = serializers.CharField(allow_blank=True)
    purchased_at = serializers.DateTimeField(allow_null=True)
    movements = serializers.ListField(
        child=serializers.DictField(), help_text="kind, amount, balance_after, reason, at"
    )


def staff_gift_card_body(card: GiftCard, today: date) -> dict:
    return {
        **gift_card_body(card, today=today),
        "id": card.pk,
        "buyer_name": card.buyer_name,
        "buyer_email": card.buyer_email,
        "recipient_email": card.recipient_email,
        "purchased_at": card.purchased_at,
        "movements": [
            {
                "kind": movement.get_kind_display(),
                "amount": f"{movement.amount:.2f}",
                "balance_after": f"{movement.balance_after:.2f}",
                "reason": movement.reason,
                "at": movement.created_at.isoformat(),
            }
            for movement in card.movements.all()
        ],
    }


# A NUL in a query answers 400 (studio/request_limits.py): the schema says so.
SEARCH = OpenApiParameter(
    "q", {"type": "string", "pattern": r"^[^\x00]*$"}, description="Code, nom ou e-mail (acheteur ou bénéficiaire)."
)


class StaffGiftCardsApi(APIView):
    """GET /api/gift-cards/staff?q=: the paid cards, newest first, with their movements (staff only)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="gift_cards_staff_list",
        parameters=[SEARCH],
        responses={200: StaffGiftCardOutput(many=True), 403: ErrorOutput},
    )
    def get(self, request):
        today = _today()
        cards = gift_cards_for_staff(query=request.query_params.get("q", ""))[:STAFF_LIST_MAX]
        return Response(StaffGiftCardOutput([staff_gift_card_body(card, today) for card in cards], many=True).data)


@extend_schema_field({"type": "string", "pattern": r"^-?[0-9]{1,6}(\.[0-9]{1,2})?$", "example": "-5.00"})
class SignedAmount(serializers.DecimalField):
    """Euros as a string ("10.00", "-5.00"), as the dashboard sends them; a JSON number is no way to carry money."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class GiftCardAdjustInput(serializers.Serializer):
    amount = SignedAmount(
        max_digits=8,
        decimal_places=2,
        min_value=-100000,
        max_value=100000,
        error_messages=dict.fromkeys(
            (
                "required",
                "null",
                "invalid",
                "max_digits",
                "max_decimal_places",
                "max_whole_digits",
                "min_value",
                "max_value",
                "max_string_length",
            ),
            MSG_ADJUST_AMOUNT,
        ),
    )
    reason = serializers.CharField(
        max_length=300,
        validators=[RegexValidator(FILLED, message=MSG_ADJUST_REASON)],
        error_messages=dict.fromkeys(("required", "null", "blank", "invalid", "max_length"), MSG_ADJUST_REASON),
    )


class GiftCardAdjustApi(APIView):
    """POST /api/gift-cards/{id}/adjust {amount, reason}: staff add to or take from a card's balance."""

    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="gift_card_adjust",
        request=GiftCardAdjustInput,
        responses={200: StaffGiftCardOutput, 400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, card_id: int):
        data = GiftCardAdjustInput(data=request.data)
        data.is_valid(raise_exception=True)
        if not GiftCard.objects.filter(pk=card_id).exists():
            raise NotFound(MSG_CARD_NOT_FOUND)
        if data.validated_data["amount"] == 0:
            raise ValidationError({"amount": [MSG_ADJUST_AMOUNT]})
        gift_card_adjust(
            card_id=card_id,
            amount=data.validated_data["amount"],
            reason=data.validated_data["reason"],
            staff=request.user,
        )
        card = gift_cards_for_staff(query="").get(pk=card_id)
        return Response(StaffGiftCardOutput(staff_gift_card_body(card, _today())).data)


class GiftCardsCsvApi(APIView):
    """GET /api/gift-cards/export.csv: every paid card, for the accounts (text cells neutralised)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="gift_cards_csv",
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="Les cartes cadeaux en CSV."),
            (403, "application/json"): ErrorOutput,
        },
    )
    def get(self, request):
        response = HttpResponse(gift_cards_csv().encode("utf-8"), content_type=CSV_CONTENT_TYPE)
        response["Content-Disposition"] = 'attachment; filename="cartes-cadeaux.csv"'
        return response
