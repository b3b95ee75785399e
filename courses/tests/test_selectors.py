from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from freezegun import freeze_time

from courses import selectors
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory

pytestmark = pytest.mark.django_db


def paris(*args):
    return timezone.make_aware(datetime(*args), timezone.get_current_timezone())


@freeze_time("2025-03-12 10:00:00+01:00")
def test_next_session_is_the_earliest_after_now_and_ignores_the_past():
    course = CourseFactory()
    CourseSessionFactory(course=course, start=paris(2025, 3, 11, 18, 30))  # yesterday
    CourseSessionFactory(course=course, start=paris(2025, 3, 12, 9, 0))  # this morning, already started
    later = CourseSessionFactory(course=course, start=paris(2025, 3, 20, 18, 30))
    sooner = CourseSessionFactory(course=course, start=paris(2025, 3, 14, 19, 0))

    [listed] = selectors.course_list_with_next_session()

    assert listed.next_session_start == sooner.start
    assert later.start > listed.next_session_start


@freeze_time("2025-03-12 10:00:00+01:00")
def test_a_course_with_only_past_sessions_has_no_next_session():
    past_only = CourseFactory(title="A")
    CourseSessionFactory(course=past_only, start=paris(2025, 3, 1, 18, 30))
    never = CourseFactory(title="B")

    listed = {c.pk: c for c in selectors.course_list_with_next_session()}

    assert listed[past_only.pk].next_session_start is None
    assert listed[never.pk].next_session_start is None


def test_course_list_with_next_session_is_one_query(django_assert_num_queries):
    for _ in range(3):
        CourseSessionFactory.create_batch(3, course=CourseFactory())
    with django_assert_num_queries(1):
        assert len(selectors.course_list_with_next_session()) == 3


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://www.youtube.com/watch?v=abc123XYZ", "https://www.youtube-nocookie.com/embed/abc123XYZ"),
        ("https://youtu.be/abc123XYZ?t=4", "https://www.youtube-nocookie.com/embed/abc123XYZ"),
        ("https://www.youtube.com/shorts/abc123XYZ", "https://www.youtube-nocookie.com/embed/abc123XYZ"),
        ("https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"),
    ],
)
def test_youtube_and_vimeo_become_embeds(url, expected):
    video = selectors.course_video(video_url=url)
    assert video.kind == "embed"
    assert video.src == expected


def test_other_videos_are_files_and_no_video_means_the_default():
    assert selectors.course_video(video_url="/uploads/media/cours.mp4").kind == "file"
    assert selectors.course_video(video_url="") is None


def test_weekly_timetable_is_monday_to_saturday_from_the_database(django_assert_num_queries):
    # Wednesday 12 March 2025; its week runs from Monday 10 to Saturday 15.
    pole = CourseFactory(title="Pole Dance Débutant")
    hoop = CourseFactory(title="Cerceau aérien")
    CourseSessionFactory(course=pole, start=paris(2025, 3, 10, 18, 30))
    CourseSessionFactory(course=hoop, start=paris(2025, 3, 15, 10, 0))
    CourseSessionFactory(course=pole, start=paris(2025, 3, 16, 10, 0))  # a Sunday: not shown
    CourseSessionFactory(course=hoop, start=paris(2025, 3, 18, 18, 0))  # next week: not this one

    with django_assert_num_queries(1):
        timetable = selectors.weekly_timetable(today=date(2025, 3, 12))

    assert [d.name for d in timetable.days] == ["Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi"]
    assert timetable.monday == date(2025, 3, 10)
    assert [s.course.title for s in timetable.days[0].sessions] == ["Pole Dance Débutant"]
    assert [s.course.title for s in timetable.days[5].sessions] == ["Cerceau aérien"]
    assert all(not d.sessions for d in timetable.days[1:5])


def test_weekly_timetable_shows_the_next_week_on_sunday_and_when_this_week_is_empty():
    course = CourseFactory()
    CourseSessionFactory(course=course, start=paris(2025, 3, 25, 18, 0))  # Tuesday of the week after next
    assert selectors.weekly_timetable(today=date(2025, 3, 16)).monday == date(2025, 3, 24)  # a Sunday
    assert selectors.weekly_timetable(today=date(2025, 3, 12)).monday == date(2025, 3, 24)
    assert selectors.weekly_timetable(today=date(2025, 6, 4)).is_empty


def test_weekly_timetable_reads_only_the_week_it_shows(django_assert_num_queries):
    """The page shows one week: the sessions of the weeks after it (read to find a week with classes) are not loaded
    with their course and instructor, whatever the planning holds."""
    from django.db.models.signals import post_init

    from courses.models import CourseSession

    course = CourseFactory()
    CourseSessionFactory(course=course, start=paris(2025, 3, 16, 10, 0))  # this week's Sunday only: not shown
    for week in range(3):
        for day in (0, 1, 5):  # Monday, Tuesday and Saturday of the weeks after
            CourseSessionFactory(course=course, start=paris(2025, 3, 17, 18, 0) + timedelta(weeks=week, days=day))
    built = []

    def count(sender, instance, **kwargs):
        built.append(instance)

    post_init.connect(count, sender=CourseSession)
    try:
        with django_assert_num_queries(1):
            timetable = selectors.weekly_timetable(today=date(2025, 3, 12))
    finally:
        post_init.disconnect(count, sender=CourseSession)
    assert timetable.monday == date(2025, 3, 17)
    assert [len(day.sessions) for day in timetable.days] == [1, 1, 0, 0, 0, 1]
    assert len(built) == 3


def test_price_list_has_the_eight_offers_and_links_tariffs_by_title():
    tariff = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"))
    offers = selectors.price_list()
    assert [(o.label, o.price) for o in offers] == [
        ("Cours à l'unité", Decimal("25.00")),
        ("Carte 10 cours", Decimal("190.00")),
        ("Abonnement annuel illimité", Decimal("55.00")),
        ("Abonnement annuel étudiant ou demandeur d'emploi", Decimal("44.00")),
        ("Abonnement 6 mois illimité", Decimal("85.00")),
        ("Abonnement 6 mois étudiant", Decimal("65.00")),
        ("Abonnement trimestriel", Decimal("120.00")),
        ("Abonnement trimestriel étudiant", Decimal("100.00")),
    ]
    assert offers[1].tariff_id == tariff.pk
    assert offers[0].tariff_id is None


def test_next_session_window_uses_now():
    course = CourseFactory()
    soon = CourseSessionFactory(course=course, start=timezone.now() + timedelta(minutes=5))
    [listed] = selectors.course_list_with_next_session()
    assert listed.next_session_start == soon.start
