"""Sales at the front desk (docs/decisions.md 43) and staff booking on a member's behalf (docs/decisions.md 50).

A desk sale is a payment order of provider "desk", priced from the database like an online one, paid by one or
several means (`DeskPaymentLine`: cash, card terminal, cheque, ANCV, Pass'Sport, Coupon Sport) whose amounts add up
to the price. It is completed through the online path (`payment_order_fulfil`, under the order's row lock): the
class card or subscription is granted once, the booking confirmed or settled, the invoice issued in the same
transaction by invoices' receiver and the receipt sent after the commit. What it sells:

- a tariff: a class card, or a subscription's first period (a tariff priced per period);
- a single class: a booking staff made "à régler" (settled), or a booking made now and paid at once
  (`desk_booking_record` with `paid_with="desk"`).

Idempotent: the client sends a key per sale (`idempotency_key`), the order's id is made from it and is unique, so the
same sale submitted twice (a double click, a retry) records one order, one pass and one invoice.

Locks (docs/architecture.md): the new order row, then the session (bookings' booking on behalf, the confirmation),
the pass, the reservation, then invoices' counter; the same order as a capture.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.services.staff_actions import staff_action_record
from bookings.models import DeskPayment, Reservation, ReservationStatus
from bookings.services.passes import tariff_priced_per_short_period
from bookings.services.staff_bookings import (
    PAID_AT_DESK,
    reservation_book_for_member,
    staff_booking_member,
)
from courses.models import Tariff
from studio.errors import BAD_REQUEST, CONFLICT, NOT_FOUND, ApplicationError

from ..choices import CURRENCY_EUR, DeskMeans, PaymentProviderName
from ..models import DeskPaymentLine, PaymentOrder, PaymentStatus
from .capture import payment_order_fulfil
from .orders import RESERVATION_TYPE

MSG_DESK_MEANS_REQUIRED = "Indiquez au moins un moyen de paiement avec son montant."
MSG_DESK_TOTAL_MISMATCH = (
    "Le total des moyens de paiement ({total}) ne correspond pas au prix : {price}. Il reste {remainder} à répartir."
)
MSG_DESK_ITEM_REQUIRED = "Choisissez ce qui est vendu : un tarif, une échéance d'abonnement ou une séance à régler."
MSG_DESK_TARIFF_NOT_FOUND = "Ce tarif est introuvable."
MSG_DESK_TARIFF_NOT_SOLD = "Ce tarif ne se vend pas à l'accueil (prix nul, privatisation ou période trop courte)."
MSG_DESK_NOTHING_DUE = "Cette réservation n'est pas à régler à l'accueil."
MSG_DESK_RESERVATION_NOT_FOUND = "Cette réservation est introuvable."
MSG_DESK_CHARGE_NOT_FOUND = "Cette échéance d'abonnement est introuvable."
MSG_DESK_CHARGE_NOT_DUE = "Cette échéance n'est pas à régler : elle est déjà payée ou l'abonnement est terminé."
MSG_DESK_KEY_REUSED = "Cette vente a déjà été enregistrée avec un autre contenu : rechargez la page."
MSG_DESK_NOT_COMPLETED = "La vente n'a pas pu être enregistrée : {reason}"
MSG_DESK_SALE_RECORDED = "Vente enregistrée : {title}, {amount} ({means})."


class DeskError(ApplicationError):
    default_code = "desk_invalid"
    messages = {
        "means_required": MSG_DESK_MEANS_REQUIRED,
        "total_mismatch": MSG_DESK_TOTAL_MISMATCH,
        "item_required": MSG_DESK_ITEM_REQUIRED,
        "tariff_not_found": MSG_DESK_TARIFF_NOT_FOUND,
        "tariff_not_sold": MSG_DESK_TARIFF_NOT_SOLD,
        "nothing_due": MSG_DESK_NOTHING_DUE,
        "reservation_not_found": MSG_DESK_RESERVATION_NOT_FOUND,
        "charge_not_found": MSG_DESK_CHARGE_NOT_FOUND,
        "charge_not_due": MSG_DESK_CHARGE_NOT_DUE,
        "key_reused": MSG_DESK_KEY_REUSED,
        "not_completed": MSG_DESK_NOT_COMPLETED,
    }
    statuses = {
        "means_required": BAD_REQUEST,
        "total_mismatch": BAD_REQUEST,
        "item_required": BAD_REQUEST,
        "tariff_not_found": NOT_FOUND,
        "tariff_not_sold": CONFLICT,
        "nothing_due": CONFLICT,
        "reservation_not_found": NOT_FOUND,
        "charge_not_found": NOT_FOUND,
        "charge_not_due": CONFLICT,
        "key_reused": CONFLICT,
        "not_completed": CONFLICT,
    }


@dataclass(frozen=True)
class DeskLine:
    means: str
    amount: Decimal


def euros_text(amount: Decimal) -> str:
    """French money as the site writes it: "1 234,50 €" (a plain space between thousands)."""
    whole, cents = f"{Decimal(amount):.2f}".split(".")
    sign = "-" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{sign}{' '.join(groups)},{cents} €"


def means_text(lines) -> str:
    return ", ".join(f"{DeskMeans(line.means).label} {euros_text(line.amount)}" for line in lines)


def _check_total(lines: list[DeskLine], price: Decimal) -> None:
    if not lines:
        raise DeskError.of("means_required", field="payments")
    total = sum((line.amount for line in lines), Decimal("0.00"))
    if total != price:
        raise DeskError.of(
            "total_mismatch",
            field="payments",
            total=euros_text(total),
            price=euros_text(price),
            remainder=euros_text(price - total),
        )


def _order_id(idempotency_key: uuid.UUID) -> str:
    return f"DESK-{idempotency_key.hex}"


def _same_sale(order: PaymentOrder, *, member_id: int, tariff_id, reservation_id, session_id=None) -> PaymentOrder:
    """A sale submitted again with its key: the order already recorded, if it is the same sale."""
    same = order.user_id == member_id and order.provider == PaymentProviderName.DESK
    if tariff_id is not None:
        same = same and order.tariff_id == tariff_id
    if reservation_id is not None:
        same = same and order.reservation_id == reservation_id
    if session_id is not None:
        same = same and order.reservation is not None and order.reservation.session_id == session_id
    if not same:
        raise DeskError.of("key_reused")
    return order


def _order_fields(*, member: User, now: datetime) -> dict:
    local = timezone.localtime(now)
    return {
        "provider": PaymentProviderName.DESK,
        "user": member,
        "email": member.email,
        "first_name": member.first_name[:150],
        "last_name": member.last_name[:150],
        "currency": CURRENCY_EUR,
        "date": local.date().isoformat(),
        "time": local.strftime("%H:%M"),
        "status": PaymentStatus.CREATED,
        "payment_method_label": "",
    }


def _complete(
    *, order: PaymentOrder, lines: list[DeskLine], staff: User, member: User, action: str = "desk_sale"
) -> PaymentOrder:
    """Record the means, then complete the order through the capture's fulfilment (pass, booking, invoice, receipt,
    once). A refusal there (the booking no longer payable) undoes the whole sale: nothing is kept, nothing refunded."""
    DeskPaymentLine.objects.bulk_create(
        [DeskPaymentLine(order=order, means=line.means, amount=line.amount, recorded_by=staff) for line in lines]
    )
    outcome = payment_order_fulfil(order_id=order.order_id, order_pk=order.pk)
    if not outcome.completed:
        reason = (order.provider_note or outcome.message or "").strip()
        PaymentOrder.objects.filter(pk=order.pk).update(provider_note=reason)
        raise DeskError.of("not_completed", reason=reason)
    what = "Séance réglée à l'accueil" if action == "settled" else "Vente à l'accueil"
    staff_action_record(
        member=member,
        staff=staff,
        action=action,
        summary=f"{what} : {order.title}, {euros_text(order.amount)} ({means_text(lines)})",
    )
    return outcome.order


def desk_sale_record(
    *,
    staff: User,
    member_id: int,
    lines: list[DeskLine],
    idempotency_key: uuid.UUID,
    tariff_id: int | None = None,
    reservation_id: int | None = None,
) -> PaymentOrder:
    """Sell a tariff (a class card, a subscription's first period) or settle a booking "à régler"; see the module."""
    if (tariff_id is None) == (reservation_id is None):
        raise DeskError.of("item_required")
    order_id = _order_id(idempotency_key)
    recorded = PaymentOrder.objects.filter(order_id=order_id).first()
    if recorded is not None:
        return _same_sale(recorded, member_id=member_id, tariff_id=tariff_id, reservation_id=reservation_id)
    member = staff_booking_member(member_id)
    now = timezone.now()
    fields = {**_order_fields(member=member, now=now), "order_id": order_id}
    if tariff_id is not None:
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            raise DeskError.of("tariff_not_found", field="tariff_id")
        if tariff.is_party or tariff.price <= 0 or (tariff.grants_pass and tariff_priced_per_short_period(tariff)):
            raise DeskError.of("tariff_not_sold", field="tariff_id")
        price = tariff.price.quantize(Decimal("0.01"))
        fields.update(tariff=tariff, quantity=1, title=tariff.title, type=tariff.type.upper(), amount=price)
    else:
        reservation = (
            Reservation.objects.select_related("session__course").filter(pk=reservation_id, user_id=member.pk).first()
        )
        if reservation is None:
            raise DeskError.of("reservation_not_found", field="reservation_id")
        if reservation.status != ReservationStatus.CONFIRMED or reservation.desk_payment != DeskPayment.DUE:
            raise DeskError.of("nothing_due", field="reservation_id")
        price = reservation.total_amount
        fields.update(_reservation_order_fields(reservation))
    _check_total(lines, price)
    try:
        with transaction.atomic():
            order = PaymentOrder.objects.create(**fields)
            # A booking "à régler" settled is its own line in the client's history (docs/decisions.md 50).
            action = "desk_sale" if tariff_id is not None else "settled"
            return _complete(order=order, lines=lines, staff=staff, member=member, action=action)
    except IntegrityError:
        # The same key recorded meanwhile by the first submission (its insert waited for that commit), or the
        # booking's one live order taken by another sale: answer what was recorded.
        recorded = PaymentOrder.objects.filter(order_id=order_id).first()
        if recorded is None:
            raise DeskError.of("nothing_due", field="reservation_id") from None
        return _same_sale(recorded, member_id=member_id, tariff_id=tariff_id, reservation_id=reservation_id)


def _reservation_order_fields(reservation: Reservation) -> dict:
    start = timezone.localtime(reservation.session.start)
    return {
        "reservation": reservation,
        "quantity": reservation.participants,
        "title": reservation.session.course.title,
        "type": RESERVATION_TYPE,
        "amount": reservation.total_amount,
        "date": start.date().isoformat(),
        "time": start.strftime("%H:%M"),
    }


def desk_booking_record(
    *,
    staff: User,
    member_id: int,
    session_id: int,
    participants: int,
    paid_with: str,
    pass_id: int | None = None,
    lines: list[DeskLine] | None = None,
    idempotency_key: uuid.UUID | None = None,
) -> Reservation:
    """Book a member into a session on their behalf (bookings' `reservation_book_for_member`: every seat and pass
    rule of the member's own booking). Paid at the desk (`paid_with="desk"`), the booking and its sale are one
    transaction: the session's single-class price from the database must equal the means' total, else nothing is
    booked."""
    if paid_with != PAID_AT_DESK:
        return reservation_book_for_member(
            staff=staff,
            member_id=member_id,
            session_id=session_id,
            participants=participants,
            paid_with=paid_with,
            pass_id=pass_id,
        )
    lines = lines or []
    if not lines:
        raise DeskError.of("means_required", field="payments")
    order_id = _order_id(idempotency_key or uuid.uuid4())
    recorded = PaymentOrder.objects.select_related("reservation").filter(order_id=order_id).first()
    if recorded is not None:
        return _same_sale(
            recorded, member_id=member_id, tariff_id=None, reservation_id=None, session_id=session_id
        ).reservation
    try:
        with transaction.atomic():
            reservation = reservation_book_for_member(
                staff=staff,
                member_id=member_id,
                session_id=session_id,
                participants=participants,
                paid_with=PAID_AT_DESK,
            )
            _check_total(lines, reservation.total_amount)  # the session's price, read under its lock
            member = reservation.user
            fields = {
                **_order_fields(member=member, now=timezone.now()),
                **_reservation_order_fields(reservation),
                "order_id": order_id,
            }
            order = PaymentOrder.objects.create(**fields)
            _complete(order=order, lines=lines, staff=staff, member=member)
    except IntegrityError:
        recorded = PaymentOrder.objects.select_related("reservation").filter(order_id=order_id).first()
        if recorded is None:
            raise
        return _same_sale(
            recorded, member_id=member_id, tariff_id=None, reservation_id=None, session_id=session_id
        ).reservation
    reservation.refresh_from_db()
    return reservation
