"""The account menu's unread count is read from the shared cache, rebuilt whenever a conversation of that member (or,
for staff, any conversation) changes (issue 18)."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import StaffFactory, UserFactory
from messaging import services
from messaging.tests.factories import ContactMessageFactory

pytestmark = pytest.mark.django_db

PAGE = "/user/messages"


@pytest.fixture(autouse=True)
def member_cache():
    with override_settings(MEMBER_CACHE_SECONDS=300):
        cache.clear()
        yield
        cache.clear()


def badge(client) -> str:
    html = client.get(PAGE).content.decode()
    if "data-unread-badge>" not in html:
        return ""
    return html.split("data-unread-badge>")[1].split("<")[0]


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def count_queries(client):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(PAGE).status_code == 200
    return [q["sql"] for q in queries.captured_queries if "messaging_contactmessage" in q["sql"]]


def test_the_second_page_counts_nothing_in_the_database():
    member = UserFactory()
    ContactMessageFactory.for_member(member, member_unread=True)
    client = logged_in(member)
    assert len(count_queries(client)) == 1
    assert count_queries(client) == []


def test_a_staff_reply_shows_at_the_next_page_and_opening_it_clears_it():
    member, staff = UserFactory(), StaffFactory()
    message = ContactMessageFactory.for_member(member, member_unread=False, staff_unread=False)
    client = logged_in(member)
    assert badge(client) == ""
    services.contact_reply_add(message_id=message.pk, author=staff, text="Bonjour, c'est noté.")
    assert badge(client) == "1"
    assert client.get(f"/api/contact-messages/{message.pk}").status_code == 200  # marks it read (an update())
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
