"""The installable site's server side (docs/decisions.md 53): the manifest, the worker at the root, and the account
marker by which the worker keeps one member's data at a time."""

import json
from html import unescape

import pytest

from studio.pwa import ACCOUNT_HEADER, MSG_OFFLINE_KEPT, MSG_OFFLINE_PAGE, account_marker

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_studio_with_its_icons_and_opens_standalone(client, settings):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == settings.STUDIO["name"]
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/") and manifest["scope"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_the_worker_is_served_from_the_root_and_never_kept_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert b"studio-personal-v1" in response.content


def test_pages_for_a_member_carry_an_opaque_account_marker_and_pages_for_visitors_none(client, member, other_member):
    assert ACCOUNT_HEADER not in client.get("/courses/calendar")
    client.force_login(member)
    marker = client.get("/my-courses")[ACCOUNT_HEADER]
    assert marker == account_marker(member) and str(member.pk) != marker
    assert client.get("/api/waitlist/mine")[ACCOUNT_HEADER] == marker
    client.force_login(other_member)
    assert client.get("/my-courses")[ACCOUNT_HEADER] != marker


def test_the_offline_page_stands_alone_for_anyone_and_is_not_indexed(client, member):
    client.force_login(member)
    response = client.get("/offline")
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex"
    html = unescape(response.content.decode())
    assert "<h1>Vous êtes hors connexion</h1>" in html
    assert MSG_OFFLINE_PAGE in html and MSG_OFFLINE_KEPT in html
    assert 'href="/courses/calendar"' in html and 'href="/my-courses"' in html
    # Kept by the worker for whoever uses the phone next: nothing of the account, no script, no stylesheet to fetch.
    assert member.first_name not in html and member.email not in html
    assert "<script" not in html and 'rel="stylesheet"' not in html
