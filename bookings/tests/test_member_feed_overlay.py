"""The member's calendar feed: the cached public events with the member's reservations written in.

Over a member with every kind of reservation, the answer is byte for byte what the model-based build writes (every
event encoded from the models, with the member's reservation as `active_reservations_q` defines it), built or from
the cache, on SQLite and on PostgreSQL; a change shows at the next request; the queries do not grow with the range.
"""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.apis.feed import MY_RESERVATION_NULL, member_feed_json, parse_feed_range, session_data
from bookings.models import Reservation, ReservationStatus
from bookings.selectors.feed import member_reservations_in_range
from bookings.selectors.sessions import sessions_in_range
from bookings.services.availability import active_reservations_q
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory

pytestmark = [pytest.mark.django_db, pytest.mark.database]

NOW = datetime(2026, 3, 11, 9, 30, tzinfo=UTC)  # a Wednesday
WEEK = ("2026-03-09", "2026-03-16")
MONTH = ("2026-02-23", "2026-04-06")


def _session(start, minutes=75):
    return CourseSessionFactory(start=start, end=start + timedelta(minutes=minutes))


def varied_member():
    """A member with every kind of row, in and around a week's range and a month's, beside other members' rows."""
    member, other, third = UserFactory(), UserFactory(), UserFactory()
    monday = datetime(2026, 3, 9, tzinfo=UTC)
    kinds = []
    for week in (-2, 0, 3):  # the month's first week, the week itself, the month's last week
        base = monday + timedelta(weeks=week)
        s = [_session(base + timedelta(days=d, hours=8 + d)) for d in range(7)]
        kinds += [
            ReservationFactory(session=s[0], user=member, participants=3),  # confirmed (past for the first week)
            ReservationFactory(session=s[1], user=member, held=True),  # held, hold running
            ReservationFactory(
                session=s[2],
                user=member,
                status=ReservationStatus.HELD,
                hold_expires_at=NOW - timedelta(seconds=1),  # held, hold lapsed
            ),
            ReservationFactory(session=s[3], user=member, status=ReservationStatus.CANCELLED),
            ReservationFactory(session=s[4], user=member, status=ReservationStatus.EXPIRED),
            ReservationFactory(session=s[5], user=other, participants=2),  # someone else's
        ]
        # Cancelled then booked again: two rows of the member on one session, one of them live.
        ReservationFactory(session=s[6], user=member, status=ReservationStatus.CANCELLED)
        ReservationFactory(session=s[6], user=member, participants=2)
        ReservationFactory(session=s[6], user=third, held=True)
    # Held exactly until now: lapsed (the hold runs while it ends after now).
    ReservationFactory(
        session=_session(monday + timedelta(days=5, hours=19)),
        user=member,
        status=ReservationStatus.HELD,
        hold_expires_at=NOW,
    )
    # The week's edges: overlapping its start or its end is in it; ending at its start or starting at its end is not.
    week_start, week_end = _range(WEEK)
    for start, minutes in (
        (week_start - timedelta(minutes=30), 75),
        (week_start - timedelta(minutes=75), 75),
        (week_end - timedelta(minutes=30), 75),
        (week_end, 75),
    ):
        ReservationFactory(session=_session(start, minutes), user=member)
    # A cancelled class with the member's reservation still confirmed on it.
    cancelled_class = _session(monday + timedelta(days=4, hours=18))
    CourseSession.objects.filter(pk=cancelled_class.pk).update(status="cancelled")
    ReservationFactory(session=cancelled_class, user=member)
    # Sessions in the range without any reservation.
    for d in range(3):
        _session(monday + timedelta(days=d, hours=20))
    return member


def orm_definition(*, user, session_ids, now) -> dict[int, dict]:
    rows = Reservation.objects.filter(
        active_reservations_q(now), user=user, session_id__in=list(session_ids)
    ).values_list("session_id", "pk", "status", "participants")
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}


def _range(days):
    """The range as the API reads it (a date is its midnight in Paris)."""
    return parse_feed_range({"start": days[0], "end": days[1]})


@freeze_time(NOW)
@pytest.mark.parametrize("days", [WEEK, MONTH], ids=["week", "month"])
def test_the_overlay_is_the_orm_definition_over_every_kind_of_reservation(days):
    member = varied_member()
    start, end = _range(days)
    feed_ids = list(
        CourseSession.objects.filter(start__lt=end, end__gt=start).order_by("start", "id").values_list("pk", flat=True)
    )
    expected = orm_definition(user=member, session_ids=feed_ids, now=NOW)
    # Confirmed, held, rebooked, the edges, the cancelled class: the comparison means something.
    assert len(expected) >= 6
    with CaptureQueriesContext(connection) as queries:
        assert member_reservations_in_range(user=member, start=start, end=end, now=NOW) == expected
    assert len(queries) == 1


def model_based_feed(*, member, start, end, now) -> bytes:
    """The member's answer built from the models: every event encoded, their reservation in it."""
    events = list(sessions_in_range(start=start, end=end, now=now))
    mine = orm_definition(user=member, session_ids=[s.pk for s in events], now=now)
    encoded = [
        json.dumps(session_data(s, now=now, my_reservation=mine.get(s.pk)), cls=DjangoJSONEncoder).encode()
        for s in events
    ]
    return b"[" + b", ".join(encoded) + b"]"


@freeze_time(NOW)
@pytest.mark.parametrize("days", [WEEK, MONTH], ids=["week", "month"])
def test_the_members_feed_is_byte_for_byte_the_model_based_build(days):
    member = varied_member()
    client = Client()
    client.force_login(member)
    url = f"/api/course-sessions?start={days[0]}&end={days[1]}"
    for _ in range(2):  # built, then from the cache
        response = client.get(url)
        assert response.status_code == 200
        start, end = _range(days)
        assert response.content == model_based_feed(member=member, start=start, end=end, now=NOW)
    assert response.content.count(b'"my_reservation": {') >= 6
    # A visitor still gets the public bytes, without anyone's reservation.
    assert Client().get(url).content == model_based_feed(member=UserFactory(), start=start, end=end, now=NOW)
    # Another member on the same feed gets theirs, none of the first member's.
    other = UserFactory()
    ReservationFactory(session=sessions_in_range(start=start, end=end, now=NOW)[0], user=other, participants=4)
    client.force_login(other)
    theirs = client.get(url).content
    assert theirs == model_based_feed(member=other, start=start, end=end, now=NOW)
    assert theirs.count(b'"my_reservation": {') == 1 and b'"participants": 4}' in theirs


@freeze_time(NOW)
def test_a_hold_lapsing_or_a_reservation_confirmed_shows_at_the_next_request():
    member = varied_member()
    client = Client()
    client.force_login(member)
    url = f"/api/course-sessions?start={WEEK[0]}&end={WEEK[1]}"
    start, end = _range(WEEK)
    client.get(url)
    held = Reservation.objects.filter(user=member, status=ReservationStatus.HELD, hold_expires_at__gt=NOW).first()
    held.status = ReservationStatus.CONFIRMED
    held.save()
    assert client.get(url).content == model_based_feed(member=member, start=start, end=end, now=NOW)
    later = NOW + timedelta(minutes=30)  # every hold of the varied member has lapsed
    with freeze_time(later):
        assert client.get(url).content == model_based_feed(member=member, start=start, end=end, now=later)


def test_the_members_reservations_are_written_where_the_events_nulls_are():
    body = b'[{"id": 1, "my_reservation": null}, {"id": 2, "my_reservation": null}, {"id": 3, "my_reservation": null}]'
    offsets = {sid: body.index(MY_RESERVATION_NULL, body.index(b'"id": %d' % sid)) for sid in (1, 2, 3)}
    mine = {
        3: {"id": 9_000_000_001, "status": "held", "participants": 1},
        1: {"id": 7, "status": "confirmed", "participants": 2},
    }
    written = json.loads(member_feed_json(body=body, offsets=offsets, mine=mine))
    assert [event["my_reservation"] for event in written] == [mine[1], None, mine[3]]
    assert member_feed_json(body=body, offsets=offsets, mine={}) == body
    assert member_feed_json(body=body, offsets=offsets, mine={99: mine[1]}) == body  # not in the feed: left out


@freeze_time(NOW)
def test_a_members_feed_runs_as_many_queries_for_a_full_month_as_for_an_empty_week(client):
    member = varied_member()
    client.force_login(member)
    empty_week = ("2027-03-08", "2027-03-15")
    counts = []
    for days in (empty_week, MONTH):
        url = f"/api/course-sessions?start={days[0]}&end={days[1]}"
        assert client.get(url).status_code == 200  # the public events built and cached
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_a_range_is_read_from_its_two_bounds_or_from_today():
    from django.test import override_settings

    from bookings.services.common import ReservationError

    week = {"start": "2026-03-09", "end": "2026-03-16"}
    assert parse_feed_range(week) == (
        datetime(2026, 3, 8, 23, tzinfo=UTC),
        datetime(2026, 3, 15, 23, tzinfo=UTC),
    )
    with override_settings(TIME_ZONE="UTC"):  # dates are read in the default time zone
        assert parse_feed_range(week) == (datetime(2026, 3, 9, tzinfo=UTC), datetime(2026, 3, 16, tzinfo=UTC))
    assert parse_feed_range(week)[0] == datetime(2026, 3, 8, 23, tzinfo=UTC)
    for refused in (
        {"start": "2026-03-16", "end": "2026-03-09"},
        {"start": "2026-13-01", "end": "2026-03-09"},
        {"start": "", "end": "2026-03-09"},
        {"start": "2025-01-01", "end": "2026-03-09"},
    ):
        with pytest.raises(ReservationError):
            parse_feed_range(refused)
    with freeze_time(NOW):
        assert parse_feed_range({}) == (NOW - timedelta(days=7), NOW + timedelta(days=55))
    with freeze_time(NOW + timedelta(days=1)):
        assert parse_feed_range({})[0] == NOW - timedelta(days=6)
