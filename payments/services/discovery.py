"""The "offre découverte" (docs/decisions.md 49, 56): a tariff sold once per person, the person known by their account,
their e-mail (the account's or the order's) and their phone (another account with the same number is the same person).

Checked when the order is recorded, under the tariff's row lock (two tabs, or two accounts of one person, asking at
once are serialized: the first order recorded holds the offer while it is open, `HELD_MINUTES`), and again when it is
paid (an order that outlived its hold and finds the offer bought meanwhile is refused and refunded)."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from courses.models import Tariff
from studio.errors import CONFLICT, ApplicationError

from ..models import PaymentOrder, PaymentStatus

HELD_MINUTES = 30
OPEN = (PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED)

MSG_DISCOVERY_TAKEN = "L'offre découverte n'est proposée qu'une fois par personne : vous en avez déjà bénéficié."
MSG_DISCOVERY_PHONE = (
    "L'offre découverte n'est proposée qu'une fois par personne : un autre compte avec ce numéro de téléphone "
    "en a déjà bénéficié."
)


class DiscoveryError(ApplicationError):
    default_code = "discovery_taken"
    status = CONFLICT
    messages = {"discovery_taken": MSG_DISCOVERY_TAKEN, "discovery_phone": MSG_DISCOVERY_PHONE}


def _others(*, user, email: str, exclude_pk: int | None, held: bool):
    """The discovery orders of the same person, paid (or, with `held`, open and recent), besides `exclude_pk`."""
    emails = {e.strip().lower() for e in (email, user.email) if e and e.strip()}
    same = Q(user_id=user.pk)
    for value in emails:
        same |= Q(email__iexact=value) | Q(user__email__iexact=value)
    live = Q(completed_at__isnull=False)
    if held:
        live |= Q(status__in=OPEN, created_at__gte=timezone.now() - timedelta(minutes=HELD_MINUTES))
    orders = PaymentOrder.objects.filter(tariff__discovery_offer=True).filter(live).exclude(pk=exclude_pk)
    return orders, same


def discovery_check(*, user, email: str, exclude_pk: int | None = None, held: bool = True) -> None:
    """Refused in French when this person had the discovery offer already (or is paying for it in another tab)."""
    orders, same = _others(user=user, email=email, exclude_pk=exclude_pk, held=held)
    if orders.filter(same).exists():
        raise DiscoveryError.of("discovery_taken")
    phone = "".join(ch for ch in (getattr(user, "phone", "") or "") if ch.isdigit())
    if phone:
        twins = get_user_model().objects.filter(phone=phone).exclude(pk=user.pk).values("pk")
        if orders.filter(user_id__in=twins).exists():
            raise DiscoveryError.of("discovery_phone")


def discovery_lock(tariff_id: int) -> None:
    """The discovery tariff's row, locked until the order is recorded: one recording at a time checks and inserts."""
    Tariff.objects.select_for_update().filter(pk=tariff_id).first()
