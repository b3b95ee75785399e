"""EVJF / EVG party requests."""

import logging
from datetime import date as date_type
from datetime import time as time_type

from django.db import transaction
from django.utils import timezone

from ..models import (
    PartyEventType,
    PartyReservation,
)
from .common import MSG_PARTICIPANTS_MIN, PartyReservationError

logger = logging.getLogger(__name__)

# --- EVJF/EVG (SPEC.md 2.7, 5, 8) ---
MSG_PARTY_REQUIRED = "Veuillez remplir tous les champs requis."
MSG_PARTY_LOGIN_REQUIRED = "Vous devez être connecté pour réserver."
MSG_PARTY_SUCCESS = "Réservation effectuée avec succès ! 🎉"
MSG_PARTY_EVENT_TYPE_INVALID = "Le type d'événement doit être EVJF ou EVG."
MSG_PARTY_DATE_PAST = "La date choisie est déjà passée."


def _parse_date(value) -> date_type | None:
    if isinstance(value, date_type):
        return value
    try:
        return date_type.fromisoformat(str(value).strip())
    except ValueError:
        return None


def _parse_time(value) -> time_type | None:
    if isinstance(value, time_type):
        return value
    try:
        return time_type.fromisoformat(str(value).strip())
    except ValueError:
        return None


@transaction.atomic
def party_reservation_create(
    *,
    user,
    event_type: str = PartyEventType.EVJF,
    date,
    time,
    participants,
    email: str,
    message: str = "",
    first_name: str = "",
    last_name: str = "",
    title: str = "",
) -> PartyReservation:
    """Store an EVJF/EVG request and e-mail it to the studio and the member (after commit)."""
    if user is None or not user.is_authenticated:
        raise PartyReservationError(MSG_PARTY_LOGIN_REQUIRED)
    email = (email or "").strip()
    if not (date and time and email) or participants in (None, ""):
        raise PartyReservationError(MSG_PARTY_REQUIRED)
    event_type = (event_type or PartyEventType.EVJF).strip().upper()
    if event_type not in PartyEventType.values:
        raise PartyReservationError(MSG_PARTY_EVENT_TYPE_INVALID)
    parsed_date, parsed_time = _parse_date(date), _parse_time(time)
    if parsed_date is None or parsed_time is None:
        raise PartyReservationError(MSG_PARTY_REQUIRED)
    if parsed_date < timezone.localdate():
        raise PartyReservationError(MSG_PARTY_DATE_PAST)
    try:
        participants = int(participants)
    except (TypeError, ValueError):
        raise PartyReservationError(MSG_PARTICIPANTS_MIN) from None
    if participants < 1:
        raise PartyReservationError(MSG_PARTICIPANTS_MIN)
    party = PartyReservation.objects.create(
        user=user,
        event_type=event_type,
        date=parsed_date,
        time=parsed_time,
        participants=participants,
        email=email,
        first_name=(first_name or user.first_name or "").strip(),
        last_name=(last_name or user.last_name or "").strip(),
        title=(title or "").strip()[:200],
        message=message or "",
    )
    transaction.on_commit(lambda: _send_party_emails(party.pk))
    return party


def _send_party_emails(party_id: int) -> None:
    from ..emails import send_party_reservation_emails

    try:
        send_party_reservation_emails(party_id=party_id)
    except Exception:
        logger.exception("Party reservation e-mails failed for %s", party_id)


# --- Feedback ---
