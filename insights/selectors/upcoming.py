"""The next 7 days: each class with its seats taken and its waiting list, and the unpaid subscription
periods to chase (already due, not paid)."""

from datetime import timedelta

from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from bookings.models_operations import WAITLIST_LIVE_STATUSES, WaitlistEntry
from courses.models import CourseSession
from payments.subscriptions.models import SubscriptionCharge

from .classes import seats_taken
from .common import money
from .money import CHARGE_UNPAID

UPCOMING_DAYS = 7
MAX_CLASSES = 200  # a bound on the answer; a studio runs far fewer classes in a week
MAX_UNPAID_LISTED = 50


def _waiting():
    entries = (
        WaitlistEntry.objects.filter(session=OuterRef("pk"), status__in=WAITLIST_LIVE_STATUSES)
        .order_by()
        .values("session")
        .annotate(total=Count("id"))
        .values("total")[:1]
    )
    return Coalesce(Subquery(entries, output_field=IntegerField()), Value(0))


def upcoming_stats(*, now=None) -> dict:
    """Three queries whatever the number of rows."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    sessions = (
        CourseSession.objects.filter(start__gte=now, start__lt=now + timedelta(days=UPCOMING_DAYS))
        .select_related("course")
        .annotate(taken=seats_taken(now), waiting=_waiting())
        .order_by("start", "id")[:MAX_CLASSES]
    )
    unpaid = SubscriptionCharge.objects.filter(CHARGE_UNPAID, due_on__lte=today)
    totals = unpaid.aggregate(count=Count("id"), amount=Sum("amount"))
    listed = unpaid.select_related("subscription__member").order_by("due_on", "id")[:MAX_UNPAID_LISTED]
    return {
        "classes": [
            {
                "id": s.pk,
                "start": s.start,
                "course": s.course.title,
                "status": s.status,
                "places": s.max_attendees,
                "seats_taken": s.taken,
                "waiting": s.waiting,
            }
            for s in sessions
        ],
        "unpaid_count": totals["count"],
        "unpaid_amount": money(totals["amount"]),
        "unpaid": [
            {
                "subscription_id": c.subscription_id,
                "member": c.subscription.member.get_full_name() or c.subscription.member.email,
                "email": c.subscription.member.email,
                "title": c.subscription.title,
                "period": c.period,
                "due_on": c.due_on,
                "amount": money(c.amount),
                "status": c.status,
            }
            for c in listed
        ],
    }
