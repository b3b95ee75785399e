"""A logged-in request reads its user row from the shared cache, rebuilt whenever the user changes."""

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from accounts import services
from accounts.models import Role
from accounts.tests.factories import UserFactory
from studio.auth_cache import CachedModelBackend, bump_member, cached_per_member

pytestmark = pytest.mark.django_db

PAGE = "/user/messages"


@pytest.fixture(autouse=True)
def member_cache():
    with override_settings(MEMBER_CACHE_SECONDS=300):
        cache.clear()
        yield
        cache.clear()


def user_queries(client, path=PAGE):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    return response, [q["sql"] for q in queries.captured_queries if 'FROM "accounts_user"' in q["sql"]]


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_second_request_reads_no_user_row():
    client = logged_in(UserFactory())
    response, first = user_queries(client)
    assert response.status_code == 200 and len(first) == 1
    response, second = user_queries(client)
    assert response.status_code == 200 and second == []


@override_settings(MEMBER_CACHE_SECONDS=0)
def test_without_a_shared_cache_every_request_reads_the_row():
    client = logged_in(UserFactory())
    user_queries(client)
    assert len(user_queries(client)[1]) == 1


def test_a_role_given_by_a_save_is_seen_at_the_next_request():
    member = UserFactory()
    client = logged_in(member)
    assert client.get("/admin/dashboard").status_code in (302, 403)
    member.role = Role.ADMIN
    member.save(update_fields=["role"])
    assert client.get("/admin/dashboard").status_code == 200


def test_a_deactivated_account_is_logged_out_at_its_next_request():
    member = UserFactory()
    client = logged_in(member)
    assert client.get(PAGE).status_code == 200
    services.user_deactivate(user=member)  # a QuerySet.update(), no signal: the service bumps the member itself
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith("/login")


def test_a_password_change_ends_the_other_sessions():
    member = UserFactory()
    client = logged_in(member)
    assert client.get(PAGE).status_code == 200
    member.set_password("un-autre-mot-de-passe-2026")
    member.save()
    assert client.get(PAGE).status_code == 302


def test_a_deleted_account_is_anonymous_at_its_next_request():
    member = UserFactory()
    client = logged_in(member)
    assert client.get(PAGE).status_code == 200
    member.delete()
    assert client.get(PAGE).status_code == 302


def test_a_value_built_before_a_bump_is_never_served_after_it():
    """The version is read before the value is built: a change committed meanwhile makes that entry unusable."""
    calls = []

    def build_then_change():
        calls.append(1)
        bump_member(7)  # the member changes while the value is being built
        return "old"

    assert cached_per_member("thing", 7, build_then_change) == "old"
    assert cached_per_member("thing", 7, lambda: "new") == "new"
    assert cached_per_member("thing", 7, lambda: pytest.fail("rebuilt although current")) == "new"


def test_a_read_between_a_change_and_its_commit_is_not_served_after_the_commit():
    """Another worker reading the row before the transaction commits still gets the old row; the bump at commit
    makes what it cached unusable."""
    member = UserFactory()
    old_row = CachedModelBackend().get_user(member.pk)
    with transaction.atomic():
        member.role = Role.ADMIN
        member.save(update_fields=["role"])
        # What another connection would cache now: the committed (old) row, under the version already bumped.
        cached_per_member("user", member.pk, lambda: old_row)
        assert CachedModelBackend().get_user(member.pk).role == Role.USER
    assert CachedModelBackend().get_user(member.pk).role == Role.ADMIN
