"""The input fields the front desk's APIs share: the means of payment lines and the sale's idempotency key."""

from decimal import Decimal

from rest_framework import serializers

from ..choices import DeskMeans
from ..services.desk import MSG_DESK_MEANS_REQUIRED, DeskLine

MSG_MEANS_INVALID = (
    "Moyen de paiement inconnu : espèces (cash), carte bancaire (TPE) (card_terminal), chèque (cheque), "
    "Chèque-Vacances (ANCV) (ancv), Pass'Sport (pass_sport) ou Coupon Sport (coupon_sport)."
)
MSG_LINE_AMOUNT_INVALID = "Chaque montant doit être un nombre en euros supérieur à 0 (2 décimales au plus)."
MSG_LINES_INVALID = "Indiquez les moyens de paiement : une liste de lignes « moyen (means), montant (amount) »."
MSG_IDEMPOTENCY_KEY_INVALID = "La clé de la vente doit être un identifiant UUID."
MAX_LINES = 10


def _same(message, *keys):
    return dict.fromkeys(keys, message)


class DeskLineInput(serializers.Serializer):
    means = serializers.ChoiceField(
        choices=DeskMeans.choices, error_messages=_same(MSG_MEANS_INVALID, "required", "null", "invalid_choice")
    )
    amount = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        error_messages=_same(
            MSG_LINE_AMOUNT_INVALID,
            "required",
            "null",
            "invalid",
            "min_value",
            "max_value",
            "max_digits",
            "max_decimal_places",
            "max_whole_digits",
            "max_string_length",
        ),
    )


def desk_lines_field(*, required: bool) -> serializers.ListField:
    return serializers.ListField(
        child=DeskLineInput(),
        required=required,
        min_length=1,
        allow_empty=False,
        max_length=MAX_LINES,
        error_messages={
            **_same(MSG_LINES_INVALID, "required", "null", "not_a_list", "max_length"),
            **_same(MSG_DESK_MEANS_REQUIRED, "min_length", "empty"),
        },
    )


def idempotency_key_field(*, required: bool) -> serializers.UUIDField:
    return serializers.UUIDField(
        required=required,
        help_text="Une clé par vente (UUID), la même si elle est envoyée à nouveau : une seule vente est enregistrée.",
        error_messages=_same(MSG_IDEMPOTENCY_KEY_INVALID, "required", "null", "invalid"),
    )


def desk_lines(data) -> list[DeskLine]:
    return [DeskLine(means=line["means"], amount=line["amount"]) for line in data or []]
