"""The demo studio closes for Christmas (docs/decisions.md 51): the seed adds the closure (24 December to 1 January)
and plans no demo class inside it, seeding again changes nothing, and a database seeded before the closure existed
loses its unbooked demo classes on those days while a booked one stays for staff to cancel with its refunds."""

from datetime import date, datetime, time, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from freezegun import freeze_time

from bookings.tests.factories import ReservationFactory
from courses.management.commands.seed_demo import christmas_closure_days, seed_catalogue
from courses.models import ClosurePeriod, Course, CourseSession
from courses.seed_data import CHRISTMAS_CLOSURE_LABEL, COURSES, WEEKLY_SLOTS
from courses.tests.factories import CourseFactory

pytestmark = pytest.mark.django_db


def _inside(closure):
    start, end = closure.bounds
    return CourseSession.objects.filter(start__gte=start, start__lt=end)


def test_the_christmas_closure_is_the_one_the_schedule_meets_first():
    assert christmas_closure_days(date(2026, 11, 16)) == (date(2026, 12, 24), date(2027, 1, 1))
    assert christmas_closure_days(date(2026, 12, 28)) == (date(2026, 12, 24), date(2027, 1, 1))
    assert christmas_closure_days(date(2027, 1, 1)) == (date(2026, 12, 24), date(2027, 1, 1))
    assert christmas_closure_days(date(2027, 1, 2)) == (date(2027, 12, 24), date(2028, 1, 1))


def test_the_seed_closes_for_christmas_and_plans_no_class_inside():
    seed_catalogue(today=date(2026, 12, 7))
    closure = ClosurePeriod.objects.get()
    assert (closure.label, closure.starts_on, closure.ends_on) == (
        "Vacances de Noël",
        date(2026, 12, 24),
        date(2027, 1, 1),
    )
    assert CHRISTMAS_CLOSURE_LABEL == "Vacances de Noël"
    assert not _inside(closure).exists()
    paris_days = {timezone.localtime(s.start).date() for s in CourseSession.objects.all()}
    assert date(2026, 12, 22) in paris_days and date(2027, 1, 4) in paris_days  # the weeks around it keep theirs
    assert not paris_days & {date(2026, 12, 25), date(2027, 1, 1)}


def test_seeding_again_adds_nothing():
    seed_catalogue(today=date(2026, 12, 7))
    sessions = CourseSession.objects.count()
    seed_catalogue(today=date(2026, 12, 7))
    seed_catalogue(today=date(2026, 12, 14))  # a week later: one more week planned, still none inside
    assert ClosurePeriod.objects.count() == 1
    assert CourseSession.objects.count() > sessions
    assert not _inside(ClosurePeriod.objects.get()).exists()


def test_a_closure_staff_changed_is_kept_as_they_left_it():
    seed_catalogue(today=date(2026, 12, 7))
    ClosurePeriod.objects.update(label="Fêtes de fin d'année", ends_on=date(2027, 1, 3))
    seed_catalogue(today=date(2026, 12, 7))
    closure = ClosurePeriod.objects.get()
    assert closure.label == "Fêtes de fin d'année" and closure.ends_on == date(2027, 1, 3)
    assert not _inside(closure).exists()


def _christmas_week_as_an_older_seed_planned_it(monday: date) -> list:
    """The demo timetable's classes from Thursday 24 December on, as the seed planned them before closures existed."""
    tz = timezone.get_current_timezone()
    titles = {data["key"]: data["title"] for data in COURSES}
    sessions = []
    for weekday, hhmm, key in WEEKLY_SLOTS:
        if weekday < 3:
            continue
        course = Course.objects.get(title=titles[key])
        start = timezone.make_aware(datetime.combine(monday + timedelta(days=weekday), time.fromisoformat(hhmm)), tz)
        sessions.append(CourseSession.objects.create(course=course, start=start, end=start + timedelta(hours=1)))
    return sessions


def test_over_a_database_seeded_before_the_closure_only_unbooked_demo_classes_go():
    seed_catalogue(today=date(2026, 12, 7))
    ClosurePeriod.objects.all().delete()
    older = _christmas_week_as_an_older_seed_planned_it(date(2026, 12, 21))
    assert older
    tz = timezone.get_current_timezone()
    booked = ReservationFactory(session=next(s for s in older if timezone.localtime(s.start).day == 24)).session
    staff_class = CourseSession.objects.create(
        course=CourseFactory(),
        start=timezone.make_aware(datetime(2026, 12, 27, 10, 0), tz),
        end=timezone.make_aware(datetime(2026, 12, 27, 11, 0), tz),
    )

    seed_catalogue(today=date(2026, 12, 7))

    closure = ClosurePeriod.objects.get()
    assert set(_inside(closure)) == {booked, staff_class}
    assert any(timezone.localtime(s.start).date() == date(2026, 12, 22) for s in CourseSession.objects.all())


@freeze_time("2026-12-07 09:00:00")
def test_the_whole_demo_seed_twice_stays_clean(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    counts = (ClosurePeriod.objects.count(), CourseSession.objects.count())
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert (ClosurePeriod.objects.count(), CourseSession.objects.count()) == counts == (1, counts[1])
    assert not _inside(ClosurePeriod.objects.get()).exists()
