"""The life of a member's room-rental request after it is sent (docs/decisions.md 17): staff quote it (no price rule
exists for the room: staff set the amount), the member pays the deposit online (payments calls `rental_deposit_record`
under the order's lock), staff confirm or refuse, the member may cancel while it is not confirmed. Each step is recorded
in the history and told to the other side by e-mail (the outbox). The rules of the steps are studio.quotes'.

A visitor's request (no account) cannot be quoted here: staff answer it by e-mail. Lock order: the PaymentOrder
(payments), then the rental row.
"""

from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from studio import quotes
from studio.quotes import QuoteError

from .models import RentalRequestEvent, RoomRentalRequest

MEMBER_REQUESTS_URL = "/user/requests"


def rental_label(rental: RoomRentalRequest) -> str:
    return f"location de salle ({rental.event_type}) du {rental.date:%d/%m/%Y} à {rental.time:%H:%M}"


def rental_member_url(rental: RoomRentalRequest) -> str:
    return f"{settings.SITE_URL}{MEMBER_REQUESTS_URL}/location/{rental.pk}"


# --- reads --------------------------------------------------------------------------------------------------------


def with_history(rentals: QuerySet) -> QuerySet:
    return rentals.select_related("user").prefetch_related(
        Prefetch("events", queryset=RentalRequestEvent.objects.select_related("actor").order_by("created_at", "id"))
    )


def rental_requests_list(*, status: str | None = None) -> QuerySet:
    rentals = RoomRentalRequest.objects.order_by("-created_at", "-id")
    if status:
        rentals = rentals.filter(status=status)
    return with_history(rentals)


def rental_requests_of_member(*, user) -> QuerySet:
    return with_history(RoomRentalRequest.objects.filter(user=user).order_by("-created_at", "-id"))


def rental_request_get(*, rental_id: int) -> RoomRentalRequest | None:
    return with_history(RoomRentalRequest.objects.filter(pk=rental_id)).first()


# --- writes -------------------------------------------------------------------------------------------------------


def _lock_rental(rental_id: int, *, member=None) -> RoomRentalRequest:
    rentals = RoomRentalRequest.objects.select_for_update().filter(pk=rental_id)
    if member is not None:
        rentals = rentals.filter(user=member)
    rental = rentals.first()
    if rental is None:
        raise QuoteError.of("request_not_found")
    return rental


def _record(rental: RoomRentalRequest, step: quotes.Step, *, actor, by_staff: bool, fields: list[str]) -> None:
    rental.save(update_fields=fields)
    RentalRequestEvent.objects.create(rental=rental, kind=step.kind, actor=actor, by_staff=by_staff, note=step.note)
    quotes.notify(
        rental,
        step=step,
        label=rental_label(rental),
        member_email=rental.user.email if rental.user_id else rental.email,
        member_url=rental_member_url(rental),
        staff_url=f"{settings.SITE_URL}/admin/rentals",
    )


def _announce_refund_if_paid(rental: RoomRentalRequest) -> None:
    if rental.deposit_paid_at is not None:
        rental_id = rental.pk
        transaction.on_commit(lambda: quotes.quoted_request_closed.send(sender=RoomRentalRequest, request_id=rental_id))


@transaction.atomic
def rental_quote(*, rental_id: int, staff, amount: Decimal, deposit: Decimal, note: str = "") -> RoomRentalRequest:
    rental = _lock_rental(rental_id)
    if rental.user_id is None:
        raise QuoteError.of("no_member")
    step = quotes.quote(rental, amount=amount, deposit=deposit, note=note)
    _record(rental, step, actor=staff, by_staff=True, fields=quotes.QUOTED_REQUEST_FIELDS)
    return rental


@transaction.atomic
def rental_confirm(*, rental_id: int, staff) -> RoomRentalRequest:
    rental = _lock_rental(rental_id)
    step = quotes.confirm(rental)
    _record(rental, step, actor=staff, by_staff=True, fields=quotes.QUOTED_REQUEST_FIELDS)
    return rental


@transaction.atomic
def rental_refuse(*, rental_id: int, staff, reason: str) -> RoomRentalRequest:
    rental = _lock_rental(rental_id)
    step = quotes.refuse(rental, reason=reason)
    _record(rental, step, actor=staff, by_staff=True, fields=quotes.QUOTED_REQUEST_FIELDS)
    _announce_refund_if_paid(rental)
    return rental


@transaction.atomic
def rental_cancel(*, rental_id: int, member) -> RoomRentalRequest:
    rental = _lock_rental(rental_id, member=member)
    step = quotes.cancel(rental)
    _record(rental, step, actor=member, by_staff=False, fields=quotes.QUOTED_REQUEST_FIELDS)
    _announce_refund_if_paid(rental)
    return rental


def rental_deposit_payable(*, rental_id: int, member) -> RoomRentalRequest:
    rental = RoomRentalRequest.objects.filter(pk=rental_id, user=member).first()
    if rental is None:
        raise QuoteError.of("request_not_found")
    quotes.check_deposit_payable(rental)
    return rental


def rental_deposit_record(*, rental_id: int, amount: Decimal) -> RoomRentalRequest:
    """payments captured the deposit: record it once (inside payments' transaction, under the order's lock)."""
    with transaction.atomic():
        rental = _lock_rental(rental_id)
        step = quotes.record_deposit(rental, amount=amount, now=timezone.now())
        _record(rental, step, actor=rental.user, by_staff=False, fields=["deposit_paid_at"])
    return rental
