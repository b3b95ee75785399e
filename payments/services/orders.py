"""Create a payment order priced by the server (docs/decisions.md 12), at most one live per reservation
(docs/decisions.md 14)."""

import logging
import uuid
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from bookings.models import PaymentPending, Reservation, ReservationStatus
from bookings.services.locking import lock_reservation
from bookings.services.passes import tariff_priced_per_short_period
from bookings.services.payment_state import reservation_payment_pending_set
from courses.models import Tariff
from courses.services.locking import lock_session
from studio.day_text import day_text
from studio.errors import ApplicationError

from ..choices import CURRENCY_EUR, PaymentProviderName
from ..models import DEFAULT_TIME, PaymentOrder, PaymentStatus
from .capture import payment_order_fulfil
from .common import (
    OPEN_STATUSES,
    PaymentError,
    _local,
    _mark,
    _valid_email,
    terms_acceptance_fields,
)
from .discovery import discovery_check, discovery_lock
from .offers import GIFT_CARD_LABEL, OrderOffers, order_gift_card_release, order_offers_commit, order_offers_price
from .provider_choice import (
    PURPOSE_RESERVATION,
    PURPOSE_TARIFF,
    STRIPE,
    OpenedOrder,
    payment_provider_choose,
    provider_order_open,
    provider_order_voided,
    stripe_client_secret,
)
from .reduced_rate import ReducedClaim, reduced_claim_check, reduced_declaration_record

logger = logging.getLogger(__name__)

MAX_QUANTITY = 50
RESERVATION_TYPE = "COURS"


def _held_reservation(*, user, reservation_id: int) -> Reservation:
    """The member's reservation, with its seats still held (docs/decisions.md 13), or PaymentError."""
    # With the order being paid for it only looked for: it is read when there is one (a second tab, a retry).
    reservation = (
        Reservation.objects.filter(pk=reservation_id, user_id=user.pk)
        .select_related("session__course")
        .annotate(
            live_order_id=Subquery(
                PaymentOrder.objects.filter(reservation_id=OuterRef("pk"), status__in=OPEN_STATUSES)
                .order_by("-id")
                .values("id")[:1]
            )
        )
        .first()
    )
    if reservation is None:
        raise PaymentError.of("reservation_not_found")
    if reservation.status == ReservationStatus.CONFIRMED:
        raise PaymentError.of("reservation_paid")
    now = timezone.now()
    if reservation.status != ReservationStatus.HELD or (
        reservation.hold_expires_at is not None and reservation.hold_expires_at <= now
    ):
        raise PaymentError.of("hold_expired")
    return reservation


# --- create ----------------------------------------------------------------------------------------------------


def payment_order_create(
    *,
    user,
    amount: Decimal,
    email: str,
    first_name: str,
    last_name: str,
    title: str,
    type: str,
    message: str = "",
    date: str = "",
    time: str = "",
    reservation_id: int | None = None,
    tariff_id: int | None = None,
    quantity: int | None = None,
    reduced: ReducedClaim | None = None,
    provider: str = "",
    accept_terms: bool = False,
    immediate_start: bool = False,
    promo_code: str = "",
    gift_card_code: str = "",
) -> PaymentOrder:
    """Open an order at the provider for a held reservation or a tariff × quantity, priced from the database.

    The browser's `amount` is only compared with the server's price (docs/decisions.md 12): a mismatch is refused (409).
    The API has typed and bounded every value (payments/apis/checkout.py); the checks here are the domain's.
    `provider` is one of those offered (the first when blank); a Stripe order carries `client_secret`, for the
    member's page only. `accept_terms` and `immediate_start` are recorded on the order (the API requires the terms
    for a tariff; `immediate_start` means only for a tariff: a dated class has no withdrawal right).
    `promo_code` and `gift_card_code` (docs/decisions.md 60, services/offers.py): `amount` stays the price before the
    discount; the order's total is the discounted price, the card pays what its balance covers, the provider the rest;
    a card covering it all opens no provider order: the order is paid at once.
    """
    provider = payment_provider_choose(provider)
    if not all(str(v or "").strip() for v in (email, first_name, last_name, title, type)):
        raise PaymentError.of("incomplete")
    if (reservation_id is None) == (tariff_id is None):
        raise PaymentError.of("incomplete")  # an order pays for one reservation or one tariff
    if not _valid_email(email.strip()):
        raise PaymentError.of("email_invalid")

    reservation = tariff = proof = None
    if reservation_id is not None:
        reservation = _held_reservation(user=user, reservation_id=reservation_id)
        server_amount = reservation.total_amount
        start = _local(reservation.session.start)
        order_title = reservation.session.course.title
        order_type = RESERVATION_TYPE
        order_date = start.date().isoformat()
        order_time = start.strftime("%H:%M")
        order_quantity = reservation.participants
        # Shown on the provider's receipt: the day written as the site writes it.
        description = (
            f"{order_title} – séance du {day_text(start)} à {order_time} – {reservation.participants} participant(s)"
        )
    else:
        order_quantity = 1 if quantity is None else quantity
        if not 1 <= order_quantity <= MAX_QUANTITY:
            raise PaymentError.of("quantity_invalid", max=MAX_QUANTITY)
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            raise PaymentError.of("tariff_not_found")
        if tariff.is_party or tariff.price <= 0 or (tariff.grants_pass and tariff_priced_per_short_period(tariff)):
            raise PaymentError.of("tariff_not_orderable")
        if tariff.discovery_offer:
            if order_quantity != 1:
                raise PaymentError.of("quantity_invalid", max=1)
            discovery_check(user=user, email=email)
        server_amount = (tariff.price * order_quantity).quantize(Decimal("0.01"))
        # A student or job-seeker rate needs the member's confirmation of the status (400 otherwise).
        proof = reduced_claim_check(user=user, tariff=tariff, claim=reduced)
        order_title = tariff.title
        order_type = tariff.type.upper()
        order_date = (date or "").strip()[:40] or _local(timezone.now()).date().isoformat()
        order_time = (time or "").strip()[:40] or DEFAULT_TIME
        description = f"{order_title} × {order_quantity}"

    if amount != server_amount:
        raise PaymentError.of("amount_mismatch")
    offers = order_offers_price(
        user=user,
        price=server_amount,
        tariff_id=tariff.pk if tariff is not None else None,
        promo_code=promo_code,
        gift_card_code=gift_card_code,
    )

    if reservation is not None:
        # One live order per reservation (docs/decisions.md 14): asking again answers the order being paid.
        live = None
        if reservation.live_order_id is not None:
            live = reservation.payment_orders.filter(status__in=OPEN_STATUSES).order_by("-id").first()
        if live is not None:
            if _same_order(live, provider=provider, offers=offers, quantity=order_quantity):
                return with_client_secret(live)
            provider_order_voided(_mark(order_id=live.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES))
            order_gift_card_release(order_id=live.order_id)
    reference = uuid.uuid4().hex
    if offers.to_pay > 0:
        opened = provider_order_open(
            provider=provider,
            amount=offers.to_pay,
            description=description,
            reference=reference,
            purpose=PURPOSE_RESERVATION if reservation is not None else PURPOSE_TARIFF,
        )
    else:  # the gift card (or a code of 100 %) pays it all: no provider order
        paid_by = PaymentProviderName.GIFT_CARD if offers.gift_card else PaymentProviderName.MANUAL
        opened = OpenedOrder(provider=paid_by, id=f"gc-{reference}")

    fields = dict(
        order_id=opened.id,
        provider=opened.provider,
        user=user,
        email=email.strip(),
        first_name=first_name.strip()[:150],
        last_name=last_name.strip()[:150],
        title=order_title,
        currency=CURRENCY_EUR,
        date=order_date,
        time=order_time,
        type=order_type,
        message=(message or "").strip(),
        reservation=reservation,
        tariff=tariff,
        quantity=order_quantity,
        status=PaymentStatus.CREATED,
        **terms_acceptance_fields(accepted=accept_terms, immediate_start=immediate_start and tariff is not None),
        **offers.order_fields(),
    )
    if offers.to_pay <= 0 and offers.gift_card:
        fields["payment_method_label"] = GIFT_CARD_LABEL
    try:
        if reservation is None:
            with transaction.atomic():
                if tariff.discovery_offer:  # the tariff's lock first: one recording of the offer at a time
                    discovery_lock(tariff.pk)
                    discovery_check(user=user, email=email)
                order_offers_commit(offers=offers, user=user, order_reference=opened.id)
                order = PaymentOrder.objects.create(**fields)
                reduced_declaration_record(order=order, claim=reduced, proof=proof)
        else:
            order = _reservation_order_insert(reservation=reservation, fields=fields, offers=offers)
    except ApplicationError:
        # The card spent or the code's last use taken meanwhile by another tab: the provider's order is dropped.
        if offers.to_pay > 0:
            provider_order_voided(
                PaymentOrder(order_id=opened.id, provider=opened.provider, status=PaymentStatus.VOIDED)
            )
        raise
    if order.order_id == opened.id:
        order.client_secret = opened.client_secret
        if offers.to_pay <= 0:
            order = payment_order_fulfil(order_id=order.order_id, order_pk=order.pk).order
            order.client_secret = ""
    return with_client_secret(order)


def _same_order(live: PaymentOrder, *, provider: str, offers: OrderOffers, quantity: int) -> bool:
    """The live order asked for again, with the same provider, quantity, code and card: answered as it is."""
    return (
        live.provider == provider
        and live.amount == offers.total
        and live.quantity == quantity
        and live.promo_code_id == (offers.promo.pk if offers.promo else None)
        and live.gift_card_id == (offers.gift_card.pk if offers.gift_card else None)
        and live.gift_card_amount == offers.gift_card_amount
    )


def with_client_secret(order: PaymentOrder) -> PaymentOrder:
    """The order with `client_secret` set: Stripe's for a Stripe order (read again when another request opened it),
    "" otherwise. The secret is never stored."""
    if not hasattr(order, "client_secret"):
        order.client_secret = stripe_client_secret(order) if order.provider == STRIPE else ""
    return order


def _reservation_order_insert(*, reservation: Reservation, fields: dict, offers: OrderOffers) -> PaymentOrder:
    """Record the order under the session and reservation locks (bookings' lock order), so the hold cannot change
    its participants or price in between. At most one order is live: the database's constraint decides (an order
    recorded meanwhile by another tab makes this insert fail, and that order is answered)."""
    try:
        with transaction.atomic():
            lock_session(reservation.session_id)
            current = lock_reservation(reservation.pk)
            if current.status != ReservationStatus.HELD or (
                current.hold_expires_at is not None and current.hold_expires_at <= timezone.now()
            ):
                raise PaymentError.of("hold_expired")
            if current.participants != fields["quantity"] or current.total_amount != offers.price:
                raise PaymentError.of("reservation_changed")
            order_offers_commit(offers=offers, user=fields["user"], order_reference=fields["order_id"])
            order = PaymentOrder.objects.create(**fields)
            # Its only open order (one live order per reservation): the payment is open, recorded under the locks above.
            reservation_payment_pending_set(reservation_id=current.pk, pending=PaymentPending.OPEN, session_locked=True)
            return order
    except IntegrityError:
        live = reservation.payment_orders.filter(status__in=OPEN_STATUSES).order_by("-id").first()
        if live is None:
            raise PaymentError.of("reservation_paid") from None
        return live
