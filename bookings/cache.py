"""What the cached sessions feed depends on, so that a seat hold refreshes only the feeds that show its session.

The feed of a range [start, end) is cached (bookings/apis/feed.py) under the public version (any change to a course,
a session or another public model) *and* one version per week the range covers: the week of Monday 00:00 to the next
Monday 00:00, UTC (the bump and the feed only need the same buckets; UTC never overflows near year 9999 as a local
time can), keyed `feed:week:<Monday's date>`. A reservation saved or deleted bumps the weeks its
session overlaps (bookings/receivers.py): the feeds of those weeks are rebuilt; the public pages, which show no seat
count, and the feeds of other weeks stay cached. A range covers at most MAX_FEED_DAYS, so a few dozen keys, read
with the entry in one `get_many`.

The feed's code calls:
- `feed_versions(start, end)` for the versions to store a visitor's answer under (read *before* the data);
- `feed_version_keys(start, end)` as the `depends_on` of its `cached_public` entry;
- `mark_feed_answer(request, response, version=..., timeout=...)` (bookings/apis/feed.py, which reads the request's
  range) for the middleware to serve the next visitors.
"""

from datetime import UTC, date, datetime, timedelta

from studio.cache import bump_versions, cache_versions

WEEK_KEY = "feed:week:{monday}"


def _monday(moment: datetime) -> date:
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


def _week_keys(first: datetime, last: datetime) -> list[str]:
    """The keys of every week from the one holding `first` to the one holding `last`, both included."""
    monday, last_monday = _monday(first), _monday(last)
    keys = []
    while monday <= last_monday:
        keys.append(WEEK_KEY.format(monday=monday.isoformat()))
        if monday > date.max - timedelta(weeks=1):
            break
        monday += timedelta(weeks=1)
    return keys


def feed_version_keys(start: datetime, end: datetime) -> list[str]:
    """The week versions a feed of [start, end) depends on."""
    return _week_keys(start, max(start, end - timedelta(microseconds=1)))


def session_version_keys(session) -> list[str]:
    """The week versions of every feed that shows `session` (it overlaps [start, end))."""
    return _week_keys(session.start, max(session.start, session.end - timedelta(microseconds=1)))


def feed_versions(start: datetime, end: datetime) -> tuple[int, ...]:
    return cache_versions(feed_version_keys(start, end))


def bump_session_feeds(session) -> None:
    """The seats of `session` changed: rebuild the feeds that show it, nothing else."""
    bump_versions(*session_version_keys(session))
