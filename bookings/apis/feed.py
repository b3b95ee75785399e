"""The sessions feed: the range it covers, one session's public and staff shapes, the cached public bytes with
the member's reservations spliced in."""

import json
import threading
from collections import OrderedDict
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from studio.cache import cached_public

from .. import selectors, services
from ..cache import feed_version_keys
from ..models import ReservationStatus
from ..selectors_feed import member_reservation_rows, session_ids_text
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


@lru_cache(maxsize=1024)
def _explicit_range(raw_start: str, raw_end: str, _zone) -> tuple[datetime, datetime]:
    """A range whose two bounds are given: a function of their text (and of the default time zone, which the
    dates are read in), kept, since the feed reads the same few ranges again and again (a visitor's request twice:
    the page cache's check, then the view). A refused range raises, and is not kept."""
    return _checked_range(_parse_range_bound(raw_start), _parse_range_bound(raw_end))


def parse_feed_range(params) -> tuple[datetime, datetime]:
    """The feed's range from ?start=&end=, or ReservationError (400) in French."""
    raw_start, raw_end = params.get("start"), params.get("end")
    if raw_start is not None and raw_end is not None and len(raw_start) + len(raw_end) <= 80:
        return _explicit_range(raw_start, raw_end, timezone.get_default_timezone())
    now = timezone.now()
    start = _parse_range_bound(raw_start) or now - timedelta(days=DEFAULT_FEED_DAYS_BEFORE)
    try:
        end = _parse_range_bound(raw_end) or start + timedelta(days=DEFAULT_FEED_DAYS_AFTER)
    except OverflowError:  # a start at the end of year 9999
        raise ReservationError(MSG_RANGE_INVALID, code="range_invalid") from None
    return _checked_range(start, end)


def session_data(session, *, now=None, my_reservation=None) -> dict:
    now = now or timezone.now()
    seats_taken = getattr(session, "seats_taken", None)
    if seats_taken is None:
        seats_taken = services.session_seats_taken(session=session, now=now)
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
        "my_reservation": my_reservation,
    }


# The public feed is shared by every visitor and cached until staff change public data or a reservation changes
# the seats of a week it covers (bookings/cache.py). The cache also expires after FEED_CACHE_SECONDS so that lapsed
# holds (which change no row) and "past" flags refresh.
FEED_CACHE_SECONDS = 30


MY_RESERVATION_NULL = b'"my_reservation": null'


def public_feed_for_members(*, start: datetime, end: datetime, now: datetime) -> tuple[bytes, dict[int, int], str]:
    """The range's public events as JSON bytes, where each event's `"my_reservation": null` sits in them, and the
    events' session ids as the text the member's overlay query takes ("1,2,3").

    Cached until public data changes: visitors get the bytes as they are (`public_feed_encoded`); a member gets the
    same bytes with their few reservations spliced in at those offsets (`member_feed_encoded`), never a
    re-encoding of every event, and the ids are written once with the entry rather than at each member's request.
    """

    def encode() -> tuple[bytes, dict[int, int], str]:
        parts, offsets, position = [], {}, 1  # position just after the opening "["
        for session in selectors.sessions_in_range(start=start, end=end, now=now):
            text = json.dumps(session_data(session, now=now), cls=DjangoJSONEncoder).encode()
            # "my_reservation" is the event's last key: its null closes the object.
            offsets[session.pk] = position + len(text) - len(MY_RESERVATION_NULL) - 1
            parts.append(text)
            position += len(text) + 2  # the ", " between events
        return b"[" + b", ".join(parts) + b"]", offsets, session_ids_text(offsets)

    name, version_keys = _entry_name_and_keys(start, end)
    # Also under the versions of the weeks it covers: a seat hold rebuilds only its week's feeds (bookings/cache.py).
    return cached_public(name, encode, timeout=FEED_CACHE_SECONDS, depends_on=version_keys)


def public_feed_encoded(*, start: datetime, end: datetime, now: datetime) -> tuple[bytes, dict[int, int]]:
    """The range's public events as JSON bytes, and where each event's `"my_reservation": null` sits in them."""
    body, offsets, _ids = public_feed_for_members(start=start, end=end, now=now)
    return body, offsets


@lru_cache(maxsize=512)
def _entry_name_and_keys(start: datetime, end: datetime) -> tuple[str, tuple[str, ...]]:
    """The cache entry's name for a range and the week versions it depends on (`feed_version_keys`), kept: members
    page through the same few ranges. "feed-json2": the entry holds the ids too (one of the previous shape, under
    "feed-json", is never read as this one)."""
    return f"feed-json2:{start.isoformat()}:{end.isoformat()}", tuple(feed_version_keys(start, end))


# The member's reservation as `json.dumps({"id": ..., "status": ..., "participants": ...})` writes it, in place of
# the null: formatted straight into bytes (json.dumps cost ~1.5 µs a reservation, a month holds dozens).
_MY_RESERVATION = b'"my_reservation": {"id": %d, "status": %b, "participants": %d}'
_STATUS_JSON = {str(status): json.dumps(str(status)).encode() for status in ReservationStatus}


def splice_member_rows(body: bytes, offsets: dict[int, int], rows) -> bytes:
    """`body` with `"my_reservation": {...}` in place of null for each (session id, reservation id, status,
    participants) of `rows` whose session the feed holds; the same bytes as `member_feed_json` with those dicts."""
    if not rows:
        return body
    mine = {sid: (pk, status, n) for sid, pk, status, n in rows if sid in offsets}  # the last row of a session wins
    view, pieces, last = memoryview(body), [], 0  # slices of the view: the body is copied once, by the join
    for offset, (pk, status, n) in sorted((offsets[sid], value) for sid, value in mine.items()):
        status_json = _STATUS_JSON.get(status) or json.dumps(status).encode()
        pieces += [view[last:offset], _MY_RESERVATION % (int(pk), status_json, int(n))]
        last = offset + len(MY_RESERVATION_NULL)
    pieces.append(view[last:])
    return b"".join(pieces)


# The member answers last spliced, keyed by what they are made of: the cached feed's bytes (the very object the
# cache holds: one version of one range) and the member's rows as the query just read them. Splicing is a function of
# those alone, so a kept answer is exactly the one splicing would write again: nothing to invalidate, the query still
# runs at every request. It spares a member reloading or paging back to a range whose data did not change the copy
# of the whole feed (a month: 165 KB in a fresh allocation, its pages faulted in at each request: ~0.1 ms of CPU).
SPLICED_KEPT_BYTES = 8 * 1024 * 1024  # per process, the feeds they point to counted too
_spliced: "OrderedDict[tuple, tuple[bytes, dict, bytes]]" = OrderedDict()
_spliced_size = 0
_spliced_lock = threading.Lock()


def _splice_kept(body: bytes, offsets: dict[int, int], rows: list) -> bytes:
    global _spliced_size
    if not rows:
        return body
    key = (id(body), tuple(rows))  # the entry holds `body`: its id names no other object while it is kept
    with _spliced_lock:
        kept = _spliced.get(key)
        if kept is not None and kept[0] is body and kept[1] is offsets:
            _spliced.move_to_end(key)
            return kept[2]
    spliced = splice_member_rows(body, offsets, rows)
    size = len(body) + len(spliced)
    if size <= SPLICED_KEPT_BYTES // 4:
        with _spliced_lock:
            old = _spliced.pop(key, None)
            if old is not None:
                _spliced_size -= len(old[0]) + len(old[2])
            _spliced[key] = (body, offsets, spliced)
            _spliced_size += size
            while _spliced_size > SPLICED_KEPT_BYTES:
                _key, (old_body, _offsets, old_spliced) = _spliced.popitem(last=False)
                _spliced_size -= len(old_body) + len(old_spliced)
    return spliced


def member_feed_encoded(*, user, start: datetime, end: datetime, now: datetime) -> bytes:
    """A member's feed: the cached public bytes with their live reservations on its sessions (one query)."""
    body, offsets, ids = public_feed_for_members(start=start, end=end, now=now)
    rows = member_reservation_rows(user_id=user.pk, session_ids_text=ids, now=now)
    return _splice_kept(body, offsets, rows)


def member_feed_json(*, body: bytes, offsets: dict[int, int], mine: dict[int, dict]) -> bytes:
    """`body` with `"my_reservation": {...}` in place of null for each of the member's sessions."""
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
