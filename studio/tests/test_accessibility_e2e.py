"""axe-core in Chromium on every page, logged out and logged in: no serious or critical violation."""

import re
from pathlib import Path

import pytest

from courses.tests.factories import CourseFactory
from studio.public_pages import PUBLIC_PAGES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PUBLIC = [*PUBLIC_PAGES, "/page-inexistante"]
MEMBER = ["/", "/user/profile", "/my-courses", "/user/messages", "/courses/calendar", "/evjf-evg", "/tarifs"]
STAFF = ["/admin/dashboard", "/admin/sessions", "/admin/tarifs", "/admin/contact-messages"]


def serious_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture
def axe_page(browser, live_server):
    # The page's CSP forbids injected scripts: axe is the test's own code, so the context bypasses it.
    context = browser.new_context(bypass_csp=True, locale="fr-FR", timezone_id="Europe/Paris")
    yield context
    context.close()


def _open(context, live_server, path, user=None):
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    if user is not None:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}]
        )
    page = context.new_page()
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    return page


def test_public_pages_have_no_serious_violations(axe_page, live_server):
    course = CourseFactory()
    problems = {}
    for path in [*PUBLIC, f"/courses/{course.pk}"]:
        page = _open(axe_page, live_server, path)
        found = serious_violations(page)
        if found:
            problems[path] = found
        page.close()
    assert problems == {}


def test_member_pages_have_no_serious_violations(axe_page, live_server, member):
    problems = {}
    for path in MEMBER:
        page = _open(axe_page, live_server, path, user=member)
        found = serious_violations(page)
        if found:
            problems[path] = found
        page.close()
    assert problems == {}


def test_staff_pages_have_no_serious_violations(axe_page, live_server, staff):
    problems = {}
    for path in STAFF:
        page = _open(axe_page, live_server, path, user=staff)
        found = serious_violations(page)
        if found:
            problems[path] = found
        page.close()
    assert problems == {}


def _open_modal_violations(page) -> list[str]:
    page.locator("dialog[open]").first.wait_for(state="visible")
    return serious_violations(page)


def test_open_modals_have_no_serious_violations(axe_page, live_server, member, staff):
    from datetime import timedelta

    from django.utils import timezone

    from bookings.tests.test_e2e import show_event
    from courses.tests.factories import CourseSessionFactory, TariffFactory
    from media_library import services as media_services
    from media_library.tests import files

    session = CourseSessionFactory(start=timezone.now() + timedelta(days=2))
    tariff = TariffFactory(title="Carte 10 cours", type="forfait", pass_credits=10, pass_validity_months=6)
    media_services.media_create(title="Gala", file=files.jpeg(size=(800, 600)))
    problems = {}

    page = _open(axe_page, live_server, "/gallery")
    page.locator(".gallery-open").first.click()
    problems["gallery modal"] = _open_modal_violations(page)
    page.close()

    page = _open(axe_page, live_server, "/room-rental")
    page.get_by_role("link", name="Réserver la salle").click()
    problems["room-rental modal"] = _open_modal_violations(page)
    page.close()

    page = _open(axe_page, live_server, "/tarifs", user=member)
    page.locator(f"#tarif-{tariff.pk}").get_by_role("button", name="Commander").click()
    problems["tariff order modal"] = _open_modal_violations(page)
    page.close()

    page = _open(axe_page, live_server, "/courses/calendar", user=member)
    show_event(page, session).click()
    problems["reservation popup"] = _open_modal_violations(page)
    page.close()

    axe_page.clear_cookies()
    page = _open(axe_page, live_server, "/admin/sessions", user=staff)
    page.locator(".dash-main").get_by_role("button", name=re.compile("^Ajouter")).first.click()
    problems["dashboard form modal"] = _open_modal_violations(page)
    page.close()

    assert {name: found for name, found in problems.items() if found} == {}


def test_forms_in_error_and_the_phone_calendar_have_no_serious_violations(browser, live_server, member, staff):
    """The pages with a form showing its errors, and the calendar's phone (list) view."""
    from datetime import timedelta

    from django.utils import timezone

    from courses.tests.factories import CourseSessionFactory

    CourseSessionFactory(start=timezone.now() + timedelta(days=1))
    problems = {}
    phone = browser.new_context(
        bypass_csp=True, locale="fr-FR", timezone_id="Europe/Paris", viewport={"width": 390, "height": 844}
    )

    page = _open(phone, live_server, "/register")
    page.get_by_role("button", name="Créer mon compte").click()
    page.locator("[data-form-error]").wait_for(state="visible")
    problems["register in error"] = serious_violations(page)
    page.close()

    page = _open(phone, live_server, "/login")
    page.get_by_role("button", name="Se connecter").click()
    page.locator("[data-form-error]").wait_for(state="visible")
    problems["login in error"] = serious_violations(page)
    page.close()

    page = _open(phone, live_server, "/courses/calendar", user=member)
    page.locator(".session-event").first.wait_for(state="visible")
    problems["calendar phone list view"] = serious_violations(page)
    page.close()
    phone.close()

    laptop = browser.new_context(
        bypass_csp=True, locale="fr-FR", timezone_id="Europe/Paris", viewport={"width": 1366, "height": 900}
    )
    page = _open(laptop, live_server, "/admin/sessions", user=staff)
    page.locator(".dash-main").get_by_role("button", name=re.compile("^Ajouter")).first.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_role("button", name="Enregistrer").click()
    dialog.locator("[aria-invalid='true']").first.wait_for()
    problems["dashboard form in error"] = serious_violations(page)
    page.close()
    laptop.close()

    assert {name: found for name, found in problems.items() if found} == {}
