"""The account menu's unread count: read from the database on every page (one COUNT), so a reply, a new message, a
conversation opened or deleted shows at the next page."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import StaffFactory, UserFactory
from messaging import services
from messaging.tests.factories import ContactMessageFactory

pytestmark = pytest.mark.django_db

PAGE = "/user/messages"


def badge(client) -> str:
    html = client.get(PAGE).content.decode()
    if "data-unread-badge>" not in html:
        return ""
    return html.split("data-unread-badge>")[1].split("<")[0]


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def count_queries(client) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(PAGE).status_code == 200
    return [
        q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"] and "messaging_contactmessage" in q["sql"]
    ]


@pytest.mark.parametrize("staff", [False, True], ids=["member", "staff"])
def test_each_page_counts_the_unread_messages_once_whatever_their_number(staff):
    user = StaffFactory() if staff else UserFactory()
    client = logged_in(user)
    assert len(count_queries(client)) == 1
    for _ in range(5):
        ContactMessageFactory.for_member(UserFactory() if staff else user, member_unread=True, staff_unread=True)
    assert len(count_queries(client)) == 1
    assert badge(client) == "5"


def test_a_staff_reply_shows_at_the_next_page_and_opening_it_clears_it():
    member, staff = UserFactory(), StaffFactory()
    message = ContactMessageFactory.for_member(member, member_unread=False, staff_unread=False)
    client = logged_in(member)
    assert badge(client) == ""
    services.contact_reply_add(message_id=message.pk, author=staff, text="Bonjour, c'est noté.")
    assert badge(client) == "1"
    assert client.get(f"/api/contact-messages/{message.pk}").status_code == 200  # marks it read
    assert badge(client) == ""


def test_staff_see_a_new_message_at_their_next_page_and_it_goes_once_read():
    staff = StaffFactory()
    client = logged_in(staff)
    assert badge(client) == ""
    message = ContactMessageFactory(staff_unread=True)
    assert badge(client) == "1"
    assert client.get(f"/api/contact-messages/{message.pk}").status_code == 200
    assert badge(client) == ""


def test_a_deleted_conversation_leaves_the_count():
    member = UserFactory()
    message = ContactMessageFactory.for_member(member, member_unread=True)
    client = logged_in(member)
    assert badge(client) == "1"
    services.contact_message_delete(message_id=message.pk)
    assert badge(client) == ""
