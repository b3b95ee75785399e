"""EVJF / EVG party requests: their own error class and codes; typed values from the API's serializer."""

from datetime import date as date_type
from datetime import time as time_type

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from studio.errors import CONFLICT
from studio.queue import enqueue_after_commit

from ..emails import send_party_reservation_emails
from ..models import (
    PartyEventType,
    PartyReservation,
)
from .common import MSG_PARTICIPANTS_MIN, PartyReservationError
from .party_requests import MAX_PARTY_SPECTATORS, MSG_PARTY_SPECTATORS_INVALID, party_quote_amount

UNAUTHORIZED = 401

# --- EVJF/EVG: the party form's checks and French messages ---
MSG_PARTY_REQUIRED = "Veuillez remplir tous les champs requis."
MSG_PARTY_LOGIN_REQUIRED = "Vous devez être connecté pour réserver."
MSG_PARTY_SUCCESS = "Réservation effectuée avec succès ! 🎉"
MSG_PARTY_EVENT_TYPE_INVALID = "Le type d'événement doit être EVJF ou EVG."
MSG_PARTY_DATE_PAST = "La date choisie est déjà passée."
MSG_PARTY_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_PARTY_TIME_INVALID = "L'heure doit être au format HH:MM."
MAX_PARTY_PARTICIPANTS = 100
MSG_PARTY_PARTICIPANTS_MAX = f"Le nombre de participants ne peut pas dépasser {MAX_PARTY_PARTICIPANTS}."


class PartyError(PartyReservationError):
    """A refused EVJF/EVG request: `PartyError.of(code)` reads its French text and HTTP status from the tables
    below (400 unless listed in `statuses`)."""

    default_code = "party_invalid"
    messages = {
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
    statuses = {"party_login_required": UNAUTHORIZED, "party_date_past": CONFLICT}


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
) -> PartyReservation:
    """Store an EVJF/EVG request and e-mail it to the studio and the member (after commit)."""
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
    )
    enqueue_after_commit(party_emails_send, party_id=party.pk)
    return party


@task
def party_emails_send(party_id: int) -> None:
    """The request's two e-mails (the staff's and the member's acknowledgement), queued after its commit. Both carry
    the price by the staff's quoting rule, so both sides read the same figure."""
    party = PartyReservation.objects.get(pk=party_id)
    estimate = party_quote_amount(
        participants=party.participants, spectators=party.spectators, guest_of_honour=party.guest_of_honour
    )
    send_party_reservation_emails(party_id=party_id, estimate=estimate)
