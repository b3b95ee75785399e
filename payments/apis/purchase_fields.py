"""The order fields every purchase shares: the provider the buyer chose and their acceptance of the terms of sale
(docs/decisions.md 42, 47)."""

from drf_spectacular.utils import extend_schema_field

from studio.fields import StrictBooleanField

from ..choices import ONLINE_PROVIDERS
from ..services.common import MSG_PROVIDER_NOT_OFFERED
from .fields import choice, messages

MSG_TERMS_REQUIRED = "Veuillez accepter les conditions générales de vente."
MSG_IMMEDIATE_START_INVALID = "Dites si le service commence tout de suite : « immediate_start » vaut true ou false."


def accept_terms_field():
    """The buyer's acceptance of the terms of sale (docs/decisions.md 47): the ticked box, true; required to buy a
    tariff or pay a deposit (the validators below refuse anything else with MSG_TERMS_REQUIRED)."""
    return StrictBooleanField(
        required=False,
        default=False,
        error_messages=messages(MSG_TERMS_REQUIRED, "invalid", "null"),
        help_text="true : l'acheteur accepte les conditions générales de vente (obligatoire : tarif, acompte).",
    )


@extend_schema_field({"type": "boolean", "enum": [True]})
class TermsAcceptedField(StrictBooleanField):
    """The ticked box where it is always required (a deposit, PayPal's subscription button): only `true` is
    accepted, and the schema says so."""

    def to_internal_value(self, data):
        if super().to_internal_value(data) is not True:
            self.fail("invalid")
        return True


def terms_accepted_field():
    return TermsAcceptedField(
        error_messages=messages(MSG_TERMS_REQUIRED, "required", "invalid", "null"),
        help_text="true : l'acheteur accepte les conditions générales de vente.",
    )


def provider_field():
    """The provider the member chose (one of the config's `providers`); blank or absent: the first offered. A name
    that is no provider is refused here (400); a provider this studio does not offer is refused by the service (409,
    the same French message): which ones are offered is configuration, not something the request can get wrong."""
    return choice(
        ONLINE_PROVIDERS,
        message=MSG_PROVIDER_NOT_OFFERED,
        blank=True,
        required=False,
        help_text="stripe, paypal ou simulator : l'un des moyens proposés par /api/paypal/config.",
    )


def immediate_start_field():
    """A card's or subscription's buyer asking for the service to start within the 14 days (L221-25)."""
    return StrictBooleanField(
        required=False,
        default=False,
        error_messages=messages(MSG_IMMEDIATE_START_INVALID, "invalid", "null"),
        help_text=(
            "Carte ou abonnement : true si l'acheteur demande que le service commence avant la fin du délai de "
            "rétractation de 14 jours (les séances suivies restent alors dues en cas de rétractation)."
        ),
    )
