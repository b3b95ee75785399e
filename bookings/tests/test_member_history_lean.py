"""A member reading their own history through their session is answered without DRF's machinery
(CourseFeedbackUserApi.own_page): for every request, the status, headers and bytes are those DRF gives with the lean
answer turned off, and the requests it does not handle (a token, staff, odd parameters, a page past the last) still
get DRF's answer."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework_simplejwt.tokens import RefreshToken

from bookings.apis.feedback import CourseFeedbackUserApi
from bookings.tests.factories import CourseFeedbackFactory, PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory

pytestmark = [pytest.mark.django_db, pytest.mark.database]


def _history(member, count):
    card = PassFactory(member=member, title="Carte 10 cours")
    now = timezone.now()
    for n in range(count):
        session = CourseSessionFactory(start=now + timedelta(days=n - count // 2, hours=n))
        ReservationFactory(session=session, user=member, paid_with_pass=card if n % 3 == 0 else None)
        if n % 4 == 0:
            CourseFeedbackFactory(user=member, course=session.course, rating=4, comment="Très « bien »\u2028")


def _answer(client, path, query, monkeypatch, *, lean, **headers):
    monkeypatch.setattr(CourseFeedbackUserApi, "lean", lean)
    response = client.get(path, query, **headers)
    return response.status_code, dict(response.headers), response.content


QUERIES = [
    {},
    {"page": "1"},
    {"page": "2"},
    {"page": "3", "page_size": "2"},
    {"page": "02", "page_size": "2"},
    {"page_size": "100"},
    {"page_size": "7", "page": "2"},
    {"page": "4"},  # past the last: 404
    {"page": "0"},
    {"page": "last", "page_size": "5"},
    {"page": " 2"},
    {"page": "١"},  # a non-ASCII digit
    {"page_size": "0"},
    {"page_size": "101"},
    {"page": "99999999999999999999"},
    {"page": ["1", "2"]},
    {"format": "json"},
    {"other": "x", "page": "2"},
    {"page": "1", "t": "1764000000000"},  # the island's cache-buster
    {"page": "2", "t": "1764000000000", "page_size": "5"},
    {"t": ["1", "2"]},
]


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: repr(q))
def test_the_member_gets_the_same_answer_as_drf_gives(member, monkeypatch, query):
    _history(member, 45)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(member)
    path = f"/api/course-feedback/user/{member.pk}"
    assert _answer(client, path, query, monkeypatch, lean=True) == _answer(client, path, query, monkeypatch, lean=False)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HTTP_ACCEPT": "application/json"},
        {"HTTP_ACCEPT": "*/*"},
        {"HTTP_ACCEPT": "application/json; indent=2"},
        {"HTTP_ACCEPT": "text/html"},
        {"HTTP_ACCEPT": "application/json, text/plain, */*"},
    ],  # fmt: skip
    ids=lambda h: repr(h),
)
def test_accept_headers_get_the_same_answer(member, monkeypatch, headers):
    _history(member, 3)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(member)
    path = f"/api/course-feedback/user/{member.pk}"
    lean = _answer(client, path, {}, monkeypatch, lean=True, **headers)
    assert lean == _answer(client, path, {}, monkeypatch, lean=False, **headers)


def test_an_empty_history_and_other_people(member, other_member, staff, monkeypatch):
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(member)
    for path in (f"/api/course-feedback/user/{member.pk}", f"/api/course-feedback/user/{other_member.pk}"):
        for query in ({}, {"page": "2"}):
            lean = _answer(client, path, query, monkeypatch, lean=True)
            assert lean == _answer(client, path, query, monkeypatch, lean=False), (path, query)
    assert _answer(client, f"/api/course-feedback/user/{member.pk}", {}, monkeypatch, lean=True)[2] == (
        b'{"count":0,"next":null,"previous":null,"results":[]}'
    )
    _history(member, 2)
    client.force_login(staff)  # staff reading a member's history: DRF's path
    path = f"/api/course-feedback/user/{member.pk}"
    assert _answer(client, path, {}, monkeypatch, lean=True) == _answer(client, path, {}, monkeypatch, lean=False)
    anonymous = Client(HTTP_HOST="127.0.0.1")
    assert _answer(anonymous, path, {}, monkeypatch, lean=True)[0] == 401


def test_a_token_and_an_inactive_member_go_through_drf(member, monkeypatch):
    _history(member, 3)
    path = f"/api/course-feedback/user/{member.pk}"
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {RefreshToken.for_user(member).access_token}"}
    anonymous = Client(HTTP_HOST="127.0.0.1")
    with_token = _answer(anonymous, path, {}, monkeypatch, lean=True, **bearer)
    assert with_token[0] == 200 and with_token == _answer(anonymous, path, {}, monkeypatch, lean=False, **bearer)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(member)
    member.is_active = False
    member.save()
    inactive = _answer(client, path, {}, monkeypatch, lean=True)
    assert inactive[0] in (401, 403) and inactive == _answer(client, path, {}, monkeypatch, lean=False)


def test_the_lean_answer_is_taken(member, monkeypatch):
    """The member's own pages do not reach DRF (its dispatch is not called)."""
    _history(member, 30)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(member)
    path = f"/api/course-feedback/user/{member.pk}"
    client.get(path)  # the session and user cached as in production's steady state

    def refuse(*args, **kwargs):
        raise AssertionError("DRF's dispatch was reached")

    monkeypatch.setattr("rest_framework.views.APIView.dispatch", refuse)
    response = client.get(path, {"page": "2", "page_size": "10"})
    assert response.status_code == 200 and response.json()["count"] == 30
    assert response.json()["next"] == f"http://127.0.0.1{path}?page=3&page_size=10"
    response = client.get(path, {"page": "1", "t": "1764000000000"})  # as the island asks (useApi's `fresh`)
    assert response.status_code == 200 and response.json()["next"] == f"http://127.0.0.1{path}?page=2&t=1764000000000"
