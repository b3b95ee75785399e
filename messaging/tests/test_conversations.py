"""'Nouveau message' on /user/messages: a member starts a conversation with the studio (subject, message),
sent as themself; staff replies are e-mailed through the outbox and counted unread for the member until opened."""

import pytest

from messaging import conversations
from messaging.models import ContactMessage
from messaging.services import contact_reply_add
from studio.models import OutgoingEmail

URL = "/api/contact-messages/mine"
pytestmark = pytest.mark.django_db


def test_a_member_starts_a_conversation_as_themself(api_client, member):
    api_client.force_authenticate(member)
    body = {"subject": "Cours d'essai", "message": "Puis-je venir samedi ?", "name": "Quelqu'un d'autre"}
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    answer = response.json()
    assert answer["notice"] == conversations.MSG_CONVERSATION_STARTED
    assert (answer["subject"], answer["message_text"], answer["responses"]) == (
        "Cours d'essai",
        "Puis-je venir samedi ?",
        [],
    )
    message = ContactMessage.objects.get()
    assert (message.user, message.name, message.email, message.staff_unread) == (
        member,
        member.get_full_name(),
        member.email,
        True,
    )
    assert OutgoingEmail.objects.filter(subject__contains="Nouveau message : Cours d'essai").count() == 1
    listed = api_client.get(f"/api/contact-messages/user/{member.pk}").json()
    assert [m["id"] for m in listed] == [message.pk]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"subject": "  ", "message": "Bonjour"}, conversations.MSG_CONVERSATION_SUBJECT_REQUIRED),
        ({"message": "Bonjour"}, conversations.MSG_CONVERSATION_SUBJECT_REQUIRED),
        ({"subject": "Question", "message": ""}, conversations.MSG_CONVERSATION_TEXT_REQUIRED),
        ({"subject": "Question", "message": 12}, conversations.MSG_CONVERSATION_TEXT_REQUIRED),
        ({"subject": "Question"}, conversations.MSG_CONVERSATION_TEXT_REQUIRED),
    ],
)
def test_missing_text_is_refused_in_french(api_client, member, body, error):
    api_client.force_authenticate(member)
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 400 and response.json()["error"] == error
    assert not ContactMessage.objects.exists()


def test_visitors_cannot_use_it(api_client):
    response = api_client.post(URL, {"subject": "a", "message": "b"}, format="json")
    assert response.status_code in (401, 403)
    assert not ContactMessage.objects.exists()


def test_a_staff_reply_is_mailed_and_unread_for_the_member_until_opened(api_client, client, member, staff):
    message = conversations.conversation_start(member=member, subject="Tenue", text="Que porter ?")
    contact_reply_add(message_id=message.pk, author=staff, text="Un short et un débardeur.")
    mail = OutgoingEmail.objects.get(subject__contains="Le studio a répondu à votre message")
    assert mail.to == [member.email] and f"/user/messages/{message.pk}" in mail.body_text

    api_client.force_authenticate(member)
    assert api_client.get("/api/contact-messages/unread-count").json()["count"] == 1
    client.force_login(member)
    page = client.get("/user/messages").content.decode()
    assert "data-unread-badge" in page and "Nouveau message" in page
    api_client.get(f"/api/contact-messages/{message.pk}")
    assert api_client.get("/api/contact-messages/unread-count").json()["count"] == 0
