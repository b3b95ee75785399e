"""An erased member's cached values (their user row in the shared cache) are rebuilt at the next read."""

import pytest
from django.core.cache import cache
from django.test import override_settings

from accounts.models import User
from accounts.tests.factories import UserFactory
from privacy import services
from studio.auth_cache import cached_per_member

# Real commits: the account is closed in one transaction and its data erased in the next, as in production.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def member_cache():
    with override_settings(MEMBER_CACHE_SECONDS=300):
        cache.clear()
        yield
        cache.clear()


def test_a_read_between_closing_and_erasing_is_not_served_afterwards(monkeypatch):
    member = UserFactory(first_name="Camille", last_name="Durand")
    erase = services._personal_data_erase

    def read_then_erase(**kwargs):
        # A request lands after the account is closed, before its data is erased: it caches the row it reads.
        row = User.objects.get(pk=member.pk)
        assert cached_per_member("name", member.pk, lambda: row.first_name) == "Camille"
        return erase(**kwargs)

    monkeypatch.setattr(services, "_personal_data_erase", read_then_erase)
    services.account_erase(user_id=member.pk, by=None)
    assert cached_per_member("name", member.pk, lambda: "rebuilt") == "rebuilt"
