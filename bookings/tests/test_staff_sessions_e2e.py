"""The staff session list in a browser: a session's waiting list read on a 390 px phone, and the
list keeping its page, sort and filters through a reload and the back button, then showing a session just saved on
its own page, highlighted."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bookings.services import waitlist as wl
from bookings.services.cancellation import reservation_cancel
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_staff_read_a_waiting_list_on_a_phone(page, live_server, login_as, staff):
    page.set_viewport_size({"width": 390, "height": 844})
    start = timezone.now() + timedelta(days=3)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=2)
    booked = [ReservationFactory(session=session) for _ in range(2)]
    emma = UserFactory(first_name="Emma", last_name="Petit")
    zoe = UserFactory(first_name="Zoé", last_name="Martin", email="zoe.martin.tres.longue.adresse@example.fr")
    lea = UserFactory(first_name="Léa", last_name="Durand")
    wl.waitlist_join(user=emma, session_id=session.pk)
    card = PassFactory(member=zoe, credits_total=10)
    wl.waitlist_join(user=zoe, session_id=session.pk, auto_book=True, pass_id=card.pk)
    wl.waitlist_join(user=lea, session_id=session.pk)
    reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)  # the seat goes to Emma
    login_as(staff)

    page.goto(live_server.url + "/admin/sessions")
    page.locator(".dash-table tbody tr").first.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menuitem", name=re.compile(r"^Liste d'attente \(3\)")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("heading")).to_contain_text("Liste d'attente : Pole Flow")
    entries = dialog.get_by_role("listitem")
    expect(entries).to_have_count(3)
    expect(entries.nth(0)).to_contain_text("Place proposée, valable jusqu'au ")
    expect(entries.nth(0)).to_contain_text("Emma Petit")
    expect(entries.nth(1)).to_contain_text("1re place dans la file")
    expect(entries.nth(1)).to_contain_text("Zoé Martin")
    expect(entries.nth(1)).to_contain_text("Réservation automatique avec sa carte ou son abonnement")
    expect(entries.nth(2)).to_contain_text("2e place dans la file")
    expect(entries.nth(2)).to_contain_text("Pas de réservation automatique : un lien de paiement lui est envoyé")
    expect(entries.nth(2)).to_contain_text("1 participant(s)")
    # Nothing runs past the phone's width, the long e-mail included; Escape closes and gives the focus back.
    for i in range(3):
        box = entries.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="test-artifacts/waitlist-staff-390.png", full_page=False)
    page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)
    # Back on its item in the row's "Actions" menu.
    expect(page.get_by_role("menuitem", name=re.compile(r"^Liste d'attente \(3\)"))).to_be_focused()


def test_the_list_keeps_its_place_and_shows_the_session_just_saved(page, live_server, login_as, staff):
    now = timezone.localtime(timezone.now())
    first_day = (now + timedelta(days=1)).replace(hour=18, minute=30, second=0, microsecond=0)
    flow = CourseFactory(title="Pole Flow")
    sessions = [CourseSessionFactory(course=flow, start=first_day + timedelta(days=i)) for i in range(25)]
    CourseSessionFactory(course=flow, start=now - timedelta(days=3))  # past: not on the default list
    login_as(staff)

    # Opens on upcoming sessions, the soonest first.
    page.goto(live_server.url + "/admin/sessions")
    expect(page).to_have_url(re.compile(r"/admin/sessions\?when=upcoming$"))
    expect(page.get_by_label("Période", exact=True)).to_have_value("upcoming")
    rows = page.locator(".dash-table tbody tr")
    expect(rows).to_have_count(10)
    expect(rows.first).to_contain_text(f"{timezone.localtime(sessions[0].start):%d/%m/%Y}")

    # Page 2, then a reload: still page 2.
    page.get_by_role("button", name="Page 2").click()
    expect(page).to_have_url(re.compile(r"\?when=upcoming&page=2$"))
    expect(rows.first).to_contain_text(f"{timezone.localtime(sessions[10].start):%d/%m/%Y}")
    page.reload()
    expect(page.get_by_role("button", name="Page 2")).to_have_attribute("aria-current", "page")
    expect(rows.first).to_contain_text(f"{timezone.localtime(sessions[10].start):%d/%m/%Y}")

    # Another section, then the back button: the same page again.
    page.get_by_role("link", name="Utilisateurs").click()
    expect(page).to_have_url(re.compile(r"/admin/users$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"/admin/sessions\?when=upcoming&page=2$"))
    expect(page.get_by_role("button", name="Page 2")).to_have_attribute("aria-current", "page")

    # Newest first, kept in the address.
    page.get_by_role("button", name=re.compile(r"^Date")).click()
    expect(page).to_have_url(re.compile(r"\?when=upcoming&ordering=-date$"))
    expect(rows.first).to_contain_text(f"{timezone.localtime(sessions[24].start):%d/%m/%Y}")
    page.get_by_role("button", name=re.compile(r"^Date")).click()
    expect(page).to_have_url(re.compile(r"\?when=upcoming$"))

    # Move the first session after all the others: the list goes to its page (3) and highlights it.
    moved = sessions[0]
    page.get_by_role("button", name="Page 1").click()
    page.locator(".dash-table tbody tr").first.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menuitem", name=re.compile(r"^Modifier")).click()
    dialog = page.locator("dialog[open]")
    new_start = first_day + timedelta(days=30)
    dialog.get_by_label("Date et heure").fill(f"{new_start:%Y-%m-%dT%H:%M}")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status").filter(has_text="Session modifiée avec succès !")).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?when=upcoming&page=3$"))
    saved = page.locator("tr.dash-row-saved")
    expect(saved).to_have_count(1)
    expect(saved).to_contain_text(f"{new_start:%d/%m/%Y}")
    expect(saved).to_contain_text("Enregistrée")
    expect(saved).to_be_in_viewport()
    page.screenshot(path="test-artifacts/sessions-saved-highlighted.png", full_page=False)
    assert CourseSession.objects.get(pk=moved.pk).start == new_start


def test_the_session_list_does_not_move_under_the_eyes_while_it_loads_on_a_phone(page, live_server, login_as, staff):
    """Nothing already on screen moves when the sessions arrive (Lighthouse's layout shift): the actions stay above
    the list, which only grows downwards."""
    now = timezone.localtime(timezone.now())
    for day in range(12):
        CourseSessionFactory(course=CourseFactory(title=f"Cours {day}"), start=now + timedelta(days=day + 1))
    page.set_viewport_size({"width": 390, "height": 844})
    login_as(staff)
    page.add_init_script(
        """window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts.push(entry.value);
        }).observe({ type: "layout-shift", buffered: true });"""
    )
    page.goto(live_server.url + "/admin/sessions")
    expect(page.locator(".dash-table tbody tr")).to_have_count(10)
    expect(page.get_by_role("button", name="Créer une série hebdomadaire")).to_be_visible()
    page.wait_for_timeout(300)
    assert sum(page.evaluate("window.__shifts")) < 0.01
