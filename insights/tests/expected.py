"""The owner's figures counted again in plain Python over every row, without the selectors' queries,
their Period class or the database's date functions: what each figure of /api/dashboard/stats must equal."""

from collections import defaultdict
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from accounts.models import User
from bookings.models import Pass, Reservation
from bookings.models_operations import Attendance, WaitlistEntry
from courses.models import CourseSession
from payments.models import PaymentOrder
from payments.subscriptions.models import Subscription, SubscriptionCharge

PARIS = ZoneInfo("Europe/Paris")
PAID = {"COMPLETED", "REFUND_PENDING", "REFUNDED"}
UNPAID = {"due", "failed", "processing"}


def paris_day(moment) -> date:
    return moment.astimezone(PARIS).date()


def paris_midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=PARIS)


class Rows:
    """Every row the figures read, loaded once."""

    def __init__(self, now):
        self.now = now
        self.today = paris_day(now)
        self.orders = list(PaymentOrder.objects.all())
        self.passes = {p.pk: p for p in Pass.objects.all()}
        subscriptions = {s.pk: s for s in Subscription.objects.all()}
        orders_by_pk = {o.pk: o for o in self.orders}
        self.charges = list(SubscriptionCharge.objects.all())
        for charge in self.charges:
            subscription = subscriptions[charge.subscription_id]
            charge.order_quantity = orders_by_pk[subscription.source_order_id].quantity
        self.subscription_of_pass = {s.granted_pass_id: s for s in subscriptions.values()}
        self.sessions = {s.pk: s for s in CourseSession.objects.select_related("course")}
        self.reservations = list(Reservation.objects.all())
        self.waitlist = list(WaitlistEntry.objects.all())
        session_of = {r.pk: r.session_id for r in self.reservations}
        self.attendance = [(a, self.sessions[session_of[a.reservation_id]]) for a in Attendance.objects.all()]
        self.users = list(User.objects.all())

    def taken(self, session_id: int) -> int:
        return sum(
            r.participants
            for r in self.reservations
            if r.session_id == session_id
            and (r.status == "confirmed" or (r.status == "held" and r.hold_expires_at and r.hold_expires_at > self.now))
        )


def previous_days(first: date, last: date) -> tuple[date, date]:
    length = (last - first).days + 1
    return first - timedelta(days=length), first - timedelta(days=1)


def _within(day: date, days: tuple[date, date]) -> bool:
    return days[0] <= day <= days[1]


def money(rows: Rows, days: tuple[date, date]) -> dict:
    sold = [o for o in rows.orders if o.status in PAID and _within(paris_day(o.completed_at or o.created_at), days)]
    # Money in and refunds count what the provider or the desk took, a gift card's part being counted at its sale.
    paid = [o for o in sold if _cash(o) > 0]
    refunded = [
        o
        for o in rows.orders
        if o.status == "REFUNDED" and o.refunded_at and _within(paris_day(o.refunded_at), days) and _cash(o) > 0
    ]
    charged = [
        c
        for c in rows.charges
        if c.status == "paid" and c.paid_at and c.period > c.order_quantity and _within(paris_day(c.paid_at), days)
    ]
    unpaid = [c for c in rows.charges if c.status in UNPAID and _within(c.due_on, days) and c.due_on <= rows.today]

    def kind(order):
        return rows.passes[order.granted_pass_id].kind if order.granted_pass_id else None

    cards = [o for o in sold if kind(o) == "card"]
    subscriptions = [o for o in sold if kind(o) == "subscription"]
    held = [s for s in rows.sessions.values() if s.status != "cancelled" and _within(paris_day(s.start), days)]
    money_in = sum((_cash(o) for o in paid), Decimal(0)) + sum((c.amount for c in charged), Decimal(0))
    refunds = sum((_cash(o) for o in refunded), Decimal(0))
    return {
        "money_in": (money_in, len(paid) + len(charged)),
        "card_payments": (sum((_cash(o) for o in paid), Decimal(0)), len(paid)),
        "subscription_periods": (sum((c.amount for c in charged), Decimal(0)), len(charged)),
        "refunds": (refunds, len(refunded)),
        "cards_sold": (sum((o.amount for o in cards), Decimal(0)), len(cards)),
        "subscriptions_sold": (sum((o.amount for o in subscriptions), Decimal(0)), len(subscriptions)),
        "unpaid": (sum((c.amount for c in unpaid), Decimal(0)), len(unpaid)),
        "classes_held": len(held),
        "revenue_per_class": ((money_in - refunds) / len(held)).quantize(Decimal("0.01")) if held else None,
    }


def _cash(order) -> Decimal:
    return order.amount - order.gift_card_amount


def money_series(rows: Rows, days: tuple[date, date], weekly: bool) -> list[tuple[date, Decimal, Decimal]]:
    def bucket(day: date) -> date:
        return day - timedelta(days=day.weekday()) if weekly else day.replace(day=1)

    money_in, refunds = defaultdict(Decimal), defaultdict(Decimal)
    for o in rows.orders:
        if o.status in PAID and _within(paris_day(o.completed_at or o.created_at), days):
            money_in[bucket(paris_day(o.completed_at or o.created_at))] += _cash(o)
        if o.status == "REFUNDED" and o.refunded_at and _within(paris_day(o.refunded_at), days):
            refunds[bucket(paris_day(o.refunded_at))] += _cash(o)
    for c in rows.charges:
        if c.status == "paid" and c.paid_at and c.period > c.order_quantity and _within(paris_day(c.paid_at), days):
            money_in[bucket(paris_day(c.paid_at))] += c.amount
    starts, day = [], bucket(days[0])
    while day <= days[1]:
        starts.append(day)
        day = day + timedelta(days=7) if weekly else (day + timedelta(days=32)).replace(day=1)
    return [(start, money_in[start], refunds[start]) for start in starts]


def classes(rows: Rows, days: tuple[date, date]) -> dict:
    in_days = [s for s in rows.sessions.values() if _within(paris_day(s.start), days)]
    held = [s for s in in_days if s.status != "cancelled"]
    taken = {s.pk: rows.taken(s.pk) for s in held}
    places = sum(s.max_attendees for s in held)
    bands = [0] * 5
    for s in held:
        share = taken[s.pk] / s.max_attendees
        bands[4 if share >= 1 else 3 if share >= 0.75 else 2 if share >= 0.5 else 1 if share >= 0.25 else 0] += 1
    courses = defaultdict(lambda: [0, 0, 0])
    slots = defaultdict(lambda: [0, 0, 0])
    for s in held:
        local = s.start.astimezone(PARIS)
        for table, key in ((courses, (s.course.title, s.course_id)), (slots, (local.isoweekday(), local.hour))):
            table[key][0] += 1
            table[key][1] += s.max_attendees
            table[key][2] += taken[s.pk]
    waiting = [w for w in rows.waitlist if _within(paris_day(rows.sessions[w.session_id].start), days)]
    marks = [a for a, session in rows.attendance if _within(paris_day(session.start), days)]
    present = sum(1 for a in marks if a.status == "present")
    absent = sum(1 for a in marks if a.status == "absent")
    return {
        "held": len(held),
        "cancelled": len(in_days) - len(held),
        "places": places,
        "seats_taken": sum(taken.values()),
        "full": sum(1 for s in held if taken[s.pk] >= s.max_attendees),
        "fill_rate": round(sum(taken.values()) / places, 4) if places else None,
        "fill_bands": bands,
        "courses": sorted((title, cid, *values) for (title, cid), values in courses.items()),
        "timetable": sorted((*key, *values) for key, values in slots.items()),
        "waitlist_entries": len(waiting),
        "waitlist_members": len({w.user_id for w in waiting}),
        "waitlist_sessions": len({w.session_id for w in waiting}),
        "waitlist_booked": sum(1 for w in waiting if w.status == "booked"),
        "present": present,
        "no_shows": absent,
        "attendance_rate": round(present / (present + absent), 4) if present + absent else None,
    }


def members(rows: Rows, days: tuple[date, date]) -> dict:
    booked = [r for r in rows.reservations if r.status == "confirmed"]
    active = {r.user_id for r in booked if _within(paris_day(rows.sessions[r.session_id].start), days)}
    new = [u for u in rows.users if u.role == "user" and _within(paris_day(u.date_joined), days)]
    return {"active": len(active), "new": len(new)}


def stopped_coming(rows: Rows, at) -> int:
    since = at - timedelta(days=30)
    earlier, recent = set(), set()
    for r in rows.reservations:
        if r.status != "confirmed":
            continue
        start = rows.sessions[r.session_id].start
        if start < since:
            earlier.add(r.user_id)
        elif start < at:
            recent.add(r.user_id)
    return len(earlier - recent)


def running_out(rows: Rows) -> tuple[int, int]:
    horizon = rows.today + timedelta(days=30)
    cards = subscriptions = 0
    for p in rows.passes.values():
        if p.kind == "card":
            if p.expires_on >= rows.today and p.credits_left > 0 and (p.credits_left <= 2 or p.expires_on <= horizon):
                cards += 1
        elif rows.today <= p.expires_on <= horizon:
            sub = rows.subscription_of_pass.get(p.pk)
            extended = (
                sub is not None
                and sub.status in ("active", "unpaid", "frozen")
                and sub.periods_paid < sub.periods_committed
            )
            subscriptions += not extended
    return cards, subscriptions


def upcoming(rows: Rows) -> dict:
    soon = sorted(
        (s for s in rows.sessions.values() if rows.now <= s.start < rows.now + timedelta(days=7)),
        key=lambda s: (s.start, s.pk),
    )
    due = [c for c in rows.charges if c.status in UNPAID and c.due_on <= rows.today]
    return {
        "classes": [
            (
                s.pk,
                s.course.title,
                s.max_attendees,
                rows.taken(s.pk),
                sum(1 for w in rows.waitlist if w.session_id == s.pk and w.status in ("waiting", "offered")),
            )
            for s in soon
        ],
        "unpaid_count": len(due),
        "unpaid_amount": sum((c.amount for c in due), Decimal(0)),
        "unpaid_first": sorted((c.due_on, c.pk) for c in due)[:50],
    }
