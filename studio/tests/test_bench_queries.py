"""The main public, member and staff pages and APIs run a fixed number of queries, with a small studio and with one
grown towards the bench's size, so that a page's cost does not grow with the data (`make bench` runs this file as
its "queries per page" row). Query counts only: speed is measured by `make bench`."""

import json
import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from accounts.tests.factories import StaffFactory, UserFactory
from bookings.models import Pass, PassKind, PassOrigin, Reservation, ReservationStatus
from courses.models import CourseSession
from courses.tests.factories import CourseFactory, instructor_named
from messaging.models import ContactMessage
from payments.models import PaymentOrder, PaymentStatus

pytestmark = pytest.mark.django_db


def _week(now):
    monday = timezone.localdate() - timedelta(days=timezone.localdate().weekday())
    return f"start={monday.isoformat()}&end={(monday + timedelta(days=7)).isoformat()}"


def _month(now):
    first = timezone.localdate().replace(day=1)
    return f"start={(first - timedelta(days=7)).isoformat()}&end={(first + timedelta(days=42)).isoformat()}"


def _stats_range(days: int) -> str:
    today = timezone.localdate()
    return f"from={(today - timedelta(days=days)).isoformat()}&to={today.isoformat()}"


def _last_month() -> str:
    first = timezone.localdate().replace(day=1)
    before = (first - timedelta(days=1)).replace(day=1)
    return f"start={before.isoformat()}&end={(first - timedelta(days=1)).isoformat()}"


# (who, path) as bench/pages.py measures them; {member} is the member's id.
PUBLIC = [
    "/",
    "/tarifs",
    "/courses/calendar",
    "/gallery",
    "/api/course-sessions?{week}",
    "/api/course-sessions?{month}",
]
MEMBER = [
    "/api/course-sessions?{week}",
    "/api/course-sessions?{month}",
    "/my-courses",
    "/user/profile",
    "/user/messages",
    "/api/course-feedback/user/{member}",
    "/weekly",
    "/tarifs",
    "/user/requests",
    "/user/delete-account",
    "/api/users/profile",
    "/api/passes/mine",
    "/api/waitlist/mine",
    "/api/booking-preferences",
    "/api/invoices/mine",
    "/api/subscriptions/mine",
    "/api/evf-reservations/mine",
    "/api/rental-requests/mine",
    "/api/users/me/export",
]
STAFF = [
    "/admin/dashboard",
    "/api/users?page=1",
    "/api/paypal/orders?page=1",
    "/api/passes?page=1",
    "/api/course-sessions?view=staff&page=1",
    "/admin/sessions",
    "/admin/overview",
    "/api/users/{member}",
    "/user/profile/{member}",
    "/api/users/{member}/export",
    "/api/contact-messages",
    "/api/contact-messages/unread-count",
    "/api/rental-requests",
    "/api/evf-reservations",
    "/api/subscriptions",
    "/api/emails/undelivered",
    "/api/dashboard/stats?{stats_week}",
    "/api/dashboard/stats?{stats_year}",
    "/api/exports/orders?{last_month}",
    "/api/exports/reservations?{last_month}",
    "/api/exports/members?{last_month}",
    "/api/exports/passes?{last_month}",
    "/api/courses",
    "/api/tarifs",
    "/api/instructors",
]
ENDPOINTS = [("anonymous", p) for p in PUBLIC] + [("member", p) for p in MEMBER] + [("staff", p) for p in STAFF]


def grow(member, *, sessions: int, members: int, reservations: int, history: int, orders: int, passes: int):
    """Bulk-create a studio of the given size around `member` (who follows `history` sessions)."""
    rng = random.Random(18)
    now = timezone.now()
    courses = CourseFactory.create_batch(3)
    tag = f"grow{User.objects.count()}"  # each call adds its own members and sessions
    User.objects.bulk_create(
        [User(email=f"{tag}-{i}@example.fr", first_name="Membre", last_name="Bench") for i in range(members)]
    )
    people = list(User.objects.filter(email__startswith=f"{tag}-").values_list("pk", flat=True))
    start = now - timedelta(days=60)
    instructor = instructor_named("Camille Laurent")
    CourseSession.objects.bulk_create(
        [
            CourseSession(
                course=courses[i % 3],
                start=start + timedelta(hours=7 * i),
                end=start + timedelta(hours=7 * i, minutes=75),
                instructor=instructor,
                max_attendees=20,
                details=tag,
            )
            for i in range(sessions)
        ]
    )
    session_ids = list(CourseSession.objects.filter(details=tag).values_list("pk", flat=True))
    pairs = {(rng.choice(session_ids), rng.choice(people)) for _ in range(reservations)}
    pairs |= {(sid, member.pk) for sid in session_ids[:: max(1, len(session_ids) // max(history, 1))][:history]}
    Reservation.objects.bulk_create(
        [
            Reservation(
                session_id=sid,
                user_id=uid,
                participants=1,
                unit_price=Decimal("25.00"),
                first_name="Membre",
                last_name="Bench",
                email="bench@example.fr",
                status=ReservationStatus.CONFIRMED,
                confirmed_at=now,
            )
            for sid, uid in pairs
        ]
    )
    PaymentOrder.objects.bulk_create(
        [
            PaymentOrder(
                order_id=f"{tag}-{i}",
                email="bench@example.fr",
                title="Carte 10 cours",
                amount=Decimal("190.00"),
                date="2026-03-01",
                status=PaymentStatus.COMPLETED,
                user_id=rng.choice(people),
            )
            for i in range(orders)
        ]
    )
    today = timezone.localdate()
    Pass.objects.bulk_create(
        [
            Pass(
                member_id=member.pk if i % 10 == 0 else rng.choice(people),
                kind=PassKind.CARD,
                origin=PassOrigin.STAFF,
                title="Carte 10 cours",
                credits_total=10,
                credits_left=5,
                starts_on=today - timedelta(days=10),
                expires_on=today + timedelta(days=100),
            )
            for i in range(passes)
        ]
    )
    ContactMessage.objects.bulk_create(
        [
            ContactMessage(user=member, name="Emma", email=member.email, text="Bonjour")
            for _ in range(max(1, passes // 10))
        ]
    )


SMALL = {"sessions": 4, "members": 3, "reservations": 6, "history": 2, "orders": 2, "passes": 2}
BENCH_SIZED = {"sessions": 400, "members": 80, "reservations": 900, "history": 60, "orders": 150, "passes": 60}


def count_queries(client, path) -> int:
    cache.clear()  # count the queries that build a page, not a cached copy
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, (path, response.content[:300])
    return len(queries)


@pytest.mark.parametrize(("who", "path"), ENDPOINTS, ids=[f"{w}:{p}" for w, p in ENDPOINTS])
def test_every_measured_page_runs_the_same_queries_small_and_bench_sized(who, path):
    member = UserFactory(email="emma@example.fr")
    client = Client()
    if who != "anonymous":
        client.force_login(StaffFactory() if who == "staff" else member)
    now = timezone.now()
    url = path.format(
        week=_week(now),
        month=_month(now),
        member=member.pk,
        stats_week=_stats_range(6),
        stats_year=_stats_range(364),
        last_month=_last_month(),
    )
    grow(member, **SMALL)
    few = count_queries(client, url)
    grow(member, **BENCH_SIZED)
    assert count_queries(client, url) == few


def test_the_staff_session_list_counts_seats_of_the_page_only():
    """The seat sums run over the page's ten sessions, not over every session before keeping ten."""
    member = UserFactory()
    grow(member, **BENCH_SIZED)
    client = Client()
    client.force_login(StaffFactory())
    with CaptureQueriesContext(connection) as queries:
        body = client.get("/api/course-sessions?view=staff&page=1").json()
    assert body["count"] == CourseSession.objects.count() and len(body["results"]) == 10
    reservation_queries = [q["sql"] for q in queries.captured_queries if "bookings_reservation" in q["sql"]]
    assert len(reservation_queries) == 1
    # The page's own query: the seats are subqueries on each of its rows, computed after its LIMIT.
    assert "courses_coursesession" in reservation_queries[0] and "LIMIT 10" in reservation_queries[0]
    first = CourseSession.objects.order_by("start", "id").first()
    expected = Reservation.objects.filter(session=first, status=ReservationStatus.CONFIRMED).count()
    row = body["results"][0]
    assert row["id"] == first.pk and row["seats_taken"] == expected and row["reservations_count"] == expected
    assert row["seats_left"] == first.max_attendees - expected


def test_the_member_feed_is_the_cached_public_bytes_with_the_members_reservations_overlaid(monkeypatch):
    from bookings.apis import feed
    from bookings.tests.factories import ReservationFactory
    from courses.tests.factories import CourseSessionFactory

    member = UserFactory()
    now = timezone.now()
    sessions = [CourseSessionFactory(start=now + timedelta(days=d, hours=1)) for d in (1, 2, 3)]
    mine = ReservationFactory(session=sessions[1], user=member, participants=2)
    ReservationFactory(session=sessions[2])  # someone else's
    url = f"/api/course-sessions?start={now.date().isoformat()}&end={(now + timedelta(days=7)).date().isoformat()}"
    public_bytes = Client().get(url).content
    public = json.loads(public_bytes)
    assert [e["id"] for e in public] == [s.pk for s in sessions]

    monkeypatch.setattr(feed, "session_data", lambda *a, **k: pytest.fail("the cached events were encoded again"))
    client = Client()
    client.force_login(member)
    with CaptureQueriesContext(connection) as queries:
        content = client.get(url).content
    # Session, user, the member's reservations in the range: the public events come from the cache as bytes.
    assert len(queries) == 3
    first, second, third = public_bytes.split(b'"my_reservation": null')[:3]
    assert content.startswith(first + b'"my_reservation": null' + second + b'"my_reservation": {')
    body = json.loads(content)
    assert [{**e, "my_reservation": None} for e in body] == public
    assert [e["my_reservation"] for e in body] == [
        None,
        {"id": mine.pk, "status": "confirmed", "participants": 2},
        None,
    ]
