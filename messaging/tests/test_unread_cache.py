"""The account menu's unread count is read from the shared cache, rebuilt whenever a conversation of that member (or,
for staff, any conversation) changes."""

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


class CacheReads:
    """Counts the round trips a request makes to the shared cache (each get / get_many is one on Redis)."""

    def __init__(self, monkeypatch):
        from django.core.cache import caches

        self.count = 0
        self.inside = False  # the local-memory backend's get_many calls its own get: one round trip, counted once
        backend = caches["default"]
        for name in ("get", "get_many"):
            original = getattr(backend, name)

            def counted(*args, _original=original, **kwargs):
                if self.inside:
                    return _original(*args, **kwargs)
                self.count += 1
                self.inside = True
                try:
                    return _original(*args, **kwargs)
                finally:
                    self.inside = False

            monkeypatch.setattr(backend, name, counted)


@pytest.mark.parametrize("staff", [False, True], ids=["member", "staff"])
def test_a_warm_page_reads_the_session_then_the_user_with_the_badge_in_one_round_trip(monkeypatch, staff):
    user = StaffFactory() if staff else UserFactory()
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        client = logged_in(user)
        client.get(PAGE)  # fills the cache
        reads = CacheReads(monkeypatch)
        assert client.get(PAGE).status_code == 200
    assert reads.count == 2  # the session; the user row with the unread count (it was three)


def test_the_badge_read_with_the_user_is_not_kept_once_the_member_changes(monkeypatch):
    """Read ahead with the user row, the count is still dropped when the same request changes the member's data
    (bump_member), and never outlives its request."""
    from django.contrib.auth import get_user
    from django.test import RequestFactory

    from messaging.selectors import unread_count_for
    from studio.auth_cache import bump_member

    member = UserFactory()
    client = logged_in(member)
    assert badge(client) == ""
    request = RequestFactory().get(PAGE)
    request.session = client.session
    assert get_user(request) == member  # reads the count ahead, 0
    ContactMessageFactory.for_member(member, member_unread=True)  # the receivers bump the member
    assert unread_count_for(user=member) == 1
    assert get_user(request) == member  # read ahead again
    ContactMessage = type(ContactMessageFactory.for_member(member, member_unread=True))
    ContactMessage.objects.filter(user=member).update(member_unread=False)  # no signal
    bump_member(member.pk)
    assert unread_count_for(user=member) == 0
    assert badge(client) == ""


def test_a_count_read_ahead_is_not_served_to_the_next_request():
    """Another worker's change bumps the member's version in the shared cache: this process's next request must not
    use what the previous one read ahead."""
    from django.contrib.auth import get_user
    from django.core.signals import request_started
    from django.db import close_old_connections
    from django.test import RequestFactory

    from messaging.selectors import unread_count_for
    from studio.auth_cache import VERSION_KEY

    member = UserFactory()
    ContactMessage = type(ContactMessageFactory.for_member(member, member_unread=False))
    client = logged_in(member)
    assert badge(client) == ""
    request = RequestFactory().get(PAGE)
    request.session = client.session
    assert get_user(request) == member  # the count 0 read ahead, never used in that request
    ContactMessage.objects.filter(user=member).update(member_unread=True)  # no signal: as if another worker...
    cache.incr(VERSION_KEY.format(id=member.pk))  # ...changed it and bumped the version
    request_started.disconnect(close_old_connections)  # as the test client does: the test's transaction stays open
    try:
        request_started.send(sender=None)  # this process's next request
    finally:
        request_started.connect(close_old_connections)
    assert unread_count_for(user=member) == 1
