"""The site as an app on a phone (docs/decisions.md 53): once a member has opened the planning and "Mes cours", the
service worker shows both with the network cut, read-only and with the time they were last fresh; logging out
removes them, so the next person on that phone sees nothing of hers. A page not kept shows the offline page."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory
from studio.pwa import MSG_OFFLINE_PAGE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_OFFLINE = "Hors connexion : affichage en lecture seule."
MSG_OFFLINE_READ_ONLY = "Hors connexion : le planning est en lecture seule. Réservez dès que le réseau revient."
PERSONAL_CACHE = "studio-personal-v1"


@pytest.fixture(autouse=True)
def _no_cookie_banner(context):
    context.add_init_script("localStorage.setItem('cookieConsent', 'declined')")


def wait_for_worker(page):
    """Until the service worker controls the page (it claims open pages when it activates)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def personal_cache_exists(page):
    return page.evaluate("(name) => caches.has(name)", PERSONAL_CACHE)


def test_the_planning_and_my_courses_open_offline_with_their_freshness_and_go_at_logout(
    page, context, live_server, login_as, member
):
    page.set_viewport_size({"width": 390, "height": 844})
    start = (timezone.localtime() + timedelta(days=1)).replace(hour=18, minute=30, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Cerceau aérien"), start=start)
    ReservationFactory(session=session, user=member)
    login_as(member)

    # Online once: the worker installs, then the two pages and their data are read through it.
    page.goto(live_server.url + "/courses/calendar")
    wait_for_worker(page)
    page.reload()
    expect(page.locator(f'.session-event[data-session-id="{session.pk}"]')).to_contain_text("Réservé")
    page.goto(live_server.url + "/my-courses")
    expect(page.get_by_text("Cerceau aérien").first).to_be_visible()
    expect(page.locator("#offline-banner")).to_have_count(0)

    context.set_offline(True)
    page.goto(live_server.url + "/courses/calendar")
    banner = page.get_by_role("status").filter(has_text=MSG_OFFLINE)
    expect(banner).to_contain_text(re.compile(r"Mis à jour le \w+ \d{1,2} \w+ \d{4} à \d{2}:\d{2}\."))
    event = page.locator(f'.session-event[data-session-id="{session.pk}"]')
    expect(event).to_contain_text("Cerceau aérien")
    expect(event).to_contain_text("Réservé")
    event.click()
    expect(page.get_by_text(MSG_OFFLINE_READ_ONLY)).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    page.goto(live_server.url + "/my-courses")
    expect(page.get_by_role("status").filter(has_text=MSG_OFFLINE)).to_contain_text("Mis à jour le")
    expect(page.get_by_text("Cerceau aérien").first).to_be_visible()
    expect(page.get_by_role("button", name="Annuler")).to_be_hidden()
    page.screenshot(path="test-artifacts/pwa-offline-my-courses-390.png")

    # Back online, she logs out: her bookings are no longer on the phone.
    context.set_offline(False)
    page.goto(live_server.url + "/my-courses")
    page.locator("[data-menu-toggle]").click()
    page.get_by_role("button", name=re.compile("^Bonjour")).click()
    page.get_by_role("menuitem", name="Se déconnecter").click()
    page.wait_for_url(live_server.url + "/")
    assert personal_cache_exists(page) is False

    # Offline again, the phone shows the offline page in their place: nothing of hers.
    context.set_offline(True)
    for path in ("/my-courses", "/courses/calendar"):
        page.goto(live_server.url + path)
        expect(page.get_by_role("heading", level=1)).to_have_text("Vous êtes hors connexion")
        expect(page.get_by_text("Cerceau aérien")).to_have_count(0)


def test_a_page_not_kept_opens_offline_as_the_offline_page_leading_to_the_planning(
    page, context, live_server, login_as, member
):
    """The installed app opens on the home page: without a network it is the offline page, whose planning link
    opens the kept planning."""
    page.set_viewport_size({"width": 390, "height": 844})
    start = (timezone.localtime() + timedelta(days=1)).replace(hour=18, minute=30, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Cerceau aérien"), start=start)
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    wait_for_worker(page)
    page.reload()
    expect(page.locator(f'.session-event[data-session-id="{session.pk}"]')).to_be_visible()

    context.set_offline(True)
    page.goto(live_server.url + "/?source=app")
    expect(page.get_by_role("heading", level=1)).to_have_text("Vous êtes hors connexion")
    expect(page.get_by_text(MSG_OFFLINE_PAGE)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="test-artifacts/pwa-offline-page-390.png")
    page.get_by_role("link", name="Voir le planning").click()
    expect(page.locator(f'.session-event[data-session-id="{session.pk}"]')).to_contain_text("Cerceau aérien")
    expect(page.get_by_role("status").filter(has_text=MSG_OFFLINE)).to_contain_text("Mis à jour le")


def test_chromium_finds_the_site_installable(browser_type, browser_type_launch_args, live_server, tmp_path):
    """What Lighthouse's installability audit asked, from Chromium itself (`Page.getInstallabilityErrors`): a manifest
    with the icons, a start URL in scope, standalone display and a service worker controlling the page. A profile on
    disk, as a phone's browser has: Chromium installs nothing from a private window."""
    context = browser_type.launch_persistent_context(tmp_path / "profile", **browser_type_launch_args)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        wait_for_worker(page)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == live_server.url + "/manifest.webmanifest"
        assert manifest["errors"] == []
        parsed = manifest["manifest"]
        assert parsed["display"] == "kStandalone" and parsed["startUrl"] == live_server.url + "/?source=app"
        assert [icon["url"].rsplit("/", 1)[-1] for icon in parsed["icons"]] == [
            "icon-192.png",
            "icon-512.png",
            "icon-maskable-512.png",
        ]
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    finally:
        context.close()
