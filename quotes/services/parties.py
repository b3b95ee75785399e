"""EVJF/EVG party requests (docs/decisions.md 17): the member's request (checked here, with its French messages), its
price (docs/decisions.md 12), and its life after it is sent: staff quote it with the server's price, the member pays
the deposit, staff confirm or refuse, the member may cancel (quotes.services.life).
"""

from datetime import date as date_type
from datetime import time as time_type
from decimal import Decimal
from typing import ClassVar

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from accounts.company import company_cleaned
from bookings.services.common import MSG_PARTICIPANTS_MIN
from studio.errors import CONFLICT, ApplicationError
from studio.queue import enqueue_after_commit

from .. import emails, workflow
from ..models import PartyEventType, PartyRequestEvent, PartyReservation
from . import life

UNAUTHORIZED = 401

# The party price (docs/decisions.md 12): 25 € per participant, free for the bride or groom, 5 € per spectator,
# minimum 6 people. The group is billed for at least 6 participants (the bride or groom among them), so a group of 4
# pays 5 × 25 €.
PARTY_PRICE_PER_PARTICIPANT = Decimal("25.00")
PARTY_PRICE_PER_SPECTATOR = Decimal("5.00")
PARTY_MIN_PEOPLE = 6
PARTY_FREE_GUESTS = 1  # the bride or the groom
MAX_PARTY_SPECTATORS = 100
MAX_PARTY_PARTICIPANTS = 100

# --- The party form's checks and French messages ---
MSG_PARTY_REQUIRED = "Veuillez remplir tous les champs requis."
MSG_PARTY_LOGIN_REQUIRED = "Vous devez être connecté pour réserver."
MSG_PARTY_SUCCESS = "Réservation effectuée avec succès ! 🎉"
MSG_PARTY_EVENT_TYPE_INVALID = "Le type d'événement doit être EVJF ou EVG."
MSG_PARTY_DATE_PAST = "La date choisie est déjà passée."
MSG_PARTY_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_PARTY_TIME_INVALID = "L'heure doit être au format HH:MM."
MSG_PARTY_PARTICIPANTS_MAX = f"Le nombre de participants ne peut pas dépasser {MAX_PARTY_PARTICIPANTS}."
MSG_PARTY_SPECTATORS_INVALID = f"Le nombre de spectateurs doit être compris entre 0 et {MAX_PARTY_SPECTATORS}."


class PartyError(ApplicationError):
    """A refused EVJF/EVG request: `PartyError.of(code)` reads its French text and HTTP status from the tables
    below (400 unless listed in `statuses`)."""

    default_code = "party_invalid"
    messages: ClassVar[dict[str, str]] = {
        "party_required": MSG_PARTY_REQUIRED,
        "party_login_required": MSG_PARTY_LOGIN_REQUIRED,
        "party_event_type_invalid": MSG_PARTY_EVENT_TYPE_INVALID,
        # A well-formed date the calendar has left behind: a conflict with today, not a malformed request.
        "party_date_past": MSG_PARTY_DATE_PAST,
        "party_date_invalid": MSG_PARTY_DATE_INVALID,
        "party_time_invalid": MSG_PARTY_TIME_INVALID,
        "participants_min": MSG_PARTICIPANTS_MIN,
        "participants_max": MSG_PARTY_PARTICIPANTS_MAX,
        "spectators_invalid": MSG_PARTY_SPECTATORS_INVALID,
    }
    statuses: ClassVar[dict[str, int]] = {"party_login_required": UNAUTHORIZED, "party_date_past": CONFLICT}


def party_quote_amount(*, participants: int, spectators: int, guest_of_honour: bool = True) -> Decimal:
    """The quote of a party: (max(participants, 6) − the bride or groom, when they take the class) × 25 € +
    spectators × 5 €. The staff's quote and the request form's estimate both read it."""
    billed = max(participants, PARTY_MIN_PEOPLE) - (PARTY_FREE_GUESTS if guest_of_honour else 0)
    total = billed * PARTY_PRICE_PER_PARTICIPANT + spectators * PARTY_PRICE_PER_SPECTATOR
    return total.quantize(workflow.CENT)


def party_estimate(party: PartyReservation) -> Decimal:
    """What the member asked for costs by the staff's quoting rule."""
    return party_quote_amount(
        participants=party.participants, spectators=party.spectators, guest_of_honour=party.guest_of_honour
    )


def party_label(party: PartyReservation) -> str:
    return f"{party.event_type} du {party.date:%d/%m/%Y} à {party.time:%H:%M}"


PARTY = life.Kind(
    model=PartyReservation,
    event_model=PartyRequestEvent,
    event_field="party",
    slug="evjf",
    staff_path="/admin/parties",
    label=party_label,
    member_email=lambda party: party.email,
)


# --- The request ----------------------------------------------------------------------------------------------------


@transaction.atomic
def party_reservation_create(
    *,
    user,
    event_type: str = PartyEventType.EVJF,
    date: date_type | None,
    time: time_type | None,
    participants: int | None,
    email: str,
    message: str = "",
    first_name: str = "",
    last_name: str = "",
    title: str = "",
    spectators: int = 0,
    guest_of_honour: bool = True,
    company: dict | None = None,
) -> PartyReservation:
    """Store an EVJF/EVG request and e-mail it to the studio and the member (after commit). `company`: the
    business to invoice, if any ({company_name, company_siren, company_vat_number, company_address}), checked as
    a profile's is (docs/decisions.md 54)."""
    if user is None or not user.is_authenticated:
        raise PartyError.of("party_login_required")
    email = (email or "").strip()
    if date is None or time is None or participants is None or not email:
        raise PartyError.of("party_required")
    if event_type not in PartyEventType.values:
        raise PartyError.of("party_event_type_invalid", field="eventType")
    if participants < 1:
        raise PartyError.of("participants_min", field="participants")
    if participants > MAX_PARTY_PARTICIPANTS:
        raise PartyError.of("participants_max", field="participants")
    if not 0 <= spectators <= MAX_PARTY_SPECTATORS:
        raise PartyError.of("spectators_invalid", field="spectators")
    if date < timezone.localdate():
        raise PartyError.of("party_date_past", field="date")
    company = company_cleaned(company or {})
    party = PartyReservation.objects.create(
        user=user,
        event_type=event_type,
        date=date,
        time=time.replace(tzinfo=None),
        participants=participants,
        email=email,
        first_name=(first_name or user.first_name or "").strip(),
        last_name=(last_name or user.last_name or "").strip(),
        title=(title or "").strip()[:200],
        message=message or "",
        spectators=spectators,
        guest_of_honour=guest_of_honour,
        **company,
    )
    enqueue_after_commit(party_emails_send, party_id=party.pk)
    return party


@task
def party_emails_send(party_id: int) -> None:
    """The request's two e-mails (the staff's and the member's acknowledgement), queued after its commit. Both carry
    the price by the staff's quoting rule, so both sides read the same figure."""
    party = PartyReservation.objects.get(pk=party_id)
    emails.send_party_reservation_emails(party_id=party_id, estimate=party_estimate(party))


# --- Its life -------------------------------------------------------------------------------------------------------


@transaction.atomic
def party_quote(
    *, party_id: int, staff, participants: int, spectators: int, deposit: Decimal, note: str = ""
) -> PartyReservation:
    """Staff answer a request with the server's price for `participants` and `spectators` and a deposit."""
    party = life.lock(PARTY, party_id)
    amount = party_quote_amount(participants=participants, spectators=spectators, guest_of_honour=party.guest_of_honour)
    step = workflow.quote(party, amount=amount, deposit=deposit, note=note)
    party.quote_participants, party.quote_spectators = participants, spectators
    fields = [*workflow.QUOTED_REQUEST_FIELDS, "quote_participants", "quote_spectators"]
    life.record(PARTY, party, step, actor=staff, by_staff=True, fields=fields)
    return party


def party_confirm(*, party_id: int, staff) -> PartyReservation:
    return life.confirm(PARTY, request_id=party_id, staff=staff)


def party_refuse(*, party_id: int, staff, reason: str) -> PartyReservation:
    return life.refuse(PARTY, request_id=party_id, staff=staff, reason=reason)


def party_cancel(*, party_id: int, member) -> PartyReservation:
    return life.cancel(PARTY, request_id=party_id, member=member)


def party_deposit_payable(*, party_id: int, member) -> PartyReservation:
    return life.deposit_payable(PARTY, request_id=party_id, member=member)


def party_deposit_record(*, party_id: int, amount: Decimal) -> PartyReservation:
    return life.deposit_record(PARTY, request_id=party_id, amount=amount)
