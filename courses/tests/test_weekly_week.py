"""/weekly shows the week to come: from Saturday, the last day of the studio's Monday-to-Saturday week, it shows the
next week (as on Sunday), titled with it, not the week that is ending."""

from datetime import date, datetime

import pytest
from django.utils import timezone
from freezegun import freeze_time

from courses import selectors
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = pytest.mark.django_db


def paris(*args):
    return timezone.make_aware(datetime(*args), timezone.get_fixed_timezone(60))


def test_on_saturday_the_timetable_is_next_weeks():
    CourseSessionFactory(start=paris(2026, 11, 27, 19, 0))  # the ending week has classes
    CourseSessionFactory(course=CourseFactory(title="Cabaret"), start=paris(2026, 12, 1, 19, 0))  # next Tuesday
    timetable = selectors.weekly_timetable(today=date(2026, 11, 28))  # a Saturday
    assert (timetable.monday, timetable.saturday) == (date(2026, 11, 30), date(2026, 12, 5))
    assert [s.course.title for s in timetable.days[1].sessions] == ["Cabaret"]


def test_from_monday_to_friday_the_timetable_is_this_weeks():
    CourseSessionFactory(start=paris(2026, 11, 27, 19, 0))
    assert selectors.weekly_timetable(today=date(2026, 11, 27)).monday == date(2026, 11, 23)  # a Friday


@freeze_time("2026-11-28 07:30:00+00:00")  # Saturday morning in Paris
def test_weekly_on_a_saturday_is_titled_with_the_coming_week(client):
    CourseSessionFactory(course=CourseFactory(title="Cabaret"), start=paris(2026, 11, 28, 11, 0))  # this morning
    CourseSessionFactory(course=CourseFactory(title="K-pop ados"), start=paris(2026, 12, 2, 16, 0))
    html = client.get("/weekly").text
    assert "Semaine du 30 novembre au 5 décembre 2026" in html
    assert "K-pop ados" in html
