"""The member's calendar feed made cheaper: the overlay read with the feed's session ids as one array kept
with the cached public feed, the reservations formatted straight into the cached bytes.

The new selector finds exactly what the old one (kept verbatim below) found over a varied member, and the member's
answer is byte for byte what the model-based build writes (every event encoded from the models, with the member's
reservation as `active_reservations_q` defines it), on SQLite and on PostgreSQL.
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
from bookings import selectors
from bookings.apis.feed import (
    MY_RESERVATION_NULL,
    member_feed_json,
    parse_feed_range,
    public_feed_encoded,
    public_feed_for_members,
    session_data,
    splice_member_rows,
)
from bookings.models import Reservation, ReservationStatus
from bookings.selectors_feed import member_reservation_rows, member_reservations_on_sessions
from bookings.services import active_reservations_q
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory

pytestmark = [pytest.mark.django_db, pytest.mark.database]

NOW = datetime(2026, 3, 11, 9, 30, tzinfo=UTC)  # a Wednesday
WEEK = ("2026-03-09", "2026-03-16")
MONTH = ("2026-02-23", "2026-04-06")


def old_member_reservations_on_sessions(*, user, session_ids, now) -> dict[int, dict]:
    """The selector as it was before this change (bookings/selectors_feed.py at 1a02ae5), run as plain SQL."""
    qn = connection.ops.quote_name
    ids_from_json = {
        "postgresql": "SELECT (jsonb_array_elements_text(%s::jsonb))::bigint",
        "sqlite": "SELECT value FROM json_each(%s)",
    }[connection.vendor]
    sql = (
        f"SELECT r.{qn('session_id')}, r.{qn('id')}, r.{qn('status')}, r.{qn('participants')}"
        f" FROM {qn('bookings_reservation')} r"
        f" WHERE r.{qn('user_id')} = %s AND r.{qn('session_id')} IN ({ids_from_json})"
        f" AND (r.{qn('status')} = %s OR (r.{qn('status')} = %s AND r.{qn('hold_expires_at')} > %s))"
    )
    params = [
        user.pk,
        json.dumps([int(i) for i in session_ids]),
        str(ReservationStatus.CONFIRMED),
        str(ReservationStatus.HELD),
        connection.ops.adapt_datetimefield_value(now),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}


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


def _as_dict(rows):
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}


@freeze_time(NOW)
@pytest.mark.parametrize("days", [WEEK, MONTH], ids=["week", "month"])
def test_the_new_selector_finds_what_the_old_one_found(days):
    member = varied_member()
    start, end = _range(days)
    feed_ids = list(
        CourseSession.objects.filter(start__lt=end, end__gt=start).order_by("start", "id").values_list("pk", flat=True)
    )
    old = old_member_reservations_on_sessions(user=member, session_ids=feed_ids, now=NOW)
    assert len(old) >= 6  # confirmed, held, rebooked, the edges, the cancelled class: the comparison means something
    assert old == orm_definition(user=member, session_ids=feed_ids, now=NOW)
    _body, _offsets, ids_text = public_feed_for_members(start=start, end=end, now=NOW)
    with CaptureQueriesContext(connection) as queries:
        rows = member_reservation_rows(user_id=member.pk, session_ids_text=ids_text, now=NOW)
    assert len(queries) == 1
    assert len(rows) == len(old) and _as_dict(rows) == old
    # The selector's dict form, given the ids as a list, agrees too.
    assert member_reservations_on_sessions(user=member, session_ids=feed_ids, now=NOW) == old
    # Someone without reservations, and a feed without sessions, find nothing (in the same one query).
    assert member_reservation_rows(user_id=UserFactory().pk, session_ids_text=ids_text, now=NOW) == []
    with CaptureQueriesContext(connection) as queries:
        assert member_reservation_rows(user_id=member.pk, session_ids_text="", now=NOW) == []
    assert len(queries) == 1


def model_based_feed(*, member, start, end, now) -> bytes:
    """The member's answer built from the models: every event encoded, their reservation in it."""
    events = list(selectors.sessions_in_range(start=start, end=end, now=now))
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


def test_the_splice_writes_what_json_dumps_writes():
    """The reservations are formatted straight into the bytes: the same bytes as the dicts through json.dumps."""
    body = b'[{"id": 1, "my_reservation": null}, {"id": 2, "my_reservation": null}, {"id": 3, "my_reservation": null}]'
    offsets = {sid: body.index(MY_RESERVATION_NULL, body.index(b'"id": %d' % sid)) for sid in (1, 2, 3)}
    rows = [(3, 9_000_000_001, "held", 1), (1, 7, "confirmed", 32_767)]
    expected = member_feed_json(body=body, offsets=offsets, mine=_as_dict(rows))
    assert splice_member_rows(body, offsets, rows) == expected
    assert json.loads(expected)[0]["my_reservation"] == {"id": 7, "status": "confirmed", "participants": 32_767}
    assert splice_member_rows(body, offsets, []) == body
    assert splice_member_rows(body, offsets, [(99, 1, "held", 1)]) == body  # not in the feed: nothing spliced
    # A status the query never answers is still written as JSON writes it.
    assert splice_member_rows(body, offsets, [(2, 5, 'odd "one"', 1)]) == member_feed_json(
        body=body, offsets=offsets, mine={2: {"id": 5, "status": 'odd "one"', "participants": 1}}
    )


@freeze_time(NOW)
def test_the_feed_entry_keeps_its_session_ids_for_the_overlay():
    varied_member()
    start, end = _range(MONTH)
    body, offsets, ids_text = public_feed_for_members(start=start, end=end, now=NOW)
    assert (body, offsets) == public_feed_encoded(start=start, end=end, now=NOW)
    assert [int(i) for i in ids_text.split(",")] == list(offsets)
    assert list(offsets) == [s.pk for s in selectors.sessions_in_range(start=start, end=end, now=NOW)]


@pytest.mark.postgres
@freeze_time(NOW)
def test_on_postgresql_the_overlay_is_prepared_with_three_parameters():
    """Prepared once per connection; the statuses are written in its text and the ids travel as one bigint array."""
    member = varied_member()
    start, end = _range(MONTH)
    _body, _offsets, ids_text = public_feed_for_members(start=start, end=end, now=NOW)
    connection.close()
    with CaptureQueriesContext(connection) as run:
        for _ in range(2):
            rows = member_reservation_rows(user_id=member.pk, session_ids_text=ids_text, now=NOW)
    executes = [q["sql"] for q in run.captured_queries]
    assert [sql.split()[0] for sql in executes] == ["EXECUTE", "EXECUTE"]
    assert executes[0].count(",") == 2 + ids_text.count(",")  # member, '{ids}', now
    assert _as_dict(rows) == orm_definition(user=member, session_ids=[int(i) for i in ids_text.split(",")], now=NOW)


def test_a_members_answer_is_spliced_again_only_when_the_feed_or_their_rows_change(monkeypatch):
    """The answer last spliced is kept under what it is made of (the cached feed's very bytes object and the rows the
    query just read): the same inputs give the same bytes without copying the feed again; any change splices anew."""
    from bookings.apis import feed

    monkeypatch.setattr(feed, "_spliced", feed.OrderedDict())
    monkeypatch.setattr(feed, "_spliced_size", 0)
    body = b'[{"id": 1, "my_reservation": null}, {"id": 2, "my_reservation": null}]'
    offsets = {sid: body.index(MY_RESERVATION_NULL, body.index(b'"id": %d' % sid)) for sid in (1, 2)}
    rows = [(1, 10, "confirmed", 2)]
    first = feed._splice_kept(body, offsets, list(rows))
    assert first == splice_member_rows(body, offsets, rows)
    assert feed._splice_kept(body, offsets, list(rows)) is first  # the same inputs: the kept answer
    held = feed._splice_kept(body, offsets, [(1, 10, "held", 2)])  # the member's row changed: spliced again
    assert held == splice_member_rows(body, offsets, [(1, 10, "held", 2)]) != first
    rebuilt = bytes(bytearray(body))  # the feed rebuilt (equal bytes, another entry): spliced again
    assert feed._splice_kept(rebuilt, dict(offsets), list(rows)) == first
    assert feed._splice_kept(body, offsets, []) is body  # no reservation: the public bytes themselves
    # Bounded: the oldest answers go first.
    monkeypatch.setattr(feed, "SPLICED_KEPT_BYTES", 4 * (len(body) + len(first)))
    for pk in range(20):
        feed._splice_kept(body, offsets, [(2, pk, "confirmed", 1)])
    assert feed._spliced_size <= feed.SPLICED_KEPT_BYTES and len(feed._spliced) == 4
    assert feed._spliced_size == sum(len(b) + len(s) for b, _o, s in feed._spliced.values())


def test_a_range_given_by_its_two_bounds_is_read_once_and_refused_every_time():
    from django.test import override_settings

    from bookings.services.common import ReservationError

    week = {"start": "2026-03-09", "end": "2026-03-16"}
    assert parse_feed_range(week) == (
        datetime(2026, 3, 8, 23, tzinfo=UTC),
        datetime(2026, 3, 15, 23, tzinfo=UTC),
    )
    assert parse_feed_range(dict(week)) is parse_feed_range(week)  # kept
    with override_settings(TIME_ZONE="UTC"):  # read in the default time zone, kept per zone
        assert parse_feed_range(week) == (datetime(2026, 3, 9, tzinfo=UTC), datetime(2026, 3, 16, tzinfo=UTC))
    assert parse_feed_range(week)[0] == datetime(2026, 3, 8, 23, tzinfo=UTC)
    for refused in (
        {"start": "2026-03-16", "end": "2026-03-09"},
        {"start": "2026-13-01", "end": "2026-03-09"},
        {"start": "", "end": "2026-03-09"},
        {"start": "2025-01-01", "end": "2026-03-09"},
    ):
        for _ in range(2):
            with pytest.raises(ReservationError):
                parse_feed_range(refused)
    # Without both bounds, the range depends on today: read each time.
    with freeze_time(NOW):
        assert parse_feed_range({}) == (NOW - timedelta(days=7), NOW + timedelta(days=55))
    with freeze_time(NOW + timedelta(days=1)):
        assert parse_feed_range({})[0] == NOW - timedelta(days=6)


def test_the_overlay_resolves_its_connection_once_and_the_ranges_entry_name_once(monkeypatch):
    """Each use of django.db's `connection` proxy looks the connection up again (a thread-local read): the overlay
    takes the connection itself once. The cache entry's name and week keys are written once per range."""
    from bookings import selectors_feed
    from bookings.apis import feed

    member = varied_member()
    start, end = _range(WEEK)
    _body, _offsets, ids_text = public_feed_for_members(start=start, end=end, now=NOW)
    expected = member_reservation_rows(user_id=member.pk, session_ids_text=ids_text, now=NOW)  # its SQL written

    class NoProxy:
        def __getattr__(self, name):
            raise AssertionError(f"connection.{name} read through the proxy")

    monkeypatch.setattr(selectors_feed, "connection", NoProxy())
    assert member_reservation_rows(user_id=member.pk, session_ids_text=ids_text, now=NOW) == expected

    names = []
    monkeypatch.setattr(feed, "feed_version_keys", lambda s, e: names.append((s, e)) or ["feed:week:x"])
    feed._entry_name_and_keys.cache_clear()
    for _ in range(3):
        public_feed_for_members(start=start, end=end, now=NOW)
    assert names == [(start, end)]
    feed._entry_name_and_keys.cache_clear()
