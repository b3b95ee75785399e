"""One CSRF token a page: Django masks the secret anew at each `get_token` call (~30 os.urandom calls, ~35
µs), and a member's page asked twice (the island's cookie, the header's logout form). `page_token` masks once per
request and per secret, with one read of the system's randomness; the templates' `csrf_token` is the same value."""

import os
import random
import re
from collections import Counter

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
    reads = []
    real = os.urandom
    monkeypatch.setattr(os, "urandom", lambda n: reads.append(n) or real(n))
    monkeypatch.setattr(random, "_urandom", lambda n: reads.append(n) or real(n))  # SystemRandom's own
    html = client.get("/my-courses").text
    assert reads == [64]  # one mask, one read (Django's own masking read 32 times)
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


def test_the_token_has_djangos_form_and_a_fresh_uniform_mask():
    request = RequestFactory().get("/")
    rotate_token(request)
    secret = request.META["CSRF_COOKIE"]
    masks = Counter()
    for _ in range(1000):
        request = RequestFactory().get("/")
        request.META["CSRF_COOKIE"] = secret
        token = page_token(request)
        assert len(token) == 2 * django_csrf.CSRF_SECRET_LENGTH
        assert set(token) <= set(django_csrf.CSRF_ALLOWED_CHARS)
        assert django_csrf._unmask_cipher_token(token) == secret
        assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True  # the cookie is renewed, as get_token does
        masks.update(token[: django_csrf.CSRF_SECRET_LENGTH])
    # 32,000 characters over 62: each ~516 times (σ ~22). A byte taken modulo 62 without rejection would make the
    # first 8 characters 25 % likelier: ~5,000 of them instead of ~4,129 (σ ~60). Bounds at 5-6 σ.
    assert len(masks) == 62
    assert 400 < min(masks.values()) and max(masks.values()) < 640
    assert sum(masks[char] for char in django_csrf.CSRF_ALLOWED_CHARS[:8]) < 4_490


def test_a_request_without_a_secret_gets_one_and_its_cookie():
    client = Client(enforce_csrf_checks=True)
    response = client.get("/login")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.text).group(1)
    assert django_csrf._unmask_cipher_token(token) == response.cookies["csrftoken"].value
