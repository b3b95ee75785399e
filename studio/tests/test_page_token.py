"""One CSRF token a page (issue 18): Django masks the secret anew at each `get_token` call (~30 os.urandom calls, ~35
µs), and a member's page asked twice (the island's cookie, the header's logout form). `page_token` masks once per
request and per secret; the templates' `csrf_token` is the same value."""

import re

import pytest
from django.middleware import csrf as django_csrf
from django.middleware.csrf import rotate_token
from django.test import Client, RequestFactory

from accounts.tests.factories import UserFactory
from studio.csrf import page_token

pytestmark = pytest.mark.django_db


def test_a_members_page_masks_its_token_once_and_uses_it_everywhere(monkeypatch):
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    client.get("/my-courses")
    masks = []
    real = django_csrf._mask_cipher_secret
    monkeypatch.setattr(django_csrf, "_mask_cipher_secret", lambda secret: masks.append(1) or real(secret))
    html = client.get("/my-courses").text
    assert len(masks) == 1
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
    assert len(tokens) == 1
    assert client.post("/logout", {"csrfmiddlewaretoken": tokens.pop()}).status_code == 302  # a valid token


def test_a_new_secret_gets_a_new_token():
    request = RequestFactory().get("/")
    first = page_token(request)
    assert page_token(request) == first
    rotate_token(request)  # as at login
    second = page_token(request)
    assert second != first
    assert django_csrf._unmask_cipher_token(second) == request.META["CSRF_COOKIE"]
