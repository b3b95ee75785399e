"""Weekly series of sessions (docs/decisions.md 35): course, weekday(s), time, duration, instructor, places,
price, from and to dates. The dates are planned first (`series_plan`: what would be created and what is skipped, with
why: a French public holiday, a closure period of the studio, a date already past); staff preview that plan, then
create it in one transaction. The sessions remember their series, so "this and the following" can be edited: which
sessions that is (`series_following`) and where each moves (`series_moved`) are said here, and the change itself is
made where the seats are counted, since places never drop below them (bookings/services/session_places.py)."""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from studio.cache import bump_public_cache
from studio.errors import CONFLICT

from ..holidays import public_holiday_name
from ..models import ClosurePeriod, CourseSession, SessionSeries, SessionStatus
from .sessions import SessionWriteError, session_fields

MAX_SERIES_DAYS = 366
MSG_SERIES_RANGE_INVALID = "La date de fin doit être le jour de début ou après, sur un an au plus."
MSG_SERIES_EMPTY = "Aucune séance à créer : toutes les dates sont passées, fériées ou pendant une fermeture du studio."
MSG_SERIES_CREATED = "{count} séance(s) créée(s), {skipped} date(s) sautée(s)."
MSG_SERIES_PREVIEW = "{count} séance(s) à créer, {skipped} date(s) sautée(s)."
MSG_SERIES_NONE = "Cette session ne fait pas partie d'une série : modifiez-la seule."
MSG_SERIES_FOLLOWING_UPDATED = "{count} séance(s) modifiée(s) : celle-ci et les suivantes de la série."
WEEKDAY_NAMES = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]


class SeriesError(SessionWriteError):
    messages = {
        **SessionWriteError.messages,
        "series_range_invalid": MSG_SERIES_RANGE_INVALID,
        "series_empty": MSG_SERIES_EMPTY,
        "series_none": MSG_SERIES_NONE,
    }
    statuses = {
        **SessionWriteError.statuses,
        "series_range_invalid": CONFLICT,
        "series_empty": CONFLICT,
        "series_none": CONFLICT,
    }


@dataclass
class SeriesPlan:
    starts: list[datetime] = field(default_factory=list)
    skipped: list[tuple[date, str]] = field(default_factory=list)


def day_label(day: date) -> str:
    return f"{WEEKDAY_NAMES[day.weekday()]} {day:%d/%m/%Y}"


def series_plan(*, weekdays: list[int], starts_on: date, ends_on: date, start_time: time, now=None) -> SeriesPlan:
    """The starts a series would create (Paris time) and the days it skips, with the reason in French. 1 query."""
    if ends_on < starts_on or (ends_on - starts_on).days >= MAX_SERIES_DAYS:
        raise SeriesError.of("series_range_invalid", field="ends_on")
    now = now or timezone.now()
    closures = list(ClosurePeriod.objects.filter(starts_on__lte=ends_on, ends_on__gte=starts_on))
    plan, tz = SeriesPlan(), timezone.get_default_timezone()
    wanted = set(weekdays)
    day = starts_on
    while day <= ends_on:
        if day.weekday() in wanted:
            holiday = public_holiday_name(day)
            closure = next((c for c in closures if c.starts_on <= day <= c.ends_on), None)
            start = timezone.make_aware(datetime.combine(day, start_time), tz)
            if holiday:
                plan.skipped.append((day, f"Jour férié : {holiday}"))
            elif closure is not None:
                plan.skipped.append((day, f"Fermeture : {closure.label}"))
            elif start <= now:
                plan.skipped.append((day, "Date passée"))
            else:
                plan.starts.append(start)
        day += timedelta(days=1)
    return plan


@transaction.atomic
def course_session_series_create(
    *,
    course_id: int,
    weekdays: list[int],
    starts_on: date,
    ends_on: date,
    start_time: time,
    duration: int | None,
    instructor_id: int,
    level: str = "",
    max_attendees: int = 10,
    details: str = "",
    price_per_participant: Decimal | None = None,
    preview: bool = False,
) -> tuple[SessionSeries | None, SeriesPlan]:
    """Plan the series and, unless `preview`, create its sessions (checked like one session each)."""
    plan = series_plan(weekdays=weekdays, starts_on=starts_on, ends_on=ends_on, start_time=start_time)
    first = (
        plan.starts[0]
        if plan.starts
        else timezone.make_aware(datetime.combine(starts_on, start_time), timezone.get_default_timezone())
    )
    end = first + timedelta(minutes=duration) if duration else None
    fields = session_fields(
        course_id=course_id,
        start=first,
        instructor_id=instructor_id,
        level=level,
        max_attendees=max_attendees,
        details=details,
        end=end,
        price_per_participant=price_per_participant,
    )
    if not plan.starts:
        raise SeriesError.of("series_empty")
    if preview:
        return None, plan
    length = fields["end"] - fields["start"]
    series = SessionSeries.objects.create(
        course=fields["course"], weekdays=sorted(set(weekdays)), starts_on=starts_on, ends_on=ends_on
    )
    CourseSession.objects.bulk_create(
        CourseSession(**{**fields, "start": start, "end": start + length, "series": series}) for start in plan.starts
    )
    bump_public_cache()
    return series, plan


def series_following(*, session_id: int) -> list[int]:
    """The sessions "this and the following" changes: this one and the later ones of its series, not the cancelled
    ones, by id (the order their locks are taken). 404 for an unknown session, 409 for one outside any series."""
    session = CourseSession.objects.filter(pk=session_id).first()
    if session is None:
        raise SeriesError.of("session_not_found")
    if session.series_id is None:
        raise SeriesError.of("series_none")
    return list(
        CourseSession.objects.filter(series_id=session.series_id, start__gte=session.start)
        .exclude(status=SessionStatus.CANCELLED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def series_moved(session: CourseSession, start_time: time | None) -> tuple[datetime, datetime]:
    """A session's start and end once moved to `start_time` (Paris time) on its own day, same length; unchanged
    without one."""
    start, length = session.start, session.end - session.start
    if start_time is not None:
        day = timezone.localtime(session.start).date()
        start = timezone.make_aware(datetime.combine(day, start_time), timezone.get_default_timezone())
    return start, start + length
