"""Pages: contact without JavaScript (PRG), member and staff message pages, badge."""

import datetime
import json
import re

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone
from django.utils.html import escape

from messaging import services
from messaging.models import ContactMessage
from messaging.tests.factories import ContactMessageFactory
from messaging.views import (
    MSG_DELETE_FAILED,
    MSG_FETCH_FAILED,
    MSG_NO_SELECTION,
    MSG_REPLY_FAILED,
    osm_embed_url,
)

pytestmark = pytest.mark.django_db


def island_props(html: str, name: str) -> dict:
    match = re.search(rf'<script id="island-{name}-props" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def test_spec_messages_are_the_ones_of_spec_section_8():
    assert services.MSG_CONTACT_SENT == "Message envoyé avec succès."
    assert services.MSG_CONTACT_FAILED == "Erreur lors de l'envoi du message."
    assert MSG_FETCH_FAILED == "Impossible de récupérer les messages."
    assert MSG_NO_SELECTION == "Utilisateur non authentifié ou aucun message sélectionné."
    assert MSG_REPLY_FAILED == "Erreur lors de l’ajout de la réponse."
    assert MSG_DELETE_FAILED == "Erreur lors de la suppression du message."


# --- /contact --------------------------------------------------------------------------------------------


def test_contact_page_shows_studio_details_and_the_map_behind_consent(client, settings):
    response = client.get("/contact")
    html = response.content.decode()
    assert response.status_code == 200
    for value in (settings.STUDIO["address"], settings.STUDIO["phone"], settings.STUDIO["email"]):
        assert value in html
    assert "data-consent-embed" in html and "<iframe" not in html
    assert osm_embed_url(settings.STUDIO["latitude"], settings.STUDIO["longitude"]).replace("&", "&amp;") in html
    assert 'type="email"' in html


def test_contact_form_without_javascript_posts_and_redirects(client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/contact", {"name": "Léa", "email": "lea@example.fr", "message": "Bonjour", "followUp": "on"}
        )
    assert response.status_code == 302 and response["Location"] == "/contact"
    assert ContactMessage.objects.get().follow_up is True
    assert len(mailoutbox) == 1
    page = client.get("/contact")
    assert services.MSG_CONTACT_SENT in page.content.decode()


def test_contact_form_without_javascript_shows_errors_and_keeps_input(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/contact", {"name": "Léa", "email": "", "message": "Mon texte"})
    assert response.status_code == 400
    html = response.content.decode()
    assert escape(services.MSG_CONTACT_FAILED) in html and "Mon texte" in html
    assert [str(m) for m in get_messages(response.wsgi_request)] == [services.MSG_CONTACT_FAILED]
    assert not ContactMessage.objects.exists() and not mailoutbox


def test_contact_form_is_prefilled_for_a_member_and_files_under_them(client, member):
    client.force_login(member)
    html = client.get("/contact").content.decode()
    assert member.email in html and f'name="user_id" value="{member.pk}"' in html
    client.post("/contact", {"name": "Emma Petit", "email": member.email, "message": "Bonjour"})
    assert ContactMessage.objects.get().user == member


def _rental_post(**overrides):
    data = {
        "name": "Léa Moreau",
        "email": "lea@example.fr",
        "phone": "0612345678",
        "eventType": "Réunion",
        "date": (timezone.localdate() + datetime.timedelta(days=5)).isoformat(),
        "time": "14:30",
        "message": "",
        "back": "/room-rental",
    }
    data.update(overrides)
    return data


# --- Member and staff pages ----------------------------------------------------------------------------------


def test_user_messages_requires_login(client):
    response = client.get("/user/messages")
    assert response.status_code == 302 and response["Location"].startswith("/login")


def test_member_page_mounts_the_island_with_the_texts(client, member):
    client.force_login(member)
    html = client.get("/user/messages").content.decode()
    assert 'data-island="messages"' in html
    props = island_props(html, "messages")
    assert props["mode"] == "member" and props["userId"] == member.pk
    assert props["texts"] == {
        "fetchFailed": MSG_FETCH_FAILED,
        "noSelection": MSG_NO_SELECTION,
        "replyFailed": MSG_REPLY_FAILED,
        "replyBlank": services.MSG_REPLY_BLANK,
        "deleteFailed": MSG_DELETE_FAILED,
        "subjectRequired": "Indiquez le sujet de votre message.",
        "textRequired": "Écrivez votre message.",
        "newFailed": "Le message n'a pas pu être envoyé. Veuillez réessayer.",
    }


def test_member_opens_own_conversation_by_address(client, member):
    message = ContactMessageFactory.for_member(member)
    client.force_login(member)
    assert client.get(f"/user/messages/{message.pk}").status_code == 200


def test_member_cannot_open_another_members_conversation_page(client, member, other_member):
    message = ContactMessageFactory.for_member(other_member, text="Secret de Lucie")
    client.force_login(member)
    response = client.get(f"/user/messages/{message.pk}")
    assert response.status_code == 404 and "Secret de Lucie" not in response.content.decode()


def test_staff_page_is_for_staff(client, member, staff):
    message = ContactMessageFactory.for_member(member)
    client.force_login(member)
    assert client.get(f"/messages/{message.pk}")["Location"] == "/"
    client.force_login(staff)
    assert client.get(f"/messages/{message.pk}").status_code == 200
    assert client.get("/messages/987654").status_code == 404


def test_staff_opening_a_member_address_goes_to_the_staff_view(client, member, staff):
    message = ContactMessageFactory.for_member(member)
    client.force_login(staff)
    assert client.get(f"/user/messages/{message.pk}")["Location"] == f"/messages/{message.pk}"


def test_account_menu_badge_shows_unread_count(client, member):
    ContactMessageFactory.for_member(member, member_unread=True)
    ContactMessageFactory.for_member(member, member_unread=True)
    client.force_login(member)
    html = client.get("/contact").content.decode()
    assert "data-unread-badge>2<" in html and "messages non lus" in html


def test_account_menu_badge_is_absent_without_unread(client, member):
    client.force_login(member)
    assert "data-unread-badge" not in client.get("/contact").content.decode()


def test_staff_badge_counts_messages_waiting_for_the_studio(client, staff):
    ContactMessageFactory(staff_unread=True)
    client.force_login(staff)
    assert "data-unread-badge>1<" in client.get("/contact").content.decode()


def _page_queries(client, path):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_member_messages_page_runs_the_same_queries_whatever_the_data(client, member, staff):
    client.force_login(member)
    ContactMessageFactory.for_member(member, member_unread=True)
    few = _page_queries(client, "/user/messages")
    for _ in range(20):
        ContactMessageFactory.for_member(member, member_unread=True)
    assert _page_queries(client, "/user/messages") == few
