"""With a shared cache (production), a logged-in page reads its session, user row and unread count from it: the
pages that show nothing else run no query at all once warm, and the others keep a fixed count whatever the data."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import StaffFactory, UserFactory
from studio.tests.test_bench_queries import BENCH_SIZED, MEMBER, SMALL, STAFF, _month, _week, grow

pytestmark = pytest.mark.django_db

AS_IN_PRODUCTION = {"MEMBER_CACHE_SECONDS": 300, "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db"}
NONE_ONCE_WARM = {"/my-courses", "/user/profile", "/user/messages", "/admin/dashboard"}
ENDPOINTS = [("member", p) for p in MEMBER] + [("staff", p) for p in STAFF]


def warm_queries(client, path) -> int:
    assert client.get(path).status_code == 200  # fills the cache
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize(("who", "path"), ENDPOINTS, ids=[f"{w}:{p}" for w, p in ENDPOINTS])
def test_a_warm_logged_in_request_reads_session_user_and_badge_from_the_cache(who, path):
    with override_settings(**AS_IN_PRODUCTION):
        cache.clear()
        member = UserFactory(email="emma@example.fr")
        client = Client()
        client.force_login(StaffFactory() if who == "staff" else member)
        now = timezone.now()
        url = path.format(week=_week(now), month=_month(now), member=member.pk)
        grow(member, **SMALL)
        few = warm_queries(client, url)
        grow(member, **BENCH_SIZED)
        cache.clear()  # the grown data's pages, not the small studio's (the session stays in the database)
        assert warm_queries(client, url) == few
        if path in NONE_ONCE_WARM:
            assert few == 0
        cache.clear()
