"""The dashboard page (/admin/dashboard): staff only, one island, the viewer's role in its props."""

import json
import re

import pytest

from studio.dashboard import PAGE_TITLE

SECTIONS = [
    "overview",  # the owner's figures, the first section
    "users",
    "courses",
    "testimonials",
    "instructors",
    "team",  # pay rules, statements and substitutes
    "contact-messages",
    "sessions",
    "slider",
    "tarifs",
    "media",
    "slideshow",
    "orders",
    "reservations",
    "rentals",
    "parties",
    "passes",
]


def _props(response):
    match = re.search(rb'<script id="island-dashboard-props" type="application/json">(.*?)</script>', response.content)
    assert match, "the island's props are rendered with json_script"
    return json.loads(match.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/admin/dashboard", *[f"/admin/{s}" for s in SECTIONS]])
def test_visitor_is_sent_to_login_and_member_home(client, member, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/login?next=")
    client.force_login(member)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/admin/dashboard", *[f"/admin/{s}" for s in SECTIONS]])
def test_staff_get_the_island_on_every_section(client, supervisor, path):
    client.force_login(supervisor)
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<title>{PAGE_TITLE} |" in html
    assert 'data-island="dashboard"' in html
    assert "css/dashboard.css" in html
    assert "<script>" not in html  # no inline script (CSP): props travel as JSON


@pytest.mark.django_db
def test_props_carry_the_role_and_the_django_admin_link_for_admins_only(client, staff, supervisor):
    client.force_login(supervisor)
    props = _props(client.get("/admin/users"))
    assert props["user"] == {"id": supervisor.pk, "role": "supervisor", "name": "Paul Durand"}
    assert props["djangoAdminUrl"] == ""
    client.force_login(staff)
    props = _props(client.get("/admin/users"))
    assert props["user"]["role"] == "admin"
    assert props["djangoAdminUrl"] == "/django-admin/"


@pytest.mark.django_db
def test_django_admin_stays_available_to_admins(client, staff, supervisor):
    client.force_login(staff)
    assert client.get("/django-admin/").status_code == 200
    client.force_login(supervisor)
    assert client.get("/django-admin/").status_code == 302


def _script_sources(html: str) -> list[str]:
    return re.findall(r'<script[^>]* src="([^"]+)"', html)


@pytest.mark.django_db
@pytest.mark.parametrize("section", ["overview", "sessions", "passes"])
def test_the_page_names_the_code_of_the_section_it_opens_on_beside_the_dashboards_own(
    client, supervisor, settings, tmp_path, section
):
    """The section's files download with the dashboard's scripts and run before them, so webpack has them."""
    chunks = tmp_path / "async-chunks.json"
    chunks.write_text(
        json.dumps({f"section-{section}": ["42.abc.js", f"section-{section}.def.js", f"section-{section}.def.css"]})
    )
    settings.WEBPACK_ASYNC_CHUNKS_FILE = chunks
    settings.WEBPACK_LOADER = {"DEFAULT": {**settings.WEBPACK_LOADER["DEFAULT"], "CACHE": False}}
    client.force_login(supervisor)
    path = "/admin/dashboard" if section == "overview" else f"/admin/{section}"
    html = client.get(path).content.decode()
    sources = _script_sources(html)
    mine = [s for s in sources if s.endswith(("42.abc.js", f"section-{section}.def.js"))]
    assert len(mine) == 2
    dashboard = next(i for i, s in enumerate(sources) if "/dashboard." in s)
    assert all(sources.index(s) < dashboard for s in mine)
    assert re.search(rf'<link rel="stylesheet" href="[^"]*section-{section}\.def\.css">', html)


@pytest.mark.django_db
def test_without_a_build_the_page_still_has_the_island_and_no_early_chunks(client, supervisor, settings, tmp_path):
    settings.WEBPACK_ASYNC_CHUNKS_FILE = tmp_path / "missing.json"
    settings.WEBPACK_LOADER = {"DEFAULT": {**settings.WEBPACK_LOADER["DEFAULT"], "CACHE": False}}
    client.force_login(supervisor)
    html = client.get("/admin/sessions").content.decode()
    assert 'data-island="dashboard"' in html
    assert not [s for s in _script_sources(html) if "section-" in s]


def test_the_sidebar_is_the_islands_own_list():
    """The page serves the sidebar before the island runs: the same sections, in the same order, as the island."""
    from pathlib import Path

    from django.conf import settings as django_settings

    from studio.dashboard import SECTIONS as SERVED

    source = (Path(django_settings.BASE_DIR) / "frontend/src/islands/dashboard/sections.js").read_text()
    assert tuple(re.findall(r'\{ key: "([a-z-]+)", label: "([^"]+)"', source)) == SERVED


def _first_frame(response):
    html = response.content.decode()
    start = html.index('data-island="dashboard"')
    return html[start : html.index("</script>", start)]


@pytest.mark.django_db
def test_the_overview_is_seen_with_its_period_before_the_scripts_run(client, supervisor):
    from freezegun import freeze_time

    client.force_login(supervisor)
    with freeze_time("2026-11-28 10:00:00"):
        frame = _first_frame(client.get("/admin/dashboard"))
        week = _first_frame(client.get("/admin/overview?period=week"))
        custom = _first_frame(client.get("/admin/overview?period=custom&from=2024-01-01&to=2026-11-28"))
        backwards = _first_frame(client.get("/admin/overview?period=custom&from=2026-11-28&to=2026-11-01"))
    assert '<a href="/admin/overview" aria-current="page">Vue d&#x27;ensemble</a>' in frame
    assert '<a href="/admin/sessions">Sessions</a>' in frame
    assert '<option value="month" selected>Ce mois</option>' in frame
    assert (
        "Du 1 novembre 2026 au 28 novembre 2026 (28 jours), comparé à la période précédente, "
        "du 4 octobre 2026 au 31 octobre 2026." in frame
    )
    assert "Du 23 novembre 2026 au 28 novembre 2026 (6 jours), comparé à la période précédente, " in week
    assert 'id="ov-from" type="date" value="2024-01-01"' in custom
    assert "(1\u202f063 jours)" in custom
    assert "ov-range" not in backwards  # the island tells no period it would refuse


@pytest.mark.django_db
def test_another_section_is_seen_with_the_sidebar_while_its_code_runs(client, staff, supervisor):
    client.force_login(supervisor)
    frame = _first_frame(client.get("/admin/sessions"))
    assert '<a href="/admin/sessions" aria-current="page">Sessions</a>' in frame
    assert "Chargement…" in frame and "ov-range" not in frame
    assert "Administration Django" not in frame  # for admins only, as in the island
    client.force_login(staff)
    assert "Administration Django" in _first_frame(client.get("/admin/sessions"))


@pytest.mark.django_db
def test_the_sessions_are_seen_with_their_filters_from_the_address(client, supervisor):
    client.force_login(supervisor)
    frame = _first_frame(client.get("/admin/sessions"))
    assert '<option value="upcoming" selected>À venir</option>' in frame
    frame = _first_frame(client.get('/admin/sessions?when=&instructor=Inès&search="><script>alert(1)</script>'))
    assert '<option value="" selected>Toutes</option>' in frame
    assert '<input id="sessions-instructor" value="Inès">' in frame
    assert "<script>alert(1)" not in frame and 'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in frame
