"""The demo catalogue says what each course is (a 'Tous niveaux' course must not show as 'Débutant')."""

import pytest

from courses.management.commands.seed_demo import seed_catalogue
from courses.models import Course, CourseSession, Level

pytestmark = pytest.mark.django_db


def test_the_all_levels_course_and_its_sessions_say_tous_niveaux():
    seed_catalogue()
    course = Course.objects.get(title="Pole Dance Tous niveaux")
    assert course.level == Level.ALL_LEVELS == "Tous niveaux"
    assert course.get_level_display() == "Tous niveaux"
    levels = set(CourseSession.objects.filter(course=course).values_list("level", flat=True))
    assert levels <= {"Tous niveaux", ""}
