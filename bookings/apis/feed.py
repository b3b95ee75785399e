"""The sessions feed: the range it covers, one session's public and staff shapes, the cached public bytes with
the member's reservations spliced in."""

import json
from datetime import UTC, datetime, time, timedelta

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from courses.booking_windows import session_booking_opens_at, session_free_cancellation_until
from studio.cache import cached_public, mark_public_answer
from studio.errors import ApplicationError

from ..cache import feed_version_keys
from ..selectors.feed import member_reservations_in_range
from ..selectors.sessions import sessions_in_range
from ..services.availability import session_seats_taken
from ..services.common import ReservationError
from .common import MSG_RANGE_INVALID, _iso, paris_text

DEFAULT_FEED_DAYS_BEFORE = 7
DEFAULT_FEED_DAYS_AFTER = 62
MAX_FEED_DAYS = 400  # a year view at most: the feed stays bounded whatever the query


def _parse_range_bound(raw: str | None) -> datetime | None:
    if raw is None:  # absent; sent empty is no date (refused below)
        return None
    text = raw.strip().replace(" ", "+")  # an unencoded "+02:00" arrives as " 02:00"
    try:
        if len(text) == 10:
            parsed = datetime.combine(datetime.fromisoformat(text).date(), time.min)
        else:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed, timezone.get_default_timezone())
        parsed.astimezone(UTC)  # the database compares in UTC: 0001-01-01T00:00+01:00 has no UTC time
    except (ValueError, OverflowError):
        raise ReservationError(MSG_RANGE_INVALID, code="range_invalid") from None
    return parsed


def _checked_range(start: datetime, end: datetime) -> tuple[datetime, datetime]:
    if end <= start or end - start > timedelta(days=MAX_FEED_DAYS):
        raise ReservationError(MSG_RANGE_INVALID, code="range_invalid")
    return start, end


def parse_feed_range(params) -> tuple[datetime, datetime]:
    """The feed's range from ?start=&end=, or ReservationError (400) in French."""
    now = timezone.now()
    start = _parse_range_bound(params.get("start")) or now - timedelta(days=DEFAULT_FEED_DAYS_BEFORE)
    try:
        end = _parse_range_bound(params.get("end")) or start + timedelta(days=DEFAULT_FEED_DAYS_AFTER)
    except OverflowError:  # a start at the end of year 9999
        raise ReservationError(MSG_RANGE_INVALID, code="range_invalid") from None
    return _checked_range(start, end)


def feed_keys_for_request(request) -> list[str] | None:
    """The week versions a visitor's feed request depends on (the middleware's check), None for a malformed range."""
    try:
        start, end = parse_feed_range(request.GET)
    except (ValueError, OverflowError, ApplicationError):
        return None
    return feed_version_keys(start, end)


def mark_feed_answer(request, response, *, version: tuple, timeout: int):
    """Store a visitor's feed answer for the middleware to serve the next visitors (bookings/cache.py)."""
    return mark_public_answer(request, response, version=version, timeout=timeout, depends_on=feed_keys_for_request)


def session_data(session, *, now=None, my_reservation=None) -> dict:
    now = now or timezone.now()
    seats_taken = getattr(session, "seats_taken", None)
    if seats_taken is None:
        seats_taken = session_seats_taken(session=session, now=now)
    seats_left = max(session.max_attendees - seats_taken, 0)
    return {
        "id": session.pk,
        "course_id": session.course_id,
        "course_title": session.course.title,
        "title": session.course.title,
        "date": _iso(session.start),
        "end_date": _iso(session.end),
        "instructor": session.instructor_name,  # the name, where the calendar has always read it
        "instructor_id": session.instructor_id,
        "level": session.level or session.course.level,
        "details": session.details,
        "seats_left": seats_left,
        "max_attendees": session.max_attendees,
        "price_per_participant": f"{session.price_per_participant:.2f}",
        "is_full": seats_left == 0,
        "is_past": session.start <= now,
        # A class the studio cancelled stays in the calendar, "Annulé" (status_label), and is not booked.
        "status": session.status,
        "status_label": session.get_status_display(),
        "cancellation_reason": session.cancellation_reason,
        # docs/decisions.md 45, 44: when booking opens and until when a cancellation is free (Paris time offsets).
        "booking_opens_at": _iso(session_booking_opens_at(session)),
        "free_cancellation_until": _iso(session_free_cancellation_until(session)),
        "my_reservation": my_reservation,
    }


# The public feed is shared by every visitor and cached until staff change public data or a reservation changes
# the seats of a week it covers (bookings/cache.py). The cache also expires after FEED_CACHE_SECONDS so that lapsed
# holds (which change no row) and "past" flags refresh.
FEED_CACHE_SECONDS = 30


MY_RESERVATION_NULL = b'"my_reservation": null'


def public_feed_encoded(*, start: datetime, end: datetime, now: datetime) -> tuple[bytes, dict[int, int]]:
    """The range's public events as JSON bytes, and where each event's `"my_reservation": null` sits in them.

    Cached until public data changes: visitors get the bytes as they are; a member gets the same bytes with their
    few reservations written in at those offsets (`member_feed_encoded`), instead of every event encoded again."""

    def encode() -> tuple[bytes, dict[int, int]]:
        parts, offsets, position = [], {}, 1  # position just after the opening "["
        for session in sessions_in_range(start=start, end=end, now=now):
            text = json.dumps(session_data(session, now=now), cls=DjangoJSONEncoder).encode()
            # "my_reservation" is the event's last key: its null closes the object.
            offsets[session.pk] = position + len(text) - len(MY_RESERVATION_NULL) - 1
            parts.append(text)
            position += len(text) + 2  # the ", " between events
        return b"[" + b", ".join(parts) + b"]", offsets

    # Also under the versions of the weeks it covers: a seat hold rebuilds only its week's feeds (bookings/cache.py).
    return cached_public(
        f"feed-events:{start.isoformat()}:{end.isoformat()}",
        encode,
        timeout=FEED_CACHE_SECONDS,
        depends_on=feed_version_keys(start, end),
    )


def member_feed_encoded(*, user, start: datetime, end: datetime, now: datetime) -> bytes:
    """A member's feed: the cached public bytes with their reservations on its sessions (one query)."""
    body, offsets = public_feed_encoded(start=start, end=end, now=now)
    mine = member_reservations_in_range(user=user, start=start, end=end, now=now)
    return member_feed_json(body=body, offsets=offsets, mine=mine)


def member_feed_json(*, body: bytes, offsets: dict[int, int], mine: dict[int, dict]) -> bytes:
    """`body` with `"my_reservation": {...}` in place of null for each of the member's sessions the feed holds."""
    pieces, last = [], 0
    for offset, value in sorted((offsets[sid], value) for sid, value in mine.items() if sid in offsets):
        pieces += [body[last:offset], b'"my_reservation": ', json.dumps(value).encode()]
        last = offset + len(MY_RESERVATION_NULL)
    pieces.append(body[last:])
    return b"".join(pieces)


def staff_session_data(session, *, now=None) -> dict:
    data = session_data(session, now=now)
    data.pop("my_reservation")
    data["seats_taken"] = session.max_attendees - data["seats_left"]
    data["reservations_count"] = getattr(session, "reservations_count", None)
    data["start_paris"] = paris_text(session.start)
    data["end_paris"] = paris_text(session.end)
    return data
