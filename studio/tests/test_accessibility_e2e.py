"""axe-core in Chromium on every page, logged out and logged in: no serious or critical violation."""

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
