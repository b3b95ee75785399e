"""A year of the bench studio's activity, so that the owner's view shows believable curves: members
joining over two years, class cards and monthly subscriptions bought through the year (more in September and
January, few in August), a few refunds, subscription periods charged month after month (some refused, so unpaid),
evening classes full with waiting lists, a few classes cancelled, and attendance marked on past classes.

Called by `manage.py seed_bench` after its sessions, members and reservations exist (and by the stats tests on a
smaller studio). Idempotent: it does nothing when its orders exist. Bulk inserts only: a few seconds for the bench.
"""

import random
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import Q, Sum
from django.utils import timezone

from accounts.models import User
from bookings.models import CancelReason, Pass, PassKind, PassOrigin, Reservation, ReservationStatus
from bookings.models_operations import Attendance, AttendanceStatus, WaitlistEntry, WaitlistStatus
from courses.models import CourseSession, SessionStatus, Tariff
from payments.choices import PaymentProviderName
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionCharge, SubscriptionStatus

MARK = "BENCH-ACT"
PARIS_HOURS = range(8, 22)
# How busy each month is at the counter (1 = an ordinary month): la rentrée and January's resolutions.
SEASON = {1: 1.5, 2: 1.1, 3: 1.0, 4: 0.9, 5: 0.9, 6: 0.8, 7: 0.45, 8: 0.3, 9: 1.8, 10: 1.3, 11: 1.1, 12: 0.8}
EVENING_FROM_HOUR = 18


def _add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour, minute)), timezone.get_current_timezone())


class _Draw:
    """Days of the past year weighted by the season, members, hours: one seeded random source."""

    def __init__(self, rng: random.Random, today: date):
        self.rng = rng
        self.days = [today - timedelta(days=n) for n in range(1, 366)]
        self.weights = [SEASON[d.month] for d in self.days]

    def day(self) -> date:
        return self.rng.choices(self.days, weights=self.weights)[0]

    def moment(self, day: date, now: datetime) -> datetime:
        at = _at(day, self.rng.choice(PARIS_HOURS), self.rng.choice((0, 15, 30, 45)))
        return min(at, now - timedelta(minutes=1))


def seed_activity(
    *, member_ids: list[int], session_ids: list[int], rng: random.Random, now=None, mark: str = MARK
) -> dict:
    """Add the year's activity over these members and sessions; returns what it created (counts). `mark` prefixes
    its order ids (a test grows a studio twice with two marks)."""
    if PaymentOrder.objects.filter(order_id__startswith=f"{mark}-").exists() or not member_ids:
        return {}
    now = now or timezone.now()
    today = timezone.localdate(now)
    draw = _Draw(rng, today)
    members = {u.pk: u for u in User.objects.filter(pk__in=member_ids)}
    _members_joined(members, rng, now)
    counts = _purchases(members, draw, now, mark)
    counts.update(_subscriptions(members, draw, now, mark))
    counts.update(_classes(member_ids, session_ids, rng, now))
    return counts


def _members_joined(members: dict, rng: random.Random, now: datetime) -> None:
    for user in members.values():
        user.date_joined = now - timedelta(days=rng.randint(0, 730), minutes=rng.randint(0, 1440))
    User.objects.bulk_update(members.values(), ["date_joined"], batch_size=500)


def _order(members: dict, user_id: int, key: str, tariff: Tariff | None, at: datetime, **fields) -> PaymentOrder:
    """`key` is the whole order id (the mark included)."""
    user = members[user_id]
    fields = {"status": PaymentStatus.COMPLETED, **fields}
    return PaymentOrder(
        order_id=key,
        provider=PaymentProviderName.SIMULATOR,
        email=user.email,
        first_name=user.first_name,
        last_name=user.last_name,
        title=tariff.title if tariff else "Carte 10 cours",
        amount=tariff.price if tariff else Decimal("190.00"),
        date=timezone.localtime(at).date().isoformat(),
        time=timezone.localtime(at).strftime("%H:%M"),
        type="forfait",
        user_id=user_id,
        tariff=tariff,
        capture_id=f"CAP-{key}",
        completed_at=at,
        **fields,
    )


def _purchases(members: dict, draw: _Draw, now: datetime, mark: str) -> dict:
    """Class cards bought through the year (one order, one pass each); one in 25 refunded a few days later."""
    rng = draw.rng
    tariff = Tariff.objects.filter(pass_credits__gt=1, pass_unlimited=False).order_by("pk").first()
    credits = tariff.pass_credits if tariff else 10
    months = (tariff.pass_validity_months if tariff else 0) or 6
    bought = []
    for i in range(max(len(members) * 4 // 5, 1)):
        day = draw.day()
        bought.append((i, rng.choice(list(members)), day, draw.moment(day, now)))
    passes = Pass.objects.bulk_create(
        [
            Pass(
                member_id=user_id,
                tariff=tariff,
                kind=PassKind.CARD,
                origin=PassOrigin.PURCHASE,
                title=tariff.title if tariff else "Carte 10 cours",
                credits_total=credits,
                credits_left=rng.randint(0, credits),
                starts_on=day,
                expires_on=_add_months(day, months),
            )
            for _i, user_id, day, _at in bought
        ],
        batch_size=500,
    )
    orders = []
    refunded = 0
    for (i, user_id, _day, at), pass_obj in zip(bought, passes, strict=True):
        refund_at = at + timedelta(days=rng.randint(1, 10))
        extra = {}
        if rng.random() < 0.04 and refund_at < now:
            extra = {"status": PaymentStatus.REFUNDED, "refunded_at": refund_at, "refund_id": f"REF-{mark}-{i}"}
            refunded += 1
        orders.append(_order(members, user_id, f"{mark}-CARD-{i:05d}", tariff, at, granted_pass=pass_obj, **extra))
    PaymentOrder.objects.bulk_create(orders, batch_size=500)
    # The bench's older orders (manual, no capture time) were paid on the day their `date` says.
    older = list(PaymentOrder.objects.filter(order_id__regex=r"^BENCH-[0-9]+$", completed_at__isnull=True))
    for order in older:
        order.completed_at = min(_at(date.fromisoformat(order.date), 10 + order.pk % 11), now)
    PaymentOrder.objects.bulk_update(older, ["completed_at"], batch_size=500)
    return {"cards_sold": len(orders), "refunds": refunded}


def _subscriptions(members: dict, draw: _Draw, now: datetime, mark: str) -> dict:
    """Monthly subscriptions (12 periods committed) started through the year; each due period charged on its day,
    the latest refused for one in twelve (the subscription is then unpaid)."""
    rng = draw.rng
    today = timezone.localdate(now)
    tariff = Tariff.objects.filter(pass_unlimited=True, frequency__icontains="mois").order_by("pk").first()
    if tariff is None:
        return {}
    plans = []
    for i in range(max(len(members) // 4, 1)):
        start = draw.day()
        due = [p for p in range(1, 13) if _add_months(start, p - 1) <= today]
        refused = len(due) > 1 and rng.random() < 1 / 12
        paid = len(due) - 1 if refused else len(due)
        plans.append((i, rng.choice(list(members)), start, draw.moment(start, now), due, paid, refused))
    passes = Pass.objects.bulk_create(
        [
            Pass(
                member_id=user_id,
                tariff=tariff,
                kind=PassKind.SUBSCRIPTION,
                origin=PassOrigin.PURCHASE,
                title=tariff.title,
                starts_on=start,
                expires_on=_add_months(start, paid) - timedelta(days=1),
            )
            for _i, user_id, start, _at, _due, paid, _refused in plans
        ],
        batch_size=500,
    )
    orders = PaymentOrder.objects.bulk_create(
        [
            _order(members, user_id, f"{mark}-SUB-{i:05d}", tariff, at, granted_pass=pass_obj)
            for (i, user_id, _start, at, _due, _paid, _refused), pass_obj in zip(plans, passes, strict=True)
        ],
        batch_size=500,
    )
    subscriptions = Subscription.objects.bulk_create(
        [
            Subscription(
                member_id=user_id,
                tariff=tariff,
                title=tariff.title[:150],
                provider=PaymentProviderName.SIMULATOR,
                source_order=order,
                granted_pass=pass_obj,
                amount=tariff.price,
                period_months=1,
                periods_committed=12,
                periods_paid=paid,
                starts_on=start,
                status=(
                    SubscriptionStatus.UNPAID
                    if refused
                    else SubscriptionStatus.ENDED
                    if paid == 12
                    else SubscriptionStatus.ACTIVE
                ),
            )
            for (_i, user_id, start, _at, _due, paid, refused), order, pass_obj in zip(
                plans, orders, passes, strict=True
            )
        ],
        batch_size=500,
    )
    charges = []
    for (_i, _user, start, at, due, paid, refused), subscription in zip(plans, subscriptions, strict=True):
        for period in due:
            due_on = _add_months(start, period - 1)
            if period <= paid:
                paid_at = at if period == 1 else min(_at(due_on, 6), now)
                charges.append(
                    SubscriptionCharge(
                        subscription=subscription,
                        period=period,
                        due_on=due_on,
                        amount=tariff.price,
                        status=ChargeStatus.PAID,
                        attempts=1,
                        provider_reference=f"CAP-{mark}-{subscription.pk}-{period}",
                        paid_at=paid_at,
                    )
                )
            elif refused:
                charges.append(
                    SubscriptionCharge(
                        subscription=subscription,
                        period=period,
                        due_on=due_on,
                        amount=tariff.price,
                        status=ChargeStatus.FAILED,
                        attempts=2,
                        next_attempt_on=today + timedelta(days=rng.randint(1, 3)),
                        failure_note="DECLINED",
                    )
                )
    SubscriptionCharge.objects.bulk_create(charges, batch_size=1000)
    return {"subscriptions": len(subscriptions), "charges": len(charges)}


def _classes(member_ids: list[int], session_ids: list[int], rng: random.Random, now: datetime) -> dict:
    """A few past classes cancelled; past evening classes (and the next two days' evenings) filled, the full ones
    with a waiting list; attendance marked on the past classes' bookings (one in ten a no-show)."""
    sessions = list(CourseSession.objects.filter(pk__in=session_ids).order_by("start", "pk"))
    past = [s for s in sessions if s.start < now]
    evening = [s for s in sessions if timezone.localtime(s.start).hour >= EVENING_FROM_HOUR]
    cancelled = [s for s in rng.sample(past, k=len(past) // 50) if s not in evening]
    for session in cancelled:
        session.status = SessionStatus.CANCELLED
        session.cancelled_at = session.start - timedelta(days=1)
        session.cancellation_reason = "Professeure malade (bench)"
    CourseSession.objects.bulk_update(cancelled, ["status", "cancelled_at", "cancellation_reason"], batch_size=500)
    Reservation.objects.filter(session__in=cancelled, status=ReservationStatus.CONFIRMED).update(
        status=ReservationStatus.CANCELLED, cancelled_at=now, cancel_reason=CancelReason.STUDIO
    )

    to_fill = [s for s in evening if s.start < now + timedelta(days=2)]
    booked = {
        row["session_id"]: row["seats"]
        for row in Reservation.objects.filter(session__in=to_fill, status=ReservationStatus.CONFIRMED)
        .values("session_id")
        .annotate(seats=Sum("participants"))
        .order_by()
    }
    taken = set(
        Reservation.objects.filter(session__in=to_fill)
        .filter(Q(status=ReservationStatus.CONFIRMED) | Q(status=ReservationStatus.HELD))
        .values_list("session_id", "user_id")
    )
    rows, waiting = [], []
    members = User.objects.in_bulk(member_ids)
    for session in to_fill:
        target = session.max_attendees - rng.choice((0, 0, 0, 1, 2, 3, 5))
        have = booked.get(session.pk, 0)
        candidates = [
            m for m in rng.sample(member_ids, k=min(len(member_ids), target * 3)) if (session.pk, m) not in taken
        ]
        for user_id in candidates[: max(target - have, 0)]:
            taken.add((session.pk, user_id))
            user = members[user_id]
            rows.append(
                Reservation(
                    session=session,
                    user_id=user_id,
                    participants=1,
                    unit_price=session.price_per_participant,
                    first_name=user.first_name,
                    last_name=user.last_name,
                    email=user.email,
                    message="bench",
                    status=ReservationStatus.CONFIRMED,
                    confirmed_at=session.start - timedelta(days=rng.randint(1, 20)),
                )
            )
        if target == session.max_attendees:
            line = [m for m in candidates[max(target - have, 0) :] if (session.pk, m) not in taken]
            for user_id in line[: rng.randint(1, 4)]:
                status = (
                    WaitlistStatus.WAITING
                    if session.start > now
                    else rng.choice((WaitlistStatus.BOOKED, WaitlistStatus.EXPIRED, WaitlistStatus.LEFT))
                )
                waiting.append(WaitlistEntry(session=session, user_id=user_id, status=status))
    Reservation.objects.bulk_create(rows, batch_size=1000)
    WaitlistEntry.objects.bulk_create(waiting, batch_size=1000)

    attended = Reservation.objects.filter(
        session__in=[s for s in past if s not in cancelled], status=ReservationStatus.CONFIRMED, attendance__isnull=True
    ).values_list("pk", flat=True)
    marks = [
        Attendance(
            reservation_id=pk, status=AttendanceStatus.ABSENT if rng.random() < 0.1 else AttendanceStatus.PRESENT
        )
        for pk in attended.order_by("pk")
    ]
    Attendance.objects.bulk_create(marks, batch_size=1000)
    return {"cancelled": len(cancelled), "filled": len(rows), "waiting": len(waiting), "attendance": len(marks)}
