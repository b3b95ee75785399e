"""Weekly series (docs/decisions.md 35): preview, French public holidays and closure periods skipped, creation."""

from datetime import date
from zoneinfo import ZoneInfo

from freezegun import freeze_time

from bookings.tests.factories import ReservationFactory
from courses.holidays import french_public_holidays
from courses.models import ClosurePeriod, CourseSession
from courses.tests.factories import CourseFactory, instructor_named

PARIS = ZoneInfo("Europe/Paris")

SERIES = "/api/course-sessions/series"


def payload(course, **changes):
    data = {
        "course_id": course.pk,
        "weekdays": [0],  # Mondays
        "time": "18:30",
        "duration": 75,
        "instructor_id": instructor_named("Camille Laurent").pk,
        "max_attendees": 8,
        "price_per_participant": "22.00",
        "starts_on": "2026-03-30",
        "ends_on": "2026-06-01",
    }
    data.update(changes)
    return data


def test_french_public_holidays():
    days = french_public_holidays(2026)
    assert days[date(2026, 4, 6)] == "Lundi de Pâques"
    assert days[date(2026, 5, 14)] == "Ascension"
    assert days[date(2026, 5, 25)] == "Lundi de Pentecôte"
    assert days[date(2026, 7, 14)] == "Fête nationale" and len(days) == 11


@freeze_time("2026-03-01 09:00:00")
def test_preview_lists_the_dates_and_the_skipped_holidays_without_creating(api_client, staff):
    course = CourseFactory(title="Pole Débutant")
    api_client.force_authenticate(staff)
    response = api_client.post(SERIES, payload(course, preview=True), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    # 10 Mondays from 30/03 to 01/06; Easter Monday (06/04) and Whit Monday (25/05) are holidays.
    assert body["count"] == 8 and body["preview"] is True and body["series_id"] is None
    assert body["message"] == "8 séance(s) à créer, 2 date(s) sautée(s)."
    assert body["skipped"] == [
        {"date": "2026-04-06", "label": "lundi 06/04/2026", "reason": "Jour férié : Lundi de Pâques"},
        {"date": "2026-05-25", "label": "lundi 25/05/2026", "reason": "Jour férié : Lundi de Pentecôte"},
    ]
    assert body["dates"][0] == {"date": "2026-03-30T18:30:00+02:00", "label": "lundi 30/03/2026 18:30"}
    assert CourseSession.objects.count() == 0


@freeze_time("2026-03-01 09:00:00")
def test_creating_a_series_skips_closures_and_remembers_the_series(api_client, staff):
    course = CourseFactory()
    ClosurePeriod.objects.create(label="Vacances de printemps", starts_on=date(2026, 4, 13), ends_on=date(2026, 4, 19))
    api_client.force_authenticate(staff)
    response = api_client.post(SERIES, payload(course, weekdays=[0, 3]), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    reasons = {s["date"]: s["reason"] for s in body["skipped"]}
    assert reasons["2026-04-13"] == "Fermeture : Vacances de printemps"
    assert reasons["2026-04-16"] == "Fermeture : Vacances de printemps"
    assert reasons["2026-05-14"] == "Jour férié : Ascension"
    sessions = CourseSession.objects.filter(series_id=body["series_id"]).order_by("start")
    assert sessions.count() == body["count"] == 14
    first = sessions.first()
    assert first.max_attendees == 8 and str(first.price_per_participant) == "22.00"
    assert (first.end - first.start).total_seconds() == 75 * 60
    assert body["message"] == f"14 séance(s) créée(s), {len(body['skipped'])} date(s) sautée(s)."


@freeze_time("2026-03-01 09:00:00")
def test_series_refusals_are_in_french(api_client, staff, member):
    course = CourseFactory()
    api_client.force_authenticate(staff)
    backwards = api_client.post(SERIES, payload(course, ends_on="2026-03-01"), format="json")
    assert backwards.status_code == 409
    assert backwards.json()["error"] == "La date de fin doit être le jour de début ou après, sur un an au plus."
    no_day = api_client.post(SERIES, payload(course, weekdays=[]), format="json")
    assert no_day.status_code == 400
    assert "Choisissez au moins un jour de la semaine (0 = lundi … 6 = dimanche)." in str(no_day.json())
    only_holiday = api_client.post(SERIES, payload(course, starts_on="2026-05-25", ends_on="2026-05-25"), format="json")
    assert only_holiday.status_code == 409
    assert only_holiday.json()["error"] == (
        "Aucune séance à créer : toutes les dates sont passées, fériées ou pendant une fermeture du studio."
    )
    api_client.force_authenticate(member)
    assert api_client.post(SERIES, payload(course, preview=True), format="json").status_code == 403


@freeze_time("2026-03-01 09:00:00")
def test_a_ten_week_series_with_one_holiday(api_client, staff):
    """The issue's example: ten Thursdays from 02/04 to 04/06 2026, Ascension (14/05) skipped."""
    course = CourseFactory()
    api_client.force_authenticate(staff)
    body = api_client.post(
        SERIES, payload(course, weekdays=[3], starts_on="2026-04-02", ends_on="2026-06-04"), format="json"
    ).json()
    assert body["count"] == 9 and [s["reason"] for s in body["skipped"]] == ["Jour férié : Ascension"]


@freeze_time("2026-03-01 09:00:00")
def test_this_and_the_following_sessions_of_a_series(api_client, staff):
    course = CourseFactory()
    api_client.force_authenticate(staff)
    series_id = api_client.post(SERIES, payload(course), format="json").json()["series_id"]
    sessions = list(CourseSession.objects.filter(series_id=series_id).order_by("start"))
    third = sessions[2]
    body = {
        "instructor_id": instructor_named("Inès Robert").pk,
        "max_attendees": 12,
        "time": "19:00",
        "price_per_participant": "20.00",
    }
    response = api_client.put(f"/api/course-sessions/{third.pk}/following", body, format="json")
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "count": 6,
        "message": "6 séance(s) modifiée(s) : celle-ci et les suivantes de la série.",
    }
    sessions = list(CourseSession.objects.filter(series_id=series_id).order_by("start"))
    assert [s.instructor.name for s in sessions] == ["Camille Laurent"] * 2 + ["Inès Robert"] * 6
    moved = sessions[2]
    assert moved.start.astimezone(PARIS).strftime("%H:%M") == "19:00" and moved.max_attendees == 12
    assert (moved.end - moved.start).total_seconds() == 75 * 60
    # All or none: places below the seats taken on one session refuse the whole change.
    ReservationFactory(session=sessions[7], participants=5)
    refused = api_client.put(f"/api/course-sessions/{third.pk}/following", {**body, "max_attendees": 3}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"] == "Impossible de descendre sous 5 place(s) : elles sont déjà réservées."
    assert CourseSession.objects.get(pk=third.pk).max_attendees == 12
    single = CourseFactory()
    alone = CourseSession.objects.create(
        course=single, start=moved.start, end=moved.end, instructor=instructor_named("X")
    )
    lonely = api_client.put(f"/api/course-sessions/{alone.pk}/following", body, format="json")
    assert lonely.status_code == 409
    assert lonely.json()["error"] == "Cette session ne fait pas partie d'une série : modifiez-la seule."
