"""The calendar's planning image is drawn from the timetable in the database (what /weekly shows), not demo data."""

from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone
from PIL import Image

from bookings.planning_image import render_planning, weekly_slots
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = pytest.mark.django_db


def test_the_planning_image_draws_the_weeks_sessions(tmp_path):
    today = timezone.localdate()
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1)
    wednesday = timezone.make_aware(datetime.combine(monday + timedelta(days=2), time(19, 0)))
    CourseSessionFactory(
        course=CourseFactory(title="Cerceau aérien"),
        start=wednesday,
        end=wednesday + timedelta(minutes=90),
        instructor="Inès Moreau",
    )
    assert weekly_slots() == [(2, "19:00", "Cerceau aérien", 90, "Inès Moreau")]
    path = render_planning(tmp_path / "planning.jpg", "Studio test")
    assert Image.open(path).size == (1800, 1100)


def test_the_planning_image_takes_given_slots_without_a_database_read(tmp_path, django_assert_num_queries):
    with django_assert_num_queries(0):
        path = render_planning(tmp_path / "planning.jpg", slots=[(0, "18:30", "Pole Dance Débutant", 75, "Inès")])
    assert path.exists()
