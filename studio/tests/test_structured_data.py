"""What link previews and search engines read: Open Graph on every public page (an image that exists, with its
size) and the studio as a schema.org DanceSchool (JSON-LD: address, phone, opening hours from the settings)."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from PIL import Image

from courses.tests.factories import CourseFactory
from studio.tests.test_public_pages import PAGES

pytestmark = pytest.mark.django_db

BASE = "http://testserver"


def meta(html: str, prop: str) -> str:
    match = re.search(rf'<meta property="{re.escape(prop)}" content="([^"]*)"', html)
    return match.group(1) if match else ""


def json_ld(html: str) -> list[dict]:
    """Every JSON-LD block of the page, parsed; a block may hold one item or a list."""
    items = []
    for block in re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S):
        data = json.loads(block)
        items.extend(data if isinstance(data, list) else [data])
    return items


def of_type(html: str, kind: str) -> list[dict]:
    return [item for item in json_ld(html) if item.get("@type") == kind]


def test_every_public_page_has_a_preview_image_that_exists_with_its_size(client):
    course = CourseFactory()
    for path in [*PAGES, f"/courses/{course.pk}", "/login", "/register"]:
        html = client.get(path).text
        assert meta(html, "og:type") == "website", path
        assert meta(html, "og:url") == BASE + path, path
        assert meta(html, "og:title") and meta(html, "og:description"), path
        image = meta(html, "og:image")
        assert image.startswith(BASE + "/static/"), path
        assert meta(html, "og:image:alt"), path
        assert re.search(r'<meta name="twitter:card" content="summary_large_image">', html), path
    found = finders.find(image.removeprefix(BASE + "/static/"))
    assert found, image
    with Image.open(found) as picture:
        assert picture.format == "JPEG"
        assert (meta(html, "og:image:width"), meta(html, "og:image:height")) == tuple(map(str, picture.size))
    assert meta(html, "og:image:type") == "image/jpeg"


def test_the_studio_is_a_dance_school_with_its_address_phone_and_hours(client, settings):
    settings.STUDIO = {
        **settings.STUDIO,
        "name": "Studio Pole Danse Lyon",
        "phone": "04 78 00 00 00",
        "address": "12 rue de la République",
        "postal_code": "69002",
        "city": "Lyon",
        "opening_hours": ["Mo-Fr 14:00-22:00", "Sa 10:00-13:00"],
    }
    for path in ("/", "/contact", "/tarifs"):
        (school,) = of_type(client.get(path).text, "DanceSchool")
        assert school["@context"] == "https://schema.org"
        assert school["name"] == "Studio Pole Danse Lyon"
        assert school["url"] == BASE + "/"
        assert school["telephone"] == "+33 4 78 00 00 00"
        assert school["email"] == settings.STUDIO["email"]
        assert school["address"] == {
            "@type": "PostalAddress",
            "streetAddress": "12 rue de la République",
            "postalCode": "69002",
            "addressLocality": "Lyon",
            "addressCountry": "FR",
        }
        assert school["geo"] == {
            "@type": "GeoCoordinates",
            "latitude": settings.STUDIO["latitude"],
            "longitude": settings.STUDIO["longitude"],
        }
        assert school["openingHours"] == ["Mo-Fr 14:00-22:00", "Sa 10:00-13:00"]
        assert school["image"].startswith(BASE + "/static/") and school["logo"].startswith(BASE + "/static/")
        assert settings.STUDIO["instagram_url"] in school["sameAs"]


def test_json_ld_cannot_close_its_script_element(client, settings):
    settings.STUDIO = {**settings.STUDIO, "name": "Studio </script><script>alert(1)</script> & co"}
    html = client.get("/contact").text
    assert "</script><script>alert(1)" not in html
    (school,) = of_type(html, "DanceSchool")
    assert school["name"] == "Studio </script><script>alert(1)</script> & co"


def test_the_content_security_policy_lets_json_ld_be_and_runs_no_inline_script(client):
    """JSON-LD is data that browsers never run: a script-src without 'unsafe-inline' does not concern it, and the
    policy keeps refusing inline scripts."""
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    script_src = next(part for part in policy.split(";") if part.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", response.text, re.S)
    inline = [attrs for attrs, body in scripts if body.strip() and "src=" not in attrs]
    assert inline and all(re.search(r'type="application/(ld\+)?json"', attrs) for attrs in inline)


def test_a_page_rendered_without_its_request_still_renders():
    from django.template.loader import render_to_string

    html = render_to_string("404.html", {"page_title": "Page non trouvée"})
    assert "<title>" in html and "application/ld+json" not in html
