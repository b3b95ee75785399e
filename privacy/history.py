"""A client's history as staff read it (docs/decisions.md 50): the profile's essentials, passes, upcoming and past
bookings, orders, invoices, subscriptions, and the lines of what staff did on their behalf. It reads every app, so it
sits here, beside the data export; each part is read through its app's selector where one exists, in one query (two
for subscriptions ever frozen), whatever the history's length."""

from django.db.models import F
from django.utils import timezone

from accounts.models import Role, User
from accounts.selectors import staff_actions_of
from bookings.models import Reservation, ReservationStatus
from bookings.models_operations import AttendanceStatus
from bookings.selectors.passes import member_pass_rows
from invoices.apis import invoice_pdf_url
from invoices.models import Invoice
from invoices.selectors import member_invoice_rows
from payments.choices import PaymentProviderName
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.selectors import member_subscription_rows

# The newest lines of each list: the client's whole file stays within the data export (privacy/export.py).
BOOKINGS_SHOWN = 50
ORDERS_SHOWN = 50
STAFF_ACTIONS_SHOWN = 50

_RESERVATION_LABELS = dict(ReservationStatus.choices)
_ATTENDANCE_LABELS = dict(AttendanceStatus.choices)
_ORDER_LABELS = dict(PaymentStatus.choices)
_PROVIDER_LABELS = dict(PaymentProviderName.choices)
_ROLE_LABELS = dict(Role.choices)


def client_history(*, member_id: int) -> dict | None:
    """The client's file, or None when there is no such account."""
    user = User.objects.filter(pk=member_id).first() if 0 < member_id < 2**31 else None
    if user is None:
        return None
    now = timezone.now()
    return {
        "profile": {
            "id": user.pk,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "email": user.email,
            "phone": user.phone,
            "city": user.city,
            "role": user.role,
            "role_label": _ROLE_LABELS.get(user.role, user.role),
            "date_joined": user.date_joined,
            "email_confirmed": user.email_confirmed,
            # A client created at the desk has none until they follow the invitation.
            "password_set": user.has_usable_password(),
            "is_active": user.is_active,
        },
        "passes": member_pass_rows(member_id=user.pk),
        "upcoming_bookings": _bookings(user.pk, now=now, upcoming=True),
        "past_bookings": _bookings(user.pk, now=now, upcoming=False),
        "orders": _orders(user.pk),
        # The PDF's address from the invoice's id alone (invoices' own helper, given an unsaved row with that id).
        "invoices": [
            {**row, "pdf_url": invoice_pdf_url(Invoice(pk=row["pk"]))} for row in member_invoice_rows(member_id=user.pk)
        ],
        "subscriptions": member_subscription_rows(member_id=user.pk),
        "staff_actions": staff_actions_of(member_id=user.pk, limit=STAFF_ACTIONS_SHOWN),
    }


def _bookings(member_id: int, *, now, upcoming: bool) -> list[dict]:
    queryset = Reservation.objects.filter(user_id=member_id)
    if upcoming:
        queryset = queryset.filter(session__start__gte=now).order_by("session__start", "pk")
    else:
        queryset = queryset.filter(session__start__lt=now).order_by("-session__start", "-pk")
    rows = queryset.values(
        "pk",
        "participants",
        "status",
        "credits_spent",
        "created_at",
        course=F("session__course__title"),
        start=F("session__start"),
        pass_title=F("paid_with_pass__title"),
        attendance_status=F("attendance__status"),
    )[:BOOKINGS_SHOWN]
    return [
        {
            **row,
            "status_label": _RESERVATION_LABELS.get(row["status"], row["status"]),
            "attendance": row["attendance_status"],
            "attendance_label": _ATTENDANCE_LABELS.get(row["attendance_status"], "")
            if row["attendance_status"]
            else "",
        }
        for row in rows
    ]


def _orders(member_id: int) -> list[dict]:
    rows = (
        PaymentOrder.objects.filter(user_id=member_id)
        .order_by("-created_at", "-pk")
        .values("order_id", "title", "amount", "status", "provider", "created_at", "completed_at")[:ORDERS_SHOWN]
    )
    return [
        {
            **row,
            "status_label": _ORDER_LABELS.get(row["status"], row["status"]),
            "provider_label": _PROVIDER_LABELS.get(row["provider"], row["provider"]),
        }
        for row in rows
    ]
