"""The dashboard's "Vue d'ensemble" in Chromium: on a laptop and on a 390 px phone, axe with no serious
violation, the period switched, a chart's data shown as a table, a figure leading to its filtered list, and the
chart library's chunk loaded by this section only."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from .studio import build_studio

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
CHARTS = re.compile(r"/static/dist/charts\.[0-9a-f]+\.js$")


def _serious_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def _page(browser, live_server, user, width: int, height: int):
    """A page logged in as `user` at that size; the CSP is bypassed for axe (the test's own script) only."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    context = browser.new_context(
        bypass_csp=True, locale="fr-FR", timezone_id="Europe/Paris", viewport={"width": width, "height": height}
    )
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}])
    page = context.new_page()
    loaded = []
    page.on("request", lambda request: loaded.append(request.url))
    return context, page, loaded


@pytest.fixture
def studio(db):
    return build_studio(sessions=60, members=15, reservations=120, now=timezone.now())


def _nothing_wider_than(page, width: int) -> None:
    """The page never scrolls sideways and no card of the overview sticks out (the heat map scrolls inside its own)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.ov-block, .ov-chart, .ov-figure')]"
        ".map((e) => e.getBoundingClientRect().right))"
    )
    assert widest <= width


def _chart_library_loaded(page) -> None:
    """The chart library comes when a chart nears the screen (an observer's callback, a moment after it shows)."""
    page.wait_for_function(
        "performance.getEntriesByType('resource').some((e) => /\\/dist\\/charts\\.[0-9a-f]+\\.js$/.test(e.name))"
    )


def _overview(page):
    main = page.locator(".dash-main")
    expect(main.get_by_role("heading", level=2)).to_have_text("Vue d'ensemble")
    expect(main.get_by_role("heading", name="Argent")).to_be_visible()
    return main


def _loaded_period(main, days: str) -> None:
    expect(main.get_by_role("status").filter(has_text=re.compile(r"^Du "))).to_contain_text(days)
    expect(main.locator("section.ov")).to_have_attribute("aria-busy", "false")


def test_the_overview_on_a_laptop(browser, live_server, staff, studio):
    context, page, loaded = _page(browser, live_server, staff, 1366, 900)
    page.goto(live_server.url + "/admin/dashboard")
    main = _overview(page)
    expect(main.get_by_text(re.compile(r"^Du \d+ \S+ \d{4} au "))).to_be_visible()
    money = main.locator("figure", has_text="Encaissé et remboursé par semaine")
    expect(money.locator("canvas")).to_be_visible()
    _chart_library_loaded(page)  # the chart is on a laptop's screen
    assert any(CHARTS.search(url) for url in loaded), "the chart library is loaded with the overview"

    money.get_by_role("button", name="Voir les données").click()
    table = money.get_by_role("table", name="Encaissé et remboursé par semaine")
    expect(table).to_be_visible()
    expect(table.get_by_role("rowheader").first).to_have_text(re.compile(r"^sem\. du \d+ "))
    expect(table.locator("td").first).to_have_text(re.compile(r"^\d[\d\u202f ]*,\d\d\u00a0€$"))
    expect(money.locator("canvas")).to_have_count(0)

    main.get_by_label("Période", exact=True).select_option("season")
    expect(page).to_have_url(re.compile(r"/admin/dashboard\?period=season$"))
    # The season starts on 1 September; the data view stays chosen, the other charts are drawn.
    expect(main.get_by_text(re.compile(r"^Du 1 septembre \d{4} au "))).to_be_visible()
    money = main.locator("figure", has_text=re.compile("Encaissé et remboursé par (semaine|mois)"))
    expect(money.get_by_role("table")).to_be_visible()
    expect(main.locator("figure", has_text="Remplissage par cours").locator("canvas")).to_be_visible()
    expect(main.get_by_role("heading", name="Les 7 prochains jours")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert _serious_violations(page) == []
    context.close()


def test_the_overview_on_a_phone(browser, live_server, supervisor, studio):
    context, page, _loaded = _page(browser, live_server, supervisor, 390, 844)
    # A whole year: the heat map has every hour of the timetable (9 h to 20 h), wider than the phone.
    year = f"from={timezone.localdate() - timedelta(days=364)}&to={timezone.localdate()}"
    page.goto(f"{live_server.url}/admin/overview?period=custom&{year}")
    main = _overview(page)
    expect(main.locator(".ov-heat .ov-heat-hour")).to_have_count(12)
    page.wait_for_load_state("networkidle")
    _nothing_wider_than(page, 390)
    assert _serious_violations(page) == []  # the heat map scrolls inside its card, reachable by keyboard
    main.get_by_label("Période", exact=True).select_option("30days")
    expect(page).to_have_url(re.compile(r"\?period=30days$"))
    # The 30 days' figures have come (the year's stay on screen while they load, and their arrival moves the
    # charts: a click in between can land beside the button).
    _loaded_period(main, "(30 jours)")
    courses = main.locator("figure", has_text="Remplissage par cours")
    expect(courses.locator("canvas")).to_be_visible()
    courses.get_by_role("button", name="Voir les données").click()
    expect(courses.get_by_role("table", name="Remplissage par cours")).to_be_visible()
    expect(courses.get_by_role("button", name="Voir le graphique")).to_have_attribute("aria-expanded", "true")
    heat = main.locator("figure", has_text="Remplissage par jour et par heure")
    heat.get_by_role("button", name="Voir les données").click()
    expect(heat.get_by_role("rowheader").first).to_have_text(
        re.compile(r"^(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+ h$")
    )
    page.wait_for_load_state("networkidle")
    _nothing_wider_than(page, 390)
    assert _serious_violations(page) == []

    # A figure leads to the list behind it, filtered: the unpaid subscription periods.
    main.get_by_role("link", name=re.compile(r"^Échéances impayées : .* Voir les abonnements impayés$")).click()
    expect(page).to_have_url(re.compile(r"/admin/subscriptions\?filter=unpaid$"))
    expect(main.get_by_role("heading", level=2)).to_have_text("Abonnements")
    expect(main.get_by_label("Filtre")).to_have_value("unpaid")
    expect(main.get_by_text("Impayé", exact=True).first).to_be_visible()
    page.go_back()
    _overview(page)
    context.close()


def test_other_sections_do_not_load_the_chart_library(browser, live_server, staff, studio):
    context, page, loaded = _page(browser, live_server, staff, 1366, 900)
    for path in ("/admin/users", "/admin/sessions", "/admin/subscriptions"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    assert not any(CHARTS.search(url) for url in loaded)
    page.get_by_role("navigation", name="Rubriques du tableau de bord").get_by_role(
        "link", name="Vue d'ensemble"
    ).click()
    _overview(page)
    expect(page.locator("canvas").first).to_be_visible()
    _chart_library_loaded(page)
    assert any(CHARTS.search(url) for url in loaded)
    context.close()
