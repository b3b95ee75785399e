"""Attendance marked on a 390 px phone at the studio door (docs/decisions.md 38): the dashboard's sessions list,
'Présences', one member present and one absent, a client added on the spot and paid at the desk ("Ajouter un
client", docs/decisions.md 50); the marks, the no-show and the desk payment are recorded."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bookings.models import DeskPayment
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_attendance_on_a_phone(page, live_server, login_as, staff):
    page.set_viewport_size({"width": 390, "height": 844})
    start = timezone.now() + timedelta(minutes=30)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=5)
    emma = ReservationFactory(session=session, user=UserFactory(first_name="Emma", last_name="Petit"))
    zoe = ReservationFactory(session=session, user=UserFactory(first_name="Zoé", last_name="Martin"))
    walk_in = UserFactory(first_name="Léa", last_name="Durand")
    login_as(staff)

    page.goto(live_server.url + "/admin/sessions")
    page.locator(".dash-table tbody tr").first.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menuitem", name="Présences").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("2 inscrit(s) · 0 présent(s) · 0 absent(s) · 2 à pointer")
    dialog.get_by_role("group", name="Présence de Emma Petit").get_by_role("button", name="Présent").click()
    expect(dialog.get_by_role("status")).to_have_text("Présence enregistrée.")
    dialog.get_by_role("group", name="Présence de Zoé Martin").get_by_role("button", name="Absent").click()
    expect(dialog).to_contain_text("2 inscrit(s) · 1 présent(s) · 1 absent(s) · 0 à pointer")
    expect(dialog).to_contain_text("1 absence(s) au total")
    dialog.get_by_label("Rechercher un client (nom ou e-mail)").fill("Durand")
    dialog.get_by_role("button", name=f"Léa Durand · {walk_in.email}").click()
    dialog.get_by_label("Payé à l'accueil").check()
    dialog.get_by_label("Montant 1 (€)").fill("25")
    dialog.get_by_role("button", name="Inscrire au cours").click()
    when = timezone.localtime(session.start).strftime("%d/%m/%Y %H:%M")
    expect(dialog.get_by_role("status")).to_have_text(
        f"Léa Durand est inscrit(e) au cours « Pole Flow » du {when} (payé à l'accueil)."
    )
    expect(dialog).to_contain_text("Payé à l'accueil")
    dialog.get_by_role("group", name="Présence de Léa Durand").get_by_role("button", name="Présent").click()
    expect(dialog.get_by_role("status")).to_have_text("Présence enregistrée.")
    # Nothing overflows the phone's width: the buttons stay reachable.
    box = dialog.get_by_role("group", name="Présence de Léa Durand").get_by_role("button", name="Absent").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.screenshot(path="test-artifacts/attendance-390.png", full_page=False)

    assert Attendance.objects.get(reservation=emma).status == AttendanceStatus.PRESENT
    assert Attendance.objects.get(reservation=zoe).status == AttendanceStatus.ABSENT
    added = Attendance.objects.get(reservation__user=walk_in)
    assert added.status == AttendanceStatus.PRESENT
    assert added.reservation.desk_payment == DeskPayment.PAID and added.reservation.booked_by == staff
