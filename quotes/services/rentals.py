"""Room-rental requests (docs/decisions.md 17): anyone asks for the room (checked here, with its French messages,
e-mailed to the studio), then a member's request lives as a party's does (quotes.services.life): staff quote it (no
price rule exists for the room: staff set the amount), the member pays the deposit, staff confirm or refuse, the
member may cancel. A visitor's request (no account) cannot be quoted here: staff answer it by e-mail.
"""

import datetime
import re
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.company import company_cleaned
from studio.errors import ApplicationError
from studio.ratelimit import staff_notification_recipients

from .. import emails, workflow
from ..models import RentalEventType, RentalRequestEvent, RoomRentalRequest
from ..workflow import QuoteError
from . import life

MSG_RENTAL_REQUIRED = "Le nom, l'email, le téléphone, la date et l'heure sont obligatoires."
MSG_RENTAL_PHONE = "Le numéro de téléphone doit contenir 10 chiffres."
MSG_RENTAL_DATE_PAST = "La date de l'événement doit être aujourd'hui ou plus tard."
MSG_RENTAL_EVENT_TYPE = "Choisissez un type d'événement de la liste."
MAX_RENTAL_MESSAGE_LENGTH = 5000


class RentalError(ApplicationError):
    """A refused room-rental request (`field` may also be given positionally)."""

    default_code = "messaging_invalid"
    messages: ClassVar[dict[str, str]] = {
        "rental_required": MSG_RENTAL_REQUIRED,
        "rental_phone": MSG_RENTAL_PHONE,
        "rental_date_past": MSG_RENTAL_DATE_PAST,
        "rental_event_type": MSG_RENTAL_EVENT_TYPE,
    }

    def __init__(self, message: str, field: str | None = None, **kwargs):
        super().__init__(message, field=field, **kwargs)


def rental_label(rental: RoomRentalRequest) -> str:
    return f"location de salle ({rental.event_type}) du {rental.date:%d/%m/%Y} à {rental.time:%H:%M}"


RENTAL = life.Kind(
    model=RoomRentalRequest,
    event_model=RentalRequestEvent,
    event_field="rental",
    slug="location",
    staff_path="/admin/rentals",
    label=rental_label,
    member_email=lambda rental: rental.user.email if rental.user_id else rental.email,
)


# --- The request ----------------------------------------------------------------------------------------------------


def room_rental_request_create(
    *,
    name: str,
    email: str,
    phone: str,
    event_type: str,
    date: datetime.date | None,
    time: datetime.time | None,
    message: str = "",
    user=None,
    company: dict | None = None,
) -> RoomRentalRequest:
    """Store a room-rental request and e-mail it to the studio. `company`: the business to invoice, if any
    ({company_name, company_siren, company_vat_number, company_address}), checked as an EVJF/EVG request's is
    (docs/decisions.md 54); its deposit's invoice then names it."""
    name, email = " ".join((name or "").split()), (email or "").strip()  # the name ends up in a header: one line
    phone = re.sub(r"[\s.\-]", "", phone or "")
    if not name or not email or not phone or date is None or time is None:
        raise RentalError.of("rental_required")
    if not re.fullmatch(r"[0-9]{10}", phone):
        raise RentalError.of("rental_phone", field="phone")
    if event_type not in RentalEventType.values:
        raise RentalError.of("rental_event_type", field="eventType")
    if date < timezone.localdate():
        raise RentalError.of("rental_date_past", field="date")
    company = company_cleaned(company or {})
    rental = RoomRentalRequest.objects.create(
        user=user if user is not None and user.is_authenticated else None,
        name=name,
        email=email,
        phone=phone,
        event_type=event_type,
        date=date,
        time=time,
        message=(message or "").strip()[:MAX_RENTAL_MESSAGE_LENGTH],
        **company,
    )
    recipients = staff_notification_recipients([settings.STAFF_NOTIFICATION_EMAIL])  # capped per hour (decision 31)
    if recipients:
        emails.send_rental_request_staff_email(rental, recipients=recipients)
    return rental


# --- Its life -------------------------------------------------------------------------------------------------------


@transaction.atomic
def rental_quote(*, rental_id: int, staff, amount: Decimal, deposit: Decimal, note: str = "") -> RoomRentalRequest:
    rental = life.lock(RENTAL, rental_id)
    if rental.user_id is None:
        raise QuoteError.of("no_member")
    step = workflow.quote(rental, amount=amount, deposit=deposit, note=note)
    life.record(RENTAL, rental, step, actor=staff, by_staff=True, fields=workflow.QUOTED_REQUEST_FIELDS)
    return rental


def rental_confirm(*, rental_id: int, staff) -> RoomRentalRequest:
    return life.confirm(RENTAL, request_id=rental_id, staff=staff)


def rental_refuse(*, rental_id: int, staff, reason: str) -> RoomRentalRequest:
    return life.refuse(RENTAL, request_id=rental_id, staff=staff, reason=reason)


def rental_cancel(*, rental_id: int, member) -> RoomRentalRequest:
    return life.cancel(RENTAL, request_id=rental_id, member=member)


def rental_deposit_payable(*, rental_id: int, member) -> RoomRentalRequest:
    return life.deposit_payable(RENTAL, request_id=rental_id, member=member)


def rental_deposit_record(*, rental_id: int, amount: Decimal) -> RoomRentalRequest:
    return life.deposit_record(RENTAL, request_id=rental_id, amount=amount)
