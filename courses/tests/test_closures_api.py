"""The studio's closures kept from the dashboard (docs/decisions.md 51): staff list, add, change and delete them with
French refusals; the public calendar reads those of its range; a weekly series made after one skips its days."""

from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from courses.models import ClosurePeriod, CourseSession, SessionStatus
from courses.services.closures import (
    MSG_CLOSURE_DATE_INVALID,
    MSG_CLOSURE_ENDS_BEFORE_START,
    MSG_CLOSURE_LABEL_REQUIRED,
    MSG_CLOSURE_NOT_FOUND,
    MSG_CLOSURE_RANGE_INVALID,
)
from courses.tests.factories import CourseFactory, CourseSessionFactory, instructor_named

pytestmark = pytest.mark.django_db

CLOSURES = "/api/closures"
CHRISTMAS = {"label": "Vacances de Noël", "starts_on": "2026-12-24", "ends_on": "2027-01-01"}


def _at(day: date, hour: int):
    return timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))


@freeze_time("2026-12-24 17:30:00")  # 18:30 in Paris: the 10:00 class of the first day is over
def test_staff_add_a_closure_and_read_the_confirmation(api_client, staff):
    inside = CourseSessionFactory(start=_at(date(2026, 12, 24), 18))
    CourseSessionFactory(start=_at(date(2027, 1, 1), 23))  # its last day, late: still inside
    CourseSessionFactory(start=_at(date(2027, 1, 2), 0))  # the day after: outside
    CourseSessionFactory(start=_at(date(2026, 12, 28), 18), status=SessionStatus.CANCELLED)
    CourseSessionFactory(start=_at(date(2026, 12, 24), 10))  # over: nothing left to cancel
    api_client.force_authenticate(staff)
    response = api_client.post(CLOSURES, CHRISTMAS, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["message"] == "Fermeture « Vacances de Noël » enregistrée du 24/12/2026 au 01/01/2027."
    assert body["sessions_planned"] == 2
    assert ClosurePeriod.objects.get(pk=body["id"]).ends_on == date(2027, 1, 1)
    listed = api_client.get(CLOSURES).json()
    assert listed == [{**{k: v for k, v in body.items() if k != "message"}}]
    assert inside.status == SessionStatus.SCHEDULED


def test_staff_change_and_delete_a_closure(api_client, staff):
    closure = ClosurePeriod.objects.create(label="Été", starts_on=date(2026, 8, 1), ends_on=date(2026, 8, 15))
    api_client.force_authenticate(staff)
    changed = api_client.put(f"{CLOSURES}/{closure.pk}", {"ends_on": "2026-08-22"}, format="json")
    assert changed.status_code == 200
    assert changed.json()["message"] == "Fermeture « Été » modifiée : du 01/08/2026 au 22/08/2026."
    closure.refresh_from_db()
    assert closure.ends_on == date(2026, 8, 22) and closure.label == "Été"
    assert api_client.delete(f"{CLOSURES}/{closure.pk}").status_code == 204
    assert not ClosurePeriod.objects.exists()
    missing = api_client.put(f"{CLOSURES}/{closure.pk}", {"label": "x"}, format="json")
    assert missing.status_code == 404 and missing.json()["error"] == MSG_CLOSURE_NOT_FOUND
    assert api_client.delete(f"{CLOSURES}/{closure.pk}").status_code == 404


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"ends_on": "2026-12-23"}, "ends_on", MSG_CLOSURE_ENDS_BEFORE_START),
        ({"label": "   "}, "label", MSG_CLOSURE_LABEL_REQUIRED),
        ({"label": "x" * 121}, "label", MSG_CLOSURE_LABEL_REQUIRED),
        ({"starts_on": "24/12/2026"}, "starts_on", MSG_CLOSURE_DATE_INVALID),
        ({"ends_on": "2026-02-30"}, "ends_on", MSG_CLOSURE_DATE_INVALID),
        ({"starts_on": None}, "starts_on", MSG_CLOSURE_DATE_INVALID),
    ],
)
def test_a_wrong_closure_is_refused_in_french(api_client, staff, changes, field, message):
    api_client.force_authenticate(staff)
    response = api_client.post(CLOSURES, {**CHRISTMAS, **changes}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]
    assert not ClosurePeriod.objects.exists()


def test_a_change_that_ends_before_the_start_is_refused_and_nothing_changes(api_client, staff):
    closure = ClosurePeriod.objects.create(label="Été", starts_on=date(2026, 8, 1), ends_on=date(2026, 8, 15))
    api_client.force_authenticate(staff)
    response = api_client.put(f"{CLOSURES}/{closure.pk}", {"starts_on": "2026-08-16"}, format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_CLOSURE_ENDS_BEFORE_START
    closure.refresh_from_db()
    assert closure.starts_on == date(2026, 8, 1)


def test_only_staff_keep_closures(api_client, member):
    closure = ClosurePeriod.objects.create(label="Été", starts_on=date(2026, 8, 1), ends_on=date(2026, 8, 15))
    assert api_client.get(CLOSURES).status_code in (401, 403)
    api_client.force_authenticate(member)
    assert api_client.get(CLOSURES).status_code == 403
    assert api_client.post(CLOSURES, CHRISTMAS, format="json").status_code == 403
    assert api_client.put(f"{CLOSURES}/{closure.pk}", {"label": "x"}, format="json").status_code == 403
    assert api_client.delete(f"{CLOSURES}/{closure.pk}").status_code == 403


@freeze_time("2026-06-01 09:00:00")
def test_the_list_costs_a_fixed_number_of_queries(api_client, staff, django_assert_max_num_queries):
    for week in range(5):
        start = date(2026, 7, 1) + timedelta(weeks=week)
        ClosurePeriod.objects.create(label=f"Semaine {week}", starts_on=start, ends_on=start + timedelta(days=2))
        CourseSessionFactory(start=_at(start, 18))
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(4):
        rows = api_client.get(CLOSURES).json()
    assert [row["sessions_planned"] for row in rows] == [1] * 5


def test_the_calendar_reads_the_closures_of_its_range(api_client):
    ClosurePeriod.objects.create(label="Vacances de Noël", starts_on=date(2026, 12, 24), ends_on=date(2027, 1, 1))
    ClosurePeriod.objects.create(label="Été", starts_on=date(2026, 8, 1), ends_on=date(2026, 8, 15))
    december = api_client.get(
        "/api/closures/calendar", {"start": "2026-11-30T00:00:00+01:00", "end": "2027-01-11T00:00:00+01:00"}
    )
    assert december.status_code == 200
    assert december.json() == [
        {
            "id": december.json()[0]["id"],
            "label": "Vacances de Noël",
            "starts_on": "2026-12-24",
            "ends_on": "2027-01-01",
        }
    ]
    # FullCalendar's end is exclusive: a range ending the morning of the first closed day shows none.
    before = api_client.get("/api/closures/calendar", {"start": "2026-12-17", "end": "2026-12-24"})
    assert before.json() == []


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"start": "2026-12-01"},
        {"start": "demain", "end": "2026-12-31"},
        {"start": "2026-12-31", "end": "2026-12-01"},
        {"start": "2026-01-01", "end": "2028-01-01"},
        {"start": "2026-02-30", "end": "2026-03-02"},
    ],
)
def test_a_wrong_calendar_range_is_refused_in_french(api_client, params):
    response = api_client.get("/api/closures/calendar", params)
    assert response.status_code == 400 and response.json()["error"] == MSG_CLOSURE_RANGE_INVALID


@freeze_time("2026-11-02 09:00:00")
def test_a_series_made_after_a_closure_added_through_the_api_skips_its_days(api_client, staff):
    course = CourseFactory()
    api_client.force_authenticate(staff)
    assert api_client.post(CLOSURES, CHRISTMAS, format="json").status_code == 201
    series = api_client.post(
        "/api/course-sessions/series",
        {
            "course_id": course.pk,
            "weekdays": [3, 4],  # Thursdays and Fridays: 24, 25 December and 1 January fall on them
            "time": "18:30",
            "duration": 75,
            "instructor_id": instructor_named("Camille Laurent").pk,
            "max_attendees": 8,
            "price_per_participant": "22.00",
            "starts_on": "2026-12-17",
            "ends_on": "2027-01-08",
        },
        format="json",
    )
    assert series.status_code == 201, series.json()
    reasons = {s["date"]: s["reason"] for s in series.json()["skipped"]}
    assert reasons["2026-12-24"] == "Fermeture : Vacances de Noël"
    assert reasons["2026-12-31"] == "Fermeture : Vacances de Noël"
    assert reasons["2027-01-01"] == "Jour férié : Jour de l'an"  # a holiday is said first
    days = sorted(timezone.localtime(s.start).date() for s in CourseSession.objects.filter(course=course))
    assert days == [date(2026, 12, 17), date(2026, 12, 18), date(2027, 1, 7), date(2027, 1, 8)]


def test_the_messages_read_as_the_studio_writes_them():
    assert (
        MSG_CLOSURE_ENDS_BEFORE_START == "Le dernier jour de la fermeture doit être le premier jour ou un jour après."
    )
    assert MSG_CLOSURE_LABEL_REQUIRED == "Indiquez l'intitulé de la fermeture (120 caractères au plus)."
    assert MSG_CLOSURE_DATE_INVALID == "Indiquez une date valide (AAAA-MM-JJ)."
    assert MSG_CLOSURE_NOT_FOUND == "Fermeture introuvable."
    assert MSG_CLOSURE_RANGE_INVALID == (
        "Indiquez une période valide : du AAAA-MM-JJ au AAAA-MM-JJ, sur 400 jours au plus."
    )
