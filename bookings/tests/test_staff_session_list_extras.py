"""The staff session list's extras: each row's waiting list and series, `?focus=` answering the page that
holds a session just saved, and a session's waiting list as staff read it (position, member,
participants, automatic booking, offer and its expiry)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.apis.session_list_extras import MSG_FOCUS_INVALID
from bookings.models_operations import WaitlistEntry
from bookings.services import waitlist as wl
from bookings.services.cancellation import reservation_cancel
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.models import SessionSeries
from courses.tests.factories import CourseFactory, CourseSessionFactory

LIST = "/api/course-sessions"
WAITLIST = "/api/course-sessions/{}/waitlist"

pytestmark = pytest.mark.django_db


def _full_session(places=1, **kwargs):
    session = CourseSessionFactory(max_attendees=places, **kwargs)
    booked = [ReservationFactory(session=session) for _ in range(places)]
    return session, booked


def test_each_row_says_its_waiting_list_and_series_in_a_fixed_number_of_queries(
    api_client, staff, django_assert_max_num_queries
):
    full, _ = _full_session()
    for _ in range(3):
        wl.waitlist_join(user=UserFactory(), session_id=full.pk)
    other, _ = _full_session()
    wl.waitlist_join(user=UserFactory(), session_id=other.pk)
    series = SessionSeries.objects.create(
        course=full.course,
        weekdays=[0],
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate() + timedelta(days=70),
    )
    full.series = series
    full.save(update_fields=["series"])
    for days in range(5, 12):
        CourseSessionFactory(start=timezone.now() + timedelta(days=days))
    api_client.force_authenticate(staff)

    with django_assert_max_num_queries(8):
        response = api_client.get(LIST, {"view": "staff", "when": "upcoming", "page_size": 20})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["page"] == 1
    rows = {r["id"]: r for r in body["results"]}
    assert rows[full.pk]["waitlist_count"] == 3 and rows[full.pk]["series_id"] == series.pk
    assert rows[other.pk]["waitlist_count"] == 1 and rows[other.pk]["series_id"] is None
    assert sum(r["waitlist_count"] for r in body["results"]) == 4


def test_focus_answers_the_page_holding_the_session_under_the_filters_and_order(api_client, staff):
    now = timezone.now()
    flow = CourseFactory(title="Pole Flow")
    sessions = [CourseSessionFactory(course=flow, start=now + timedelta(days=1 + i)) for i in range(25)]
    CourseSessionFactory(start=now + timedelta(hours=12))  # another course: filtered out
    CourseSessionFactory(start=now - timedelta(days=2), course=flow)  # past: not under "upcoming"
    api_client.force_authenticate(staff)
    query = {"view": "staff", "when": "upcoming", "course_id": flow.pk, "page_size": 10}

    answer = api_client.get(LIST, {**query, "focus": sessions[12].pk}).json()
    assert answer["page"] == 2 and sessions[12].pk in [r["id"] for r in answer["results"]]
    assert answer["count"] == 25
    last = api_client.get(LIST, {**query, "focus": sessions[24].pk, "page": 1}).json()
    assert last["page"] == 3 and [r["id"] for r in last["results"]] == [s.pk for s in sessions[20:]]
    newest_first = api_client.get(LIST, {**query, "ordering": "-date", "focus": sessions[24].pk}).json()
    assert newest_first["page"] == 1 and newest_first["results"][0]["id"] == sessions[24].pk
    # Not in the filtered list: the page asked.
    outside = CourseSessionFactory(start=now + timedelta(days=3))
    asked = api_client.get(LIST, {**query, "focus": outside.pk, "page": 2}).json()
    assert asked["page"] == 2 and outside.pk not in [r["id"] for r in asked["results"]]
    # Refused in French, nothing listed.
    bad = api_client.get(LIST, {**query, "focus": "abc"})
    assert bad.status_code == 400 and MSG_FOCUS_INVALID in str(bad.json())
    assert MSG_FOCUS_INVALID == "La session à montrer doit être un identifiant de session (nombre entier positif)."


def test_staff_read_the_waiting_list_with_participants_auto_booking_and_the_offer(
    api_client, staff, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session, booked = _full_session(places=2)
    first, second, third = (UserFactory(first_name=n, last_name="Petit") for n in ("Emma", "Zoé", "Léa"))
    wl.waitlist_join(user=first, session_id=session.pk)
    card = PassFactory(member=second, credits_total=10)
    duo = wl.waitlist_join(user=second, session_id=session.pk, auto_book=True, pass_id=card.pk)
    WaitlistEntry.objects.filter(pk=duo.pk).update(participants=2)
    wl.waitlist_join(user=third, session_id=session.pk)
    with django_capture_on_commit_callbacks(execute=True):  # one seat: Emma is offered it
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    api_client.force_authenticate(staff)

    with django_assert_max_num_queries(5):
        response = api_client.get(WAITLIST.format(session.pk))
    assert response.status_code == 200, response.json()
    rows = response.json()["results"]
    assert [r["first_name"] for r in rows] == ["Emma", "Zoé", "Léa"]
    emma, zoe, lea = rows
    assert emma["status"] == "offered" and emma["status_label"] == "Place proposée" and emma["position"] is None
    assert emma["offer_expires_at"] is not None and emma["participants"] == 1
    assert zoe["position"] == 1 and zoe["auto_book"] is True and zoe["participants"] == 2
    assert zoe["status_label"] == "En liste d'attente"
    assert lea["position"] == 2 and lea["auto_book"] is False and lea["email"] == third.email


def test_members_cannot_read_a_waiting_list(api_client, member):
    session, _ = _full_session()
    api_client.force_authenticate(member)
    assert api_client.get(WAITLIST.format(session.pk)).status_code == 403
