"""A member's saved payment method for the later periods of their subscriptions: a card or a SEPA mandate, saved
with the simulator (a form in demonstration) or with Stripe (a SetupIntent confirmed in the Payment Element).

One method is usable per member at a time: saving another replaces it, and the member's live subscriptions charged
by the studio (not PayPal's, which charges by itself) move to the new one. Only what the member recognises a method
by is kept (last 4 digits, brand and expiry; IBAN country and last 4 digits, mandate reference and date).
"""

import logging
import math
import re
import secrets
from datetime import date as date_type
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from studio.errors import BAD_GATEWAY, CONFLICT, NOT_FOUND, TOO_MANY_REQUESTS, ApplicationError

from ...provider_types import CAPTURE_COMPLETED, ProviderError
from ...stripe_gateway import get_stripe_gateway
from ..models import (
    SavedMethodKind,
    SavedMethodProvider,
    SavedMethodStatus,
    SavedPaymentMethod,
    Subscription,
    SubscriptionStatus,
)
from ..simulated_debits import IBAN_RETURNED, OUTCOME_DECLINES, OUTCOME_RETURNED

logger = logging.getLogger(__name__)

MSG_KIND = "Choisissez une carte ou un prélèvement SEPA."
MSG_SCENARIO = "Choisissez une carte simulée qui fonctionne ou qui sera refusée."
MSG_IBAN = "Cet IBAN n'est pas valide : vérifiez-le (ex. FR76 3000 6000 0112 3456 7890 189)."
MSG_HOLDER = "Indiquez le titulaire du compte."
MSG_MANDATE = "Acceptez le mandat de prélèvement SEPA pour l'enregistrer."
MSG_SIMULATOR_OFF = "Le simulateur n'est pas utilisé : enregistrez votre moyen de paiement avec Stripe."
MSG_STRIPE_OFF = "L'enregistrement d'un moyen de paiement par Stripe n'est pas proposé."
MSG_SETUP_NOT_FOUND = "Cet enregistrement de moyen de paiement est introuvable."
MSG_SETUP_NOT_DONE = "Votre moyen de paiement n'a pas été enregistré. Réessayez ou choisissez-en un autre."
MSG_STRIPE_DOWN = "Stripe ne répond pas : réessayez dans quelques instants."
MSG_METHOD_UNUSABLE = "Aucun moyen de paiement utilisable (mandat révoqué ou carte retirée)."
MSG_TOO_MANY = (
    "Vous avez déjà enregistré {limit} moyens de paiement en moins d'une heure : réessayez dans {minutes} min."
)
# Each saving may open a SetupIntent at Stripe: a few an hour is plenty for a member trying cards.
DEFAULT_SAVED_METHODS_PER_HOUR = 10
QUOTA_WINDOW = timedelta(hours=1)

# The SEPA core mandate's wording (the European Payments Council's French text), naming the studio as creditor.
MANDATE_TEXT = (
    "En signant ce formulaire de mandat, vous autorisez {creditor} à envoyer des instructions à votre banque pour "
    "débiter votre compte, et votre banque à débiter votre compte conformément aux instructions de {creditor}. "
    "Vous bénéficiez du droit d'être remboursé par votre banque selon les conditions décrites dans la convention que "
    "vous avez passée avec elle. Une demande de remboursement doit être présentée dans les 8 semaines suivant la date "
    "de débit de votre compte pour un prélèvement autorisé."
)

# The simulator's cards: Stripe's test numbers, so a demonstration reads as one with Stripe would.
SIMULATED_CARDS = {"success": ("4242", ""), "declines": ("0002", OUTCOME_DECLINES)}

# The providers whose subscriptions the studio charges itself, each period, with a saved method.
CHARGED_BY_STUDIO = (SavedMethodProvider.SIMULATOR, SavedMethodProvider.STRIPE)
# Sold at the front desk (docs/decisions.md 43): paid there period by period until the member saves a card or
# mandate online, which then pays the later periods as for a subscription bought online.
PAID_AT_DESK_UNLESS_SAVED = ("desk",)


class SavedMethodError(ApplicationError):
    default_code = "saved_method_invalid"
    messages = {
        "kind": MSG_KIND,
        "scenario": MSG_SCENARIO,
        "iban": MSG_IBAN,
        "holder": MSG_HOLDER,
        "mandate": MSG_MANDATE,
        "simulator_off": MSG_SIMULATOR_OFF,
        "stripe_off": MSG_STRIPE_OFF,
        "setup_not_found": MSG_SETUP_NOT_FOUND,
        "setup_not_done": MSG_SETUP_NOT_DONE,
        "stripe_down": MSG_STRIPE_DOWN,
        "too_many": MSG_TOO_MANY,
    }
    statuses = {
        "too_many": TOO_MANY_REQUESTS,
        "simulator_off": CONFLICT,
        "stripe_off": CONFLICT,
        "setup_not_found": NOT_FOUND,
        "setup_not_done": 402,
        "stripe_down": BAD_GATEWAY,
    }


def mandate_text() -> str:
    return MANDATE_TEXT.format(creditor=settings.STUDIO["name"])


def saving_provider() -> str:
    """Stripe when its keys are configured, else the simulator."""
    if settings.STRIPE_SECRET_KEY and settings.STRIPE_PUBLISHABLE_KEY:
        return SavedMethodProvider.STRIPE
    return SavedMethodProvider.SIMULATOR


def saved_method_of(*, member_id: int) -> SavedPaymentMethod | None:
    return SavedPaymentMethod.objects.filter(member_id=member_id, status=SavedMethodStatus.ACTIVE).first()


def iban_normalize(iban: str) -> str:
    """The IBAN without spaces, upper case, when its form and ISO 7064 check digits hold; "" otherwise."""
    value = re.sub(r"\s+", "", iban or "").upper()
    if not re.fullmatch(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}", value):
        return ""
    digits = "".join(str(int(c, 36)) for c in value[4:] + value[:4])
    return value if int(digits) % 97 == 1 else ""


def _activate(method: SavedPaymentMethod) -> SavedPaymentMethod:
    """Make `method` the member's usable one (under its row lock): the one before is replaced, the member's live
    subscriptions charged by the studio with the same provider move to it. Two savings of one member at once: the
    unique usable method per member refuses the second activation, tried again, which then replaces the first."""
    for attempt in range(3):
        try:
            return _activate_once(method)
        except IntegrityError:
            if attempt == 2:
                raise
    return method  # unreachable: the loop returns or raises


def _activate_once(method: SavedPaymentMethod) -> SavedPaymentMethod:
    with transaction.atomic():
        method = SavedPaymentMethod.objects.select_for_update().get(pk=method.pk)
        if method.status == SavedMethodStatus.ACTIVE:
            return method
        SavedPaymentMethod.objects.filter(member_id=method.member_id, status=SavedMethodStatus.ACTIVE).exclude(
            pk=method.pk
        ).update(status=SavedMethodStatus.REPLACED, updated_at=timezone.now())
        method.status = SavedMethodStatus.ACTIVE
        method.save(update_fields=["status", "updated_at"])
        Subscription.objects.filter(
            member_id=method.member_id,
            provider__in=(method.provider, *PAID_AT_DESK_UNLESS_SAVED),
            status__in=(SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID, SubscriptionStatus.FROZEN),
        ).update(saved_method=method, updated_at=timezone.now())
    return method


def _quota_check(*, member_id: int) -> None:
    """At most SAVED_METHODS_PER_HOUR methods saved (or Stripe savings opened) in any 60 minutes; past it, 429 with
    the minutes until the oldest of them leaves the window."""
    limit = max(int(getattr(settings, "SAVED_METHODS_PER_HOUR", DEFAULT_SAVED_METHODS_PER_HOUR)), 1)
    now = timezone.now()
    recent = list(
        SavedPaymentMethod.objects.filter(member_id=member_id, created_at__gt=now - QUOTA_WINDOW)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return
    wait = max(math.ceil((recent[-1] + QUOTA_WINDOW - now).total_seconds()), 1)
    error = SavedMethodError.of("too_many", limit=limit, minutes=math.ceil(wait / 60))
    error.retry_after = wait
    raise error


def _mandate_reference() -> str:
    return f"STUDIO-{secrets.token_hex(6).upper()}"


# --- the simulator --------------------------------------------------------------------------------------------------


def simulated_card_save(*, user, scenario: str = "success", today: date_type | None = None) -> SavedPaymentMethod:
    """Save a simulated card: Stripe's test Visa, or the one refused at each charge (to try the unpaid path)."""
    if saving_provider() != SavedMethodProvider.SIMULATOR:
        raise SavedMethodError.of("simulator_off")
    if scenario not in SIMULATED_CARDS:
        raise SavedMethodError.of("scenario", field="scenario")
    _quota_check(member_id=user.pk)
    last4, outcome = SIMULATED_CARDS[scenario]
    today = today or timezone.localdate()
    method = SavedPaymentMethod.objects.create(
        member=user,
        provider=SavedMethodProvider.SIMULATOR,
        kind=SavedMethodKind.CARD,
        last4=last4,
        brand="visa",
        exp_month=12,
        exp_year=today.year + 2,
        simulated_outcome=outcome,
    )
    return _activate(method)


def simulated_mandate_save(*, user, iban: str, holder: str, accepted: bool) -> SavedPaymentMethod:
    """Accept a simulated SEPA mandate: the IBAN is checked, then only its country, check digits and last 4
    characters are kept (the holder's name is not kept at all); Stripe's failing test IBAN makes every debit come
    back returned."""
    if saving_provider() != SavedMethodProvider.SIMULATOR:
        raise SavedMethodError.of("simulator_off")
    normalized = iban_normalize(iban)
    if not normalized:
        raise SavedMethodError.of("iban", field="iban")
    if not (holder or "").strip():
        raise SavedMethodError.of("holder", field="holder")
    if accepted is not True:
        raise SavedMethodError.of("mandate", field="accepted")
    _quota_check(member_id=user.pk)
    method = SavedPaymentMethod.objects.create(
        member=user,
        provider=SavedMethodProvider.SIMULATOR,
        kind=SavedMethodKind.SEPA_DEBIT,
        last4=normalized[-4:],
        country=normalized[:4],
        mandate_reference=_mandate_reference(),
        mandate_accepted_at=timezone.now(),
        simulated_outcome=OUTCOME_RETURNED if normalized == IBAN_RETURNED else "",
    )
    return _activate(method)


# --- Stripe ---------------------------------------------------------------------------------------------------------


def stripe_saving_start(*, user, kind: str) -> tuple[SavedPaymentMethod, str]:
    """Open a SetupIntent for a card or a SEPA mandate: a PENDING method remembers it for this member; answers it
    with the client secret the Payment Element confirms."""
    if saving_provider() != SavedMethodProvider.STRIPE:
        raise SavedMethodError.of("stripe_off")
    if kind not in SavedMethodKind.values:
        raise SavedMethodError.of("kind", field="kind")
    _quota_check(member_id=user.pk)
    gateway = get_stripe_gateway()
    customer_id = (
        SavedPaymentMethod.objects.filter(member=user, provider=SavedMethodProvider.STRIPE)
        .exclude(customer_id="")
        .values_list("customer_id", flat=True)
        .first()
    )
    try:
        if not customer_id:
            name = f"{user.first_name} {user.last_name}".strip()
            customer_id = gateway.create_customer(member_ref=str(user.pk), email=user.email, name=name).id
        start = gateway.start_saving(customer_id=customer_id, kind=kind, setup_ref=f"{user.pk}-{secrets.token_hex(8)}")
    except ProviderError as exc:
        logger.warning("Stripe SetupIntent not opened for member %s: %s", user.pk, exc)
        raise SavedMethodError.of("stripe_down") from exc
    method = SavedPaymentMethod.objects.create(
        member=user, provider=SavedMethodProvider.STRIPE, kind=kind, customer_id=customer_id, setup_id=start.id
    )
    return method, start.client_secret


def stripe_saving_complete(*, setup_intent_id: str, user=None) -> SavedPaymentMethod:
    """The member confirmed the SetupIntent (the page after confirmSetup, or Stripe's setup_intent.succeeded): read
    it from Stripe and save what it saved, once. `user` None: the webhook, which knows no member."""
    methods = SavedPaymentMethod.objects.filter(provider=SavedMethodProvider.STRIPE, setup_id=setup_intent_id)
    if user is not None:
        methods = methods.filter(member=user)
    method = methods.first() if setup_intent_id else None
    if method is None:
        raise SavedMethodError.of("setup_not_found")
    if method.status != SavedMethodStatus.PENDING:
        return method
    gateway = get_stripe_gateway()
    try:
        setup = gateway.get_saving(setup_intent_id=setup_intent_id)
        if setup.status != CAPTURE_COMPLETED or setup.customer_id != method.customer_id:
            raise SavedMethodError.of("setup_not_done")
        saved = gateway.describe_method(payment_method_id=setup.payment_method_id, mandate_id=setup.mandate_id)
    except ProviderError as exc:
        raise SavedMethodError.of("stripe_down") from exc
    with transaction.atomic():
        locked = SavedPaymentMethod.objects.select_for_update().get(pk=method.pk)
        if locked.status != SavedMethodStatus.PENDING:
            return locked
        locked.kind = saved.kind if saved.kind in SavedMethodKind.values else locked.kind
        locked.method_id = saved.id
        locked.last4 = saved.last4[:4]
        locked.brand = ("cartes_bancaires" if saved.cb_preferred else saved.brand)[:20]
        locked.exp_month, locked.exp_year = saved.exp_month, saved.exp_year
        if saved.kind == SavedMethodKind.SEPA_DEBIT:
            locked.country = saved.country[:2]
            locked.mandate_id = saved.mandate_id
            locked.mandate_reference = saved.mandate_reference[:64]
            locked.mandate_accepted_at = saved.mandate_accepted_at or timezone.now()
        locked.save()
        return _activate(locked)


def stripe_saving_failed(*, setup_intent_id: str) -> int:
    """setup_intent.setup_failed: the pending method will never be usable."""
    return SavedPaymentMethod.objects.filter(
        provider=SavedMethodProvider.STRIPE, setup_id=setup_intent_id, status=SavedMethodStatus.PENDING
    ).update(status=SavedMethodStatus.INACTIVE, updated_at=timezone.now())


def stripe_mandate_updated(*, mandate_id: str, status: str) -> int:
    """mandate.updated: a mandate no longer active (revoked by the member's bank) makes its method unusable; the next
    debit is then refused and the period follows the unpaid path."""
    if not mandate_id or status == "active":
        return 0
    return SavedPaymentMethod.objects.filter(
        provider=SavedMethodProvider.STRIPE, mandate_id=mandate_id, status=SavedMethodStatus.ACTIVE
    ).update(status=SavedMethodStatus.INACTIVE, updated_at=timezone.now())


def saved_methods_erase(*, member_id: int) -> int:
    """The account's deletion: every saved method of the member goes (the subscriptions keep none: SET_NULL)."""
    deleted, _ = SavedPaymentMethod.objects.filter(member_id=member_id).delete()
    return deleted
