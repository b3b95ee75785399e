"""Public pages: a French title, a description, one h1, Open Graph; legal pages; sitemap and robots."""

import re

import pytest

from courses.tests.factories import CourseFactory
from project.views import SITEMAP_PATHS

pytestmark = pytest.mark.django_db

PAGES = [
    "/",
    "/weekly",
    "/tarifs",
    "/tarifs-page",
    "/blog-facebook",
    "/choisir-nous",
    "/mentions-legales",
    "/politique-confidentialite",
    "/cgv",
    "/accessibilite",
    "/contact",
    "/evjf-evg",
    "/room-rental",
    "/rental-form",
    "/confirmation",
    "/gallery",
    "/courses/calendar",
]


def head_value(html, pattern):
    match = re.search(pattern, html)
    return match.group(1) if match else ""


def test_every_public_page_has_its_title_description_one_h1_and_open_graph(client):
    course = CourseFactory(title="Cerceau aérien", description="Le cerceau suspendu pour découvrir l'aérien.")
    titles = set()
    for path in [*PAGES, f"/courses/{course.pk}"]:
        html = client.get(path).text
        title = head_value(html, r"<title>([^<]+)</title>")
        assert title and title not in titles, path
        titles.add(title)
        assert head_value(html, r'<meta name="description" content="([^"]+)"'), path
        assert head_value(html, r'<meta property="og:title" content="([^"]+)"'), path
        assert head_value(html, r'<meta property="og:description" content="([^"]+)"'), path
        assert len(re.findall(r"<h1[\s>]", html)) == 1, path


@pytest.mark.parametrize("path", ["/mentions-legales", "/politique-confidentialite"])
def test_legal_pages_are_dated_november_2024(client, path):
    assert "Dernière mise à jour : novembre 2024" in client.get(path).text


def test_legal_notice_names_publisher_and_host(client, settings):
    html = client.get("/mentions-legales").text
    for heading in ("Éditeur du site", "Hébergement", "Propriété intellectuelle"):
        assert heading in html
    assert settings.STUDIO["name"] in html and settings.STUDIO["email"] in html


def test_privacy_policy_covers_data_purposes_retention_rights_and_cookies(client):
    html = client.get("/politique-confidentialite").text
    for heading in ("Données collectées et finalités", "Durées de conservation", "Cookies", "Vos droits"):
        assert heading in html
    assert "CNIL" in html


def test_social_page_waits_for_consent_for_every_network(client):
    html = client.get("/blog-facebook").text
    assert "<iframe" not in html
    for host in ("https://www.facebook.com/plugins/page.php", "https://www.instagram.com/", "https://www.tiktok.com/"):
        assert f'data-src="{host}' in html
    assert html.count("Accepter et afficher") == 3


@pytest.mark.parametrize(
    ("old", "new"), [("/privacy-policy", "/politique-confidentialite"), ("/photo-et-video-gallerie", "/gallery")]
)
def test_decisions_3_redirects_are_permanent(client, old, new):
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == new


def test_sitemap_lists_public_pages_and_courses(client):
    course = CourseFactory()
    response = client.get("/sitemap.xml")
    assert response["Content-Type"].startswith("application/xml")
    body = response.text
    for path in SITEMAP_PATHS:
        assert f"<loc>http://testserver{path}</loc>" in body
    assert f"<loc>http://testserver/courses/{course.pk}</loc>" in body
    assert "/admin" not in body


def test_robots_points_to_the_sitemap_and_keeps_private_areas_out(client):
    body = client.get("/robots.txt").text
    assert "Sitemap: http://testserver/sitemap.xml" in body
    assert "Disallow: /admin/" in body and "Disallow: /api/" in body
