"""Contact-message APIs: shapes, permissions per object, fixed query counts."""

import pytest

from messaging import services
from messaging.models import ContactMessage, ContactReply, ReplyAuthorRole
from messaging.tests.factories import ContactMessageFactory, ContactReplyFactory

pytestmark = pytest.mark.django_db

CONTACT = {
    "name": "Emma Petit",
    "email": "emma@example.fr",
    "phone": "0612345678",
    "subject": "Cours d'essai",
    "message": "Bonjour, puis-je essayer un cours ?",
    "followUp": True,
    "user_id": None,
}


# --- POST /api/contact-messages ------------------------------------------------------------------------


def test_visitor_posts_a_contact_message(api_client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/contact-messages", CONTACT, format="json")
    assert response.status_code == 201
    assert response.json()["message"] == services.MSG_CONTACT_SENT
    message = ContactMessage.objects.get()
    assert message.user is None and message.follow_up and message.text == CONTACT["message"]
    assert len(mailoutbox) == 1


def test_logged_in_member_is_attached_from_the_session_not_the_payload(api_client, member, other_member):
    api_client.force_authenticate(member)
    response = api_client.post("/api/contact-messages", {**CONTACT, "user_id": other_member.pk}, format="json")
    assert response.status_code == 201
    assert ContactMessage.objects.get().user == member


def test_visitor_cannot_file_a_message_under_a_member(api_client, member):
    api_client.post("/api/contact-messages", {**CONTACT, "user_id": member.pk}, format="json")
    assert ContactMessage.objects.get().user is None


@pytest.mark.parametrize("field", ["name", "email", "message"])
def test_missing_required_field_answers_the_failure_message(
    api_client, field, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/contact-messages", {**CONTACT, field: ""}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == services.MSG_CONTACT_FAILED
    assert field in body["errors"]
    assert not ContactMessage.objects.exists() and not mailoutbox


def test_invalid_email_is_refused(api_client):
    response = api_client.post("/api/contact-messages", {**CONTACT, "email": "pas-un-email"}, format="json")
    assert response.status_code == 400 and "email" in response.json()["errors"]


# --- Member reads -----------------------------------------------------------------------------------------


def test_member_lists_own_messages_with_responses(api_client, member, other_member, staff):
    mine = ContactMessageFactory.for_member(member)
    ContactReplyFactory(message=mine, author=staff)
    ContactMessageFactory.for_member(other_member)
    ContactMessageFactory()
    api_client.force_authenticate(member)
    response = api_client.get(f"/api/contact-messages/user/{member.pk}")
    assert response.status_code == 200
    data = response.json()
    assert [m["id"] for m in data] == [mine.pk]
    assert data[0]["message_text"] == mine.text
    assert data[0]["responses"][0]["author"] == "Admin"
    assert set(data[0]["responses"][0]) >= {"response_text", "timestamp", "author"}


def test_member_cannot_list_another_members_messages(api_client, member, other_member):
    ContactMessageFactory.for_member(other_member)
    api_client.force_authenticate(member)
    assert api_client.get(f"/api/contact-messages/user/{other_member.pk}").status_code == 403


def test_visitor_cannot_list_messages(api_client, member):
    assert api_client.get(f"/api/contact-messages/user/{member.pk}").status_code == 401


def test_staff_can_list_a_members_messages(api_client, member, supervisor):
    ContactMessageFactory.for_member(member)
    api_client.force_authenticate(supervisor)
    response = api_client.get(f"/api/contact-messages/user/{member.pk}")
    assert response.status_code == 200 and len(response.json()) == 1


def test_member_reads_own_message_and_it_becomes_read(api_client, member):
    message = ContactMessageFactory.for_member(member, member_unread=True)
    api_client.force_authenticate(member)
    response = api_client.get(f"/api/contact-messages/{message.pk}")
    assert response.status_code == 200 and response.json()["id"] == message.pk
    message.refresh_from_db()
    assert not message.member_unread and message.staff_unread


def test_member_cannot_read_another_members_message(api_client, member, other_member):
    message = ContactMessageFactory.for_member(other_member, member_unread=True)
    api_client.force_authenticate(member)
    assert api_client.get(f"/api/contact-messages/{message.pk}").status_code == 403
    message.refresh_from_db()
    assert message.member_unread  # untouched


def test_member_cannot_read_a_visitors_message(api_client, member):
    message = ContactMessageFactory()
    api_client.force_authenticate(member)
    assert api_client.get(f"/api/contact-messages/{message.pk}").status_code == 403


def test_unknown_message_is_404(api_client, staff):
    api_client.force_authenticate(staff)
    assert api_client.get("/api/contact-messages/999999").status_code == 404


# --- Replies ----------------------------------------------------------------------------------------------


def test_member_replies_to_own_message(api_client, member, mailoutbox):
    message = ContactMessageFactory.for_member(member)
    api_client.force_authenticate(member)
    response = api_client.put(
        f"/api/contact-messages/{message.pk}/response", {"response_text": "Merci !"}, format="json"
    )
    assert response.status_code == 201
    updated = response.json()["updatedResponses"]
    assert [r["response_text"] for r in updated] == ["Merci !"]
    assert updated[0]["author_role"] == ReplyAuthorRole.MEMBER


def test_staff_reply_is_signed_admin_and_mailed_to_the_member(
    api_client, member, staff, mailoutbox, django_capture_on_commit_callbacks
):
    message = ContactMessageFactory.for_member(member)
    ContactReplyFactory(message=message, author=member, author_role=ReplyAuthorRole.MEMBER, text="Une précision")
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.put(
            f"/api/contact-messages/{message.pk}/response", {"response_text": "Réponse du studio"}, format="json"
        )
    assert response.status_code == 201
    updated = response.json()["updatedResponses"]
    assert [r["response_text"] for r in updated] == ["Une précision", "Réponse du studio"]
    assert updated[-1]["author"] == "Admin"
    assert mailoutbox[-1].to == [member.email]


def test_member_cannot_answer_another_members_message(
    api_client, member, other_member, mailoutbox, django_capture_on_commit_callbacks
):
    message = ContactMessageFactory.for_member(other_member)
    api_client.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.put(
            f"/api/contact-messages/{message.pk}/response", {"response_text": "Intrus"}, format="json"
        )
    assert response.status_code == 403
    assert not ContactReply.objects.exists() and not mailoutbox


def test_visitor_cannot_reply(api_client, member):
    message = ContactMessageFactory.for_member(member)
    response = api_client.put(f"/api/contact-messages/{message.pk}/response", {"response_text": "x"}, format="json")
    assert response.status_code == 401
    assert not ContactReply.objects.exists()


@pytest.mark.parametrize("payload", [{"response_text": "   "}, {"response_text": ""}, {}])
def test_blank_reply_is_refused(api_client, member, payload):
    message = ContactMessageFactory.for_member(member)
    api_client.force_authenticate(member)
    response = api_client.put(f"/api/contact-messages/{message.pk}/response", payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == services.MSG_REPLY_BLANK
    assert not ContactReply.objects.exists()


def test_reply_to_unknown_message_is_404(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.put("/api/contact-messages/424242/response", {"response_text": "x"}, format="json")
    assert response.status_code == 404


# --- Staff list, delete, unread counts ----------------------------------------------------------------------


def _conversations(count, member, staff):
    for _ in range(count):
        message = ContactMessageFactory.for_member(member)
        ContactReplyFactory(message=message, author=staff)
        ContactReplyFactory(message=message, author=member, author_role=ReplyAuthorRole.MEMBER)


def test_staff_list_is_paginated_and_sorted(api_client, staff, member):
    first = ContactMessageFactory(name="Alice")
    ContactMessageFactory(name="Zoé")
    api_client.force_authenticate(staff)
    body = api_client.get("/api/contact-messages?ordering=name&page_size=1").json()
    assert body["count"] == 2 and body["next"] and body["results"][0]["id"] == first.pk
    assert api_client.get("/api/contact-messages?ordering=-name").json()["results"][0]["name"] == "Zoé"
    # an unknown sort key falls back to the default instead of failing
    assert api_client.get("/api/contact-messages?ordering=password").status_code == 200


def test_staff_list_filters_unread(api_client, staff):
    ContactMessageFactory(staff_unread=False)
    unread = ContactMessageFactory(staff_unread=True)
    api_client.force_authenticate(staff)
    body = api_client.get("/api/contact-messages?unread=1").json()
    assert [m["id"] for m in body["results"]] == [unread.pk]


def test_member_cannot_list_all_messages(api_client, member):
    api_client.force_authenticate(member)
    assert api_client.get("/api/contact-messages").status_code == 403


@pytest.mark.parametrize("count", [1, 12])
def test_staff_list_runs_a_fixed_number_of_queries(api_client, staff, member, count, django_assert_num_queries):
    _conversations(count, member, staff)
    api_client.force_authenticate(staff)
    with django_assert_num_queries(3):  # count, page, replies
        response = api_client.get("/api/contact-messages")
    assert response.status_code == 200


@pytest.mark.parametrize("count", [1, 12])
def test_member_list_runs_a_fixed_number_of_queries(api_client, staff, member, count, django_assert_num_queries):
    _conversations(count, member, staff)
    api_client.force_authenticate(member)
    with django_assert_num_queries(2):  # messages, replies
        response = api_client.get(f"/api/contact-messages/user/{member.pk}")
    assert len(response.json()) == count


def test_staff_deletes_a_message(api_client, staff):
    message = ContactMessageFactory()
    ContactReplyFactory(message=message)
    api_client.force_authenticate(staff)
    assert api_client.delete(f"/api/contact-messages/{message.pk}").status_code == 204
    assert not ContactMessage.objects.exists() and not ContactReply.objects.exists()
    assert api_client.delete(f"/api/contact-messages/{message.pk}").status_code == 404


def test_member_cannot_delete_even_own_message(api_client, member):
    message = ContactMessageFactory.for_member(member)
    api_client.force_authenticate(member)
    assert api_client.delete(f"/api/contact-messages/{message.pk}").status_code == 403
    assert ContactMessage.objects.filter(pk=message.pk).exists()


def test_unread_counts(api_client, member, other_member, staff):
    ContactMessageFactory.for_member(member, member_unread=True, staff_unread=True)
    ContactMessageFactory.for_member(member, member_unread=False, staff_unread=False)
    ContactMessageFactory.for_member(other_member, member_unread=True, staff_unread=True)
    api_client.force_authenticate(member)
    assert api_client.get("/api/contact-messages/unread-count").json() == {"count": 1}
    api_client.force_authenticate(staff)
    assert api_client.get("/api/contact-messages/unread-count").json() == {"count": 0, "staff_count": 2}
    api_client.force_authenticate(None)
    assert api_client.get("/api/contact-messages/unread-count").status_code == 401


# --- One error contract, typed input -------------------------------------------------------------------------


def test_unknown_messages_answer_404_with_a_code(api_client, staff):
    api_client.force_authenticate(staff)
    for response in (
        api_client.get("/api/contact-messages/424242"),
        api_client.delete("/api/contact-messages/424242"),
        api_client.put("/api/contact-messages/424242/response", {"response_text": "x"}, format="json"),
    ):
        assert response.status_code == 404
        assert response.json()["error"] == services.MSG_MESSAGE_NOT_FOUND
        assert response.json()["code"] == "message_not_found"


def test_a_reply_to_a_message_deleted_meanwhile_is_404(staff):
    with pytest.raises(services.MessagingError) as error:
        services.contact_reply_add(message_id=424242, author=staff, text="Bonjour")
    assert (error.value.status, error.value.message) == (404, services.MSG_MESSAGE_NOT_FOUND)


def test_a_blank_message_is_refused_with_the_failure_message(api_client):
    response = api_client.post("/api/contact-messages", {**CONTACT, "message": "  \n "}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == services.MSG_CONTACT_FAILED and "message" in response.json()["errors"]
    assert not ContactMessage.objects.exists()


@pytest.mark.parametrize("query", ["page_size=abc", "page_size=0", "page_size=101", "page=0", "unread=peut-etre"])
def test_rubbish_list_parameters_are_refused(api_client, staff, query):
    api_client.force_authenticate(staff)
    assert api_client.get(f"/api/contact-messages?{query}").status_code == 400


def test_a_page_beyond_the_last_is_404(api_client, staff):
    api_client.force_authenticate(staff)
    assert api_client.get("/api/contact-messages?page=5").status_code == 404


def test_the_schema_describes_the_messaging_answers():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    listing = schema["paths"]["/api/contact-messages"]["get"]
    assert {p["name"] for p in listing["parameters"]} >= {"page", "page_size", "ordering", "unread"}
    assert listing["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ContactMessagePageOutput"
    )


@pytest.mark.parametrize("query", ["page_size=", "page=", "unread="])
def test_empty_list_parameters_are_refused(api_client, staff, query):
    api_client.force_authenticate(staff)
    assert api_client.get(f"/api/contact-messages?{query}").status_code == 400


def test_a_contact_name_must_be_text(api_client):
    response = api_client.post("/api/contact-messages", {**CONTACT, "name": 12}, format="json")
    assert response.status_code == 400 and "name" in response.json()["errors"]


def test_an_empty_ordering_is_the_default_order_and_the_schema_accepts_it(api_client, staff):
    """schemathesis: `?ordering=` is accepted by the server, so the schema must accept '' too (anyOf, not oneOf)."""
    from drf_spectacular.generators import SchemaGenerator

    api_client.force_authenticate(staff)
    assert api_client.get("/api/contact-messages?ordering=&unread=true").status_code == 200
    parameters = SchemaGenerator().get_schema(request=None, public=True)["paths"]["/api/contact-messages"]["get"]
    (ordering,) = [p for p in parameters["parameters"] if p["name"] == "ordering"]
    assert "oneOf" not in ordering["schema"]
