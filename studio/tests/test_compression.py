"""Pages and API answers travel gzipped to browsers that ask for it, cached ones included; the cache keeps plain
bytes, so a client that does not ask gets them as they are."""

import gzip

import pytest
from django.core.cache import cache
from django.test import Client

from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.django_db

BROWSER = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize("path", ["/", "/tarifs", "/api/course-sessions"])
def test_a_public_answer_is_gzipped_for_a_browser_and_plain_for_others(path):
    CourseSessionFactory()
    plain = Client().get(path)  # builds and stores the page
    first = Client().get(path, **BROWSER)  # a hit, from the cache
    assert plain.status_code == first.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert first.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in first.headers["Vary"]
    assert gzip.decompress(first.content) == plain.content
    assert len(first.content) < len(plain.content)
    assert Client().get(path).content == plain.content  # the stored copy stays plain


def test_a_members_page_is_gzipped_too(member):
    client = Client()
    client.force_login(member)
    answer = client.get("/user/profile", **BROWSER)
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert "Mon profil" in gzip.decompress(answer.content).decode()
