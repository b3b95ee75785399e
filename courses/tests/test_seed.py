"""The demo catalogue says what each course is (a 'Tous niveaux' course must not show as 'Débutant')."""

import pytest

from courses import seed
from courses.management.commands.seed_demo import seed_catalogue
from courses.models import Course, CourseSession, Instructor, Level
from courses.models_pay import InstructorPayRule, PayRuleKind

pytestmark = pytest.mark.django_db


def test_the_all_levels_course_and_its_sessions_say_tous_niveaux():
    seed_catalogue()
    course = Course.objects.get(title="Pole Dance Tous niveaux")
    assert course.level == Level.ALL_LEVELS == "Tous niveaux"
    assert course.get_level_display() == "Tous niveaux"
    levels = set(CourseSession.objects.filter(course=course).values_list("level", flat=True))
    assert levels <= {"Tous niveaux", ""}


def test_each_demo_instructor_gets_one_pay_rule_once(monkeypatch):
    seed_catalogue()
    monkeypatch.setattr(seed, "COURSES", [])  # the pictures are another test's; only the pay rules here
    seed.run()
    seed.run()
    instructors = Instructor.objects.count()
    assert instructors and InstructorPayRule.objects.count() == instructors
    rule = InstructorPayRule.objects.first()
    assert rule.kind == PayRuleKind.BASE_PLUS_ATTENDEE and str(rule.class_amount) == "25.00"
