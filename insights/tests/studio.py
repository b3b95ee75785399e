"""A smaller bench studio for the stats tests: the bench's own activity generator
(project/bench_activity.py) over a year of sessions, members and bookings, plus the rows that sit on the edges a
figure could get wrong (Paris midnight, a cancelled class, a live hold, a pass with no subscription...)."""

import random
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from accounts.tests.factories import UserFactory
from bookings.models import Pass, PassKind, PassOrigin, Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession, Tariff
from courses.tests.factories import CourseFactory, CourseSessionFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionCharge, SubscriptionStatus
from project.bench_activity import seed_activity

PARIS = ZoneInfo("Europe/Paris")
# A Sunday when Paris moves to summer time (02:00 -> 03:00): weeks and days must still be Paris days.
NOW = datetime(2026, 3, 29, 11, 0, tzinfo=PARIS)


def paris(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=PARIS)


def build_studio(
    *, sessions: int = 150, members: int = 40, reservations: int = 400, seed: int = 22, tag: str = "", now=NOW
) -> dict:
    """Call under freeze_time(NOW) (or with the real `now`, for the browser tests); a second studio in the same test
    takes another `tag`."""
    rng = random.Random(seed)
    today = now.astimezone(PARIS).date()
    Tariff.objects.create(
        title="Carte 10 cours", price=Decimal("190.00"), pass_credits=10, pass_validity_months=6, position=1
    )
    Tariff.objects.create(
        title="Illimité mensuel",
        price=Decimal("55.00"),
        frequency="par mois",
        pass_unlimited=True,
        pass_validity_months=12,
        position=2,
    )
    courses = [CourseFactory(title=title) for title in ("Pole débutant", "Cerceau aérien", "Exotic flow")]
    people = [UserFactory() for _ in range(members)]
    first = today - timedelta(days=180)
    created = []
    for i in range(sessions):
        day = first + timedelta(days=(i * 365) // sessions)
        start = paris(day, 9 + (i % 12))
        created.append(
            CourseSessionFactory(
                course=courses[i % len(courses)], start=start, end=start + timedelta(minutes=75), max_attendees=10
            )
        )
    pairs = set()
    rows = []
    while len(rows) < reservations:
        session, user = rng.choice(created), rng.choice(people)
        if (session.pk, user.pk) in pairs:
            continue
        pairs.add((session.pk, user.pk))
        rows.append(
            Reservation(
                session=session,
                user=user,
                participants=rng.choice((1, 1, 1, 2)),
                unit_price=Decimal("25.00"),
                first_name=user.first_name,
                last_name=user.last_name,
                email=user.email,
                status=rng.choice((ReservationStatus.CONFIRMED,) * 6 + (ReservationStatus.CANCELLED,)),
            )
        )
    Reservation.objects.bulk_create(rows)
    activity = seed_activity(
        member_ids=[u.pk for u in people],
        session_ids=[s.pk for s in created],
        rng=rng,
        now=now,
        mark=f"BENCH-ACT{tag}",
    )
    edges = _edges(people, courses, today, tag, now)
    return {"members": people, "sessions": created, "activity": activity, **edges}


def _edges(people, courses, today, tag: str, now) -> dict:
    """Rows on the boundaries: each belongs to exactly one Paris day, whatever UTC says."""
    member = people[0]
    monday = today - timedelta(days=today.weekday())
    # Paid at 00:30 Paris on Monday (still Sunday in UTC): in this week, not the last.
    PaymentOrder.objects.create(
        order_id=f"EDGE{tag}-MONDAY",
        email=member.email,
        title="Cours à l'unité",
        amount=Decimal("25.00"),
        date=monday.isoformat(),
        status=PaymentStatus.COMPLETED,
        user=member,
        completed_at=paris(monday, 0, 30),
    )
    # Paid at 23:45 Paris on the Sunday before: last week, though UTC already says... the same Sunday (22:45).
    PaymentOrder.objects.create(
        order_id=f"EDGE{tag}-SUNDAY",
        email=member.email,
        title="Cours à l'unité",
        amount=Decimal("30.00"),
        date=(monday - timedelta(days=1)).isoformat(),
        status=PaymentStatus.COMPLETED,
        user=member,
        completed_at=paris(monday - timedelta(days=1), 23, 45),
    )
    # Recorded at the desk without a capture time: counted on the day it was created.
    desk = PaymentOrder.objects.create(
        order_id=f"EDGE{tag}-DESK",
        email=member.email,
        title="Payé à l'accueil",
        amount=Decimal("12.50"),
        date=today.isoformat(),
        status=PaymentStatus.COMPLETED,
        user=member,
    )
    # Started and abandoned, declined: never money in.
    for status in (PaymentStatus.CREATED, PaymentStatus.VOIDED, PaymentStatus.DECLINED):
        PaymentOrder.objects.create(
            order_id=f"EDGE{tag}-{status}",
            email=member.email,
            title="Jamais payé",
            amount=Decimal("99.00"),
            date=today.isoformat(),
            status=status,
            user=member,
        )
    # A refund still pending: money in, not yet out.
    PaymentOrder.objects.create(
        order_id=f"EDGE{tag}-PENDING",
        email=member.email,
        title="Remboursement en cours",
        amount=Decimal("40.00"),
        date=today.isoformat(),
        status=PaymentStatus.REFUND_PENDING,
        user=member,
        completed_at=paris(today - timedelta(days=2), 15),
    )
    # A one-off unlimited pass (no subscription) running out in 10 days, and a card down to its last credit.
    Pass.objects.create(
        member=member,
        kind=PassKind.SUBSCRIPTION,
        origin=PassOrigin.STAFF,
        title="Illimité 3 mois",
        starts_on=today - timedelta(days=80),
        expires_on=today + timedelta(days=10),
    )
    Pass.objects.create(
        member=people[1],
        kind=PassKind.CARD,
        origin=PassOrigin.STAFF,
        title="Carte 5 cours",
        credits_total=5,
        credits_left=1,
        starts_on=today - timedelta(days=10),
        expires_on=today + timedelta(days=170),
    )
    # A class tomorrow evening, full, with a live hold, two in line and one who left.
    tomorrow = paris(today + timedelta(days=1), 19)
    full = CourseSessionFactory(
        course=courses[0], start=tomorrow, end=tomorrow + timedelta(minutes=75), max_attendees=3
    )
    ReservationFactory(session=full, user=people[2], participants=2)
    ReservationFactory(session=full, user=people[3], held=True)
    for user, status in (
        (people[4], WaitlistStatus.WAITING),
        (people[5], WaitlistStatus.WAITING),
        (people[6], WaitlistStatus.LEFT),
    ):
        WaitlistEntry.objects.create(session=full, user=user, status=status)
    # A lapsed hold on a class in three days holds no seat.
    later = CourseSessionFactory(
        course=courses[1], start=paris(today + timedelta(days=3), 18), end=paris(today + timedelta(days=3), 19)
    )
    ReservationFactory(
        session=later, user=people[7], status=ReservationStatus.HELD, hold_expires_at=now - timedelta(minutes=1)
    )
    # A cancelled class yesterday.
    gone = CourseSessionFactory(
        course=courses[2], start=paris(today - timedelta(days=1), 10), end=paris(today - timedelta(days=1), 11)
    )
    CourseSession.objects.filter(pk=gone.pk).update(status="cancelled")
    # A period refused today (the subscription is then unpaid, docs/decisions.md 25) and one due in a week (not yet due:
    # nothing to chase).
    charge = SubscriptionCharge.objects.filter(status=ChargeStatus.PAID, period__gt=1).order_by("pk").first()
    if charge is not None:
        SubscriptionCharge.objects.create(
            subscription=charge.subscription,
            period=13 + 2 * bool(tag),
            due_on=today,
            amount=Decimal("55.00"),
            status=ChargeStatus.FAILED,
            attempts=1,
        )
        SubscriptionCharge.objects.create(
            subscription=charge.subscription,
            period=14 + 2 * bool(tag),
            due_on=today + timedelta(days=7),
            amount=Decimal("55.00"),
            status=ChargeStatus.DUE,
        )
        Subscription.objects.filter(pk=charge.subscription_id).update(status=SubscriptionStatus.UNPAID)
    return {"desk_order": desk, "full_session": full}
