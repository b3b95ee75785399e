"""Reads shared by the payment pages, APIs and islands."""

from django.conf import settings
from django.db.models import Prefetch, Q

from bookings.models import CancelReason, Reservation  # payments reads bookings (payments → bookings)
from courses.models import CourseSession

from .models import PaymentDispute, PaymentOrder, PaymentStatus

CURRENCY = "EUR"


def payment_provider_name() -> str:
    """'paypal' when PayPal credentials are configured, else the built-in 'simulator' (docs/decisions.md 15)."""
    return "paypal" if settings.PAYPAL_CLIENT_ID and settings.PAYPAL_CLIENT_SECRET else "simulator"


def stripe_configured() -> bool:
    """Stripe is offered when both of its keys are set (docs/decisions.md 42)."""
    return bool(settings.STRIPE_SECRET_KEY and settings.STRIPE_PUBLISHABLE_KEY)


def payment_providers() -> list[str]:
    """The providers a member may pay a one-off order with, in order of preference: Stripe, then PayPal; the simulator
    alone when neither is configured (docs/decisions.md 15 and 42)."""
    offered = []
    if stripe_configured():
        offered.append("stripe")
    if payment_provider_name() == "paypal":
        offered.append("paypal")
    return offered or ["simulator"]


def payment_client_config() -> dict:
    """Props for the payment widget: which providers to offer, PayPal's public client id and Stripe's publishable key
    (never a secret). `provider` names the provider of the PayPal buttons' path (PayPal or the simulator)."""
    provider = payment_provider_name()
    providers = payment_providers()
    return {
        "provider": provider,
        "clientId": settings.PAYPAL_CLIENT_ID if provider == "paypal" else "",
        "currency": CURRENCY,
        "providers": providers,
        "stripePublishableKey": settings.STRIPE_PUBLISHABLE_KEY if "stripe" in providers else "",
    }


ORDERINGS = {
    "created": ("created_at", "id"),
    "-created": ("-created_at", "-id"),
    "date": ("date", "time", "created_at"),
    "-date": ("-date", "-time", "-created_at"),
    "amount": ("amount", "id"),
    "-amount": ("-amount", "-id"),
    "status": ("status", "-created_at"),
    "-status": ("-status", "-created_at"),
    "email": ("email", "-created_at"),
    "-email": ("-email", "-created_at"),
}
DEFAULT_ORDERING = "-created"


def payment_orders_for_staff(*, ordering: str = DEFAULT_ORDERING, status: str = "", search: str = ""):
    """Every payment order for the dashboard, newest first by default; one query per page.

    `date` sorts by the order's date field (the session's date for a reservation), `created` by when it was made.
    """
    qs = PaymentOrder.objects.all()
    if status:
        qs = qs.filter(status=status)
    if search:
        qs = qs.filter(
            Q(order_id__icontains=search)
            | Q(email__icontains=search)
            | Q(last_name__icontains=search)
            | Q(title__icontains=search)
        )
    return qs.order_by(*ORDERINGS.get(ordering, ORDERINGS[DEFAULT_ORDERING]))


def payment_order_for_staff(*, order_id: str) -> PaymentOrder | None:
    """One order with its chargebacks (`disputes`, newest first): two queries."""
    disputes = Prefetch("disputes", queryset=PaymentDispute.objects.order_by("-created_at", "-id"))
    return PaymentOrder.objects.prefetch_related(disputes).filter(order_id=order_id).first()


# --- Who was refunded or credited when the studio cancelled a class -------------------------------------------------

CANCELLATION_OUTCOME_LABELS = {
    "refunded": "Remboursé",
    "refund_pending": "Remboursement en attente",
    "credits_returned": "Crédits rendus",
    "subscription": "Abonnement : place libérée",
    "unpaid": "Non payé",
    # A walk-in paid at the desk (docs/decisions.md 38): no provider refund, the studio pays it back at the desk.
    "desk": "Payé à l'accueil : à rembourser à l'accueil",
}


def class_cancellation_report(*, session_id: int) -> list[dict] | None:
    """Per booking the cancellation of a class cancelled, what the member got back (3 queries whatever the size);
    None when there is no such session, [] when it is not cancelled."""
    session = CourseSession.objects.filter(pk=session_id).values("cancelled_at").first()
    if session is None:
        return None
    if session["cancelled_at"] is None:
        return []
    reservations = (
        Reservation.objects.filter(session_id=session_id, cancel_reason=CancelReason.STUDIO)
        .select_related("paid_with_pass", "attendance")
        .prefetch_related("payment_orders")
        .order_by("last_name", "first_name", "pk")
    )
    rows = []
    for reservation in reservations:
        pass_obj = reservation.paid_with_pass
        orders = [o for o in reservation.payment_orders.all() if o.completed_at is not None or o.capture_id]
        order = max(orders, key=lambda o: o.pk, default=None)
        amount, credits = None, 0
        if pass_obj is not None:
            outcome = "credits_returned" if reservation.credits_spent else "subscription"
            credits = reservation.credits_spent
        elif order is not None and order.status == PaymentStatus.REFUNDED:
            outcome, amount = "refunded", order.amount
        elif order is not None and order.status in (PaymentStatus.COMPLETED, PaymentStatus.REFUND_PENDING):
            outcome, amount = "refund_pending", order.amount
        elif getattr(reservation, "attendance", None) is not None and reservation.attendance.paid_at_desk:
            outcome, amount = "desk", reservation.total_amount
        else:
            outcome = "unpaid"
        rows.append(
            {
                "reservation_id": reservation.pk,
                "first_name": reservation.first_name,
                "last_name": reservation.last_name,
                "email": reservation.email,
                "participants": reservation.participants,
                "outcome": outcome,
                "outcome_label": CANCELLATION_OUTCOME_LABELS[outcome],
                "amount": amount,
                "credits": credits,
                "pass_title": pass_obj.title if pass_obj is not None else "",
                "order_id": order.order_id if order is not None else "",
                "refunded_at": order.refunded_at if order is not None else None,
            }
        )
    return rows
