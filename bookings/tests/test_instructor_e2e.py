"""Instructors are people, on a 390 px phone: staff create a session choosing its instructor from the list,
the calendar shows the instructor's name; the instructor logs in, sees only their own classes and marks attendance."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Role
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory
from bookings.tests.test_e2e import show_event
from courses.models import CourseSession
from courses.services.sessions import MSG_SESSION_ADDED
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def test_staff_choose_the_instructor_and_the_instructor_marks_their_own_class(page, live_server, login_as, supervisor):
    page.set_viewport_size({"width": 390, "height": 844})
    course = CourseFactory(title="Pole Flow")
    lea_account = UserFactory(first_name="Léa", last_name="Garnier", email="lea@example.fr", role=Role.INSTRUCTOR)
    lea = InstructorFactory(name="Léa Garnier", user=lea_account)
    ines = InstructorFactory(name="Inès Moreau", user=UserFactory(role=Role.INSTRUCTOR))
    InstructorFactory(name="Ancienne Prof", active=False)
    others_class = CourseSessionFactory(
        course=CourseFactory(title="Cerceau du soir"), instructor=ines, start=timezone.now() + timedelta(hours=1)
    )

    # Staff create a class starting within the hour, choosing its instructor in the list.
    login_as(supervisor)
    page.goto(live_server.url + "/admin/sessions")
    page.get_by_role("button", name="Ajouter une session").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Cours").select_option(label="Pole Flow")
    start = (timezone.localtime(timezone.now(), PARIS) + timedelta(minutes=40)).replace(second=0, microsecond=0)
    dialog.get_by_label("Date et heure").fill(start.strftime("%Y-%m-%dT%H:%M"))
    instructor = dialog.get_by_label("Professeur")
    expect(instructor.locator("option")).to_have_text(["— Choisir —", "Inès Moreau", "Léa Garnier"])  # no inactive
    instructor.select_option(label="Léa Garnier")
    page.screenshot(path="test-artifacts/instructor-session-form-390.png", full_page=True)
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SESSION_ADDED)).to_be_visible()
    created = CourseSession.objects.get(course=course)
    assert created.instructor == lea

    # The calendar shows the instructor's name on the class.
    page.goto(live_server.url + "/courses/calendar")
    expect(show_event(page, created)).to_contain_text("Léa Garnier")

    # A member has booked it; the instructor logs in on their phone.
    emma = ReservationFactory(session=created, user=UserFactory(first_name="Emma", last_name="Petit"))
    page.context.clear_cookies()
    page.goto(live_server.url + "/login")
    page.get_by_label("Email").fill(lea_account.email)
    page.get_by_label("Mot de passe", exact=True).fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(re.compile(r"^(?!.*/login).*$"))
    page.goto(live_server.url + "/instructor/classes")
    classes = page.locator(".instructor-classes")
    expect(classes).to_contain_text("Pole Flow")
    expect(page.get_by_text("Cerceau du soir")).to_have_count(0)  # Inès's class is not hers
    page.screenshot(path="test-artifacts/instructor-classes-390.png", full_page=True)

    page.get_by_role("link", name=re.compile("Pole Flow")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Présences : Pole Flow")
    expect(page.locator(".attendance-counts")).to_contain_text("1 inscrit(s) · 0 présent(s)")
    buttons = page.get_by_role("group", name="Présence de Emma Petit")
    buttons.get_by_role("button", name="Présent").click()
    expect(page.get_by_role("status").filter(has_text="Présence enregistrée.")).to_be_visible()
    box = buttons.get_by_role("button", name="Absent").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # usable at the door on a phone
    page.screenshot(path="test-artifacts/instructor-attendance-390.png", full_page=False)
    assert Attendance.objects.get(reservation=emma).status == AttendanceStatus.PRESENT

    # Another instructor's class is out of reach, on the page as in the API.
    assert page.goto(f"{live_server.url}/instructor/classes/{others_class.pk}").status == 404
    answer = page.request.get(f"{live_server.url}/api/course-sessions/{others_class.pk}/attendance")
    assert answer.status == 404
