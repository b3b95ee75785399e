"""The life of an EVJF/EVG request after it is sent (docs/decisions.md 17): staff quote it (priced here,
docs/decisions.md 12), the member pays the deposit online (payments calls `party_deposit_record` under the order's
lock), staff confirm or refuse, the member may cancel while it is not confirmed. Each step is recorded in the request's
history and told to the other side by e-mail (the outbox, sent by a worker). The rules of the steps are studio.quotes'.

Lock order: the PaymentOrder (payments), then the party row (`_lock_party`); nothing else is locked here.
"""

from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from studio import quotes
from studio.quotes import QuoteError

from ..models import PartyRequestEvent, PartyReservation

# The party price (docs/decisions.md 12): 25 € per participant, free for the bride or groom, 5 € per spectator,
# minimum 6 people. The group is billed for at least 6 participants (the bride or groom among them), so a group of 4
# pays 5 × 25 €.
PARTY_PRICE_PER_PARTICIPANT = Decimal("25.00")
PARTY_PRICE_PER_SPECTATOR = Decimal("5.00")
PARTY_MIN_PEOPLE = 6
PARTY_FREE_GUESTS = 1  # the bride or the groom
MAX_PARTY_SPECTATORS = 100
MSG_PARTY_SPECTATORS_INVALID = f"Le nombre de spectateurs doit être compris entre 0 et {MAX_PARTY_SPECTATORS}."

MEMBER_REQUESTS_URL = "/user/requests"


def party_quote_amount(*, participants: int, spectators: int, guest_of_honour: bool = True) -> Decimal:
    """The quote of a party: (max(participants, 6) − the bride or groom, when they take the class) × 25 € +
    spectators × 5 €. The staff's quote and the request form's estimate both read it."""
    billed = max(participants, PARTY_MIN_PEOPLE) - (PARTY_FREE_GUESTS if guest_of_honour else 0)
    total = billed * PARTY_PRICE_PER_PARTICIPANT + spectators * PARTY_PRICE_PER_SPECTATOR
    return total.quantize(quotes.CENT)


def party_label(party: PartyReservation) -> str:
    return f"{party.event_type} du {party.date:%d/%m/%Y} à {party.time:%H:%M}"


def party_member_url(party: PartyReservation) -> str:
    return f"{settings.SITE_URL}{MEMBER_REQUESTS_URL}/evjf/{party.pk}"


def _lock_party(party_id: int, *, member=None) -> PartyReservation:
    """The party row, locked; the member's own when `member` is given (anyone else's is a 404)."""
    parties = PartyReservation.objects.select_for_update().filter(pk=party_id)
    if member is not None:
        parties = parties.filter(user=member)
    party = parties.first()
    if party is None:
        raise QuoteError.of("request_not_found")
    return party


def _record(party: PartyReservation, step: quotes.Step, *, actor, by_staff: bool, fields: list[str]) -> None:
    party.save(update_fields=fields)
    PartyRequestEvent.objects.create(party=party, kind=step.kind, actor=actor, by_staff=by_staff, note=step.note)
    quotes.notify(
        party,
        step=step,
        label=party_label(party),
        member_email=party.email,
        member_url=party_member_url(party),
        staff_url=f"{settings.SITE_URL}/admin/parties",
    )


def _announce_refund_if_paid(party: PartyReservation) -> None:
    if party.deposit_paid_at is not None:
        party_id = party.pk
        transaction.on_commit(lambda: quotes.quoted_request_closed.send(sender=PartyReservation, request_id=party_id))


@transaction.atomic
def party_quote(
    *, party_id: int, staff, participants: int, spectators: int, deposit: Decimal, note: str = ""
) -> PartyReservation:
    """Staff answer a request with the server's price for `participants` and `spectators` and a deposit."""
    party = _lock_party(party_id)
    amount = party_quote_amount(participants=participants, spectators=spectators, guest_of_honour=party.guest_of_honour)
    step = quotes.quote(party, amount=amount, deposit=deposit, note=note)
    party.quote_participants, party.quote_spectators = participants, spectators
    fields = [*quotes.QUOTED_REQUEST_FIELDS, "quote_participants", "quote_spectators"]
    _record(party, step, actor=staff, by_staff=True, fields=fields)
    return party


@transaction.atomic
def party_confirm(*, party_id: int, staff) -> PartyReservation:
    party = _lock_party(party_id)
    step = quotes.confirm(party)
    _record(party, step, actor=staff, by_staff=True, fields=quotes.QUOTED_REQUEST_FIELDS)
    return party


@transaction.atomic
def party_refuse(*, party_id: int, staff, reason: str) -> PartyReservation:
    party = _lock_party(party_id)
    step = quotes.refuse(party, reason=reason)
    _record(party, step, actor=staff, by_staff=True, fields=quotes.QUOTED_REQUEST_FIELDS)
    _announce_refund_if_paid(party)
    return party


@transaction.atomic
def party_cancel(*, party_id: int, member) -> PartyReservation:
    """The member cancels their own request while it is not confirmed; a paid deposit is refunded (payments)."""
    party = _lock_party(party_id, member=member)
    step = quotes.cancel(party)
    _record(party, step, actor=member, by_staff=False, fields=quotes.QUOTED_REQUEST_FIELDS)
    _announce_refund_if_paid(party)
    return party


def party_deposit_payable(*, party_id: int, member) -> PartyReservation:
    """The member's own request with its deposit to pay now (for payments' create-order), or a QuoteError."""
    party = PartyReservation.objects.filter(pk=party_id, user=member).first()
    if party is None:
        raise QuoteError.of("request_not_found")
    quotes.check_deposit_payable(party)
    return party


def party_deposit_record(*, party_id: int, amount: Decimal) -> PartyReservation:
    """payments captured the deposit: record it once (called inside payments' transaction, under the order's lock).
    A request no longer waiting for this deposit raises QuoteError, and payments refunds the money."""
    with transaction.atomic():
        party = _lock_party(party_id)
        step = quotes.record_deposit(party, amount=amount, now=timezone.now())
        _record(party, step, actor=party.user, by_staff=False, fields=["deposit_paid_at"])
    return party
