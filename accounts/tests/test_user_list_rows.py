"""The staff's users list, row by row: each row as the dashboard reads it, written here from the accounts themselves
(avatar or the default picture, e-mail confirmed or not, a change waiting, the date joined in Paris time, the
no-shows on the member's record, who may edit whom), for an admin and for a supervisor, searched, sorted and paged."""

from datetime import timedelta

import pytest
from django.db import connection
from django.templatetags.static import static
from django.utils import timezone

from accounts.models import Role, User
from accounts.tests.factories import StaffFactory, SupervisorFactory, UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

# The rows' dates and amounts are converted by each database's driver: run on both.
pytestmark = [pytest.mark.django_db, pytest.mark.database]

USERS = "/api/users"


def _row(user: User, *, actor: User) -> dict:
    """A row as the dashboard's users list reads it."""
    no_shows = Attendance.objects.filter(reservation__user=user, status=AttendanceStatus.ABSENT).count()
    # Who may edit whom (docs/decisions.md 11, 32): oneself; staff edit members; only an admin edits staff.
    can_edit = actor.pk == user.pk or actor.role == Role.ADMIN or user.role == Role.USER
    return {
        "id": user.pk,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "name": user.last_name,
        "email": user.email,
        "phone": user.phone,
        "address": user.address,
        "postal_code": user.postal_code,
        "city": user.city,
        "country": user.country,
        # A business customer's invoices carry its company (docs/decisions.md 54).
        "company_name": user.company_name,
        "company_siren": user.company_siren,
        "company_vat_number": user.company_vat_number,
        "company_address": user.company_address,
        "avatar": f"/uploads/{user.avatar.name}" if user.avatar else static("accounts/avatar-default.svg"),
        "role": user.role,
        "email_confirmed": user.email_confirmed_at is not None,
        "pending_email": user.pending_email,
        "date_joined": timezone.localtime(user.date_joined).isoformat(),
        "can_edit": can_edit,
        "no_shows": no_shows,
    }


def _absent(user: User, days_ago: int) -> None:
    session = CourseSessionFactory(start=timezone.now() - timedelta(days=days_ago))
    reservation = ReservationFactory(session=session, user=user)
    Attendance.objects.create(reservation=reservation, status=AttendanceStatus.ABSENT, marked_at=timezone.now())


def _studio() -> None:
    avatar = UserFactory(last_name="Avatar", avatar="avatars/emma.png", pending_email="neuve@example.fr")
    UserFactory(last_name="Sans", email_confirmed_at=None, country="Belgique", address="1 rue Haute")
    StaffFactory(last_name="Admin")
    SupervisorFactory(last_name="Superviseur")
    UserFactory(last_name="Professeur", role=Role.INSTRUCTOR)
    User.objects.filter(last_name="Sans").update(date_joined=timezone.now() - timedelta(days=400))
    for days in (3, 10):
        _absent(avatar, days)
    present = ReservationFactory(user=avatar, session=CourseSessionFactory(start=timezone.now() - timedelta(days=1)))
    Attendance.objects.create(reservation=present, status=AttendanceStatus.PRESENT)  # a presence is no no-show


def _expected(actor: User, *, search: str = "", newest_first: bool = False) -> list[dict]:
    """Every account holding each word of `search` in its name or e-mail, by name (then id) or, `newest_first`, by
    date joined, newest first, then role and id."""
    words = [word.lower() for word in search.split()]
    users = [
        u for u in User.objects.all() if all(w in f"{u.first_name}\n{u.last_name}\n{u.email}".lower() for w in words)
    ]
    if newest_first:
        users.sort(key=lambda u: (u.role, u.pk))
        users.sort(key=lambda u: u.date_joined, reverse=True)
    else:
        users.sort(key=lambda u: (u.last_name, u.first_name, u.pk))
    return [_row(u, actor=actor) for u in users]


@pytest.mark.parametrize("actor_factory", [StaffFactory, SupervisorFactory])
def test_each_user_row_is_the_account_as_staff_read_it(api_client, actor_factory):
    actor = actor_factory(last_name="Actrice")
    _studio()
    api_client.force_authenticate(actor)
    everyone = _expected(actor)
    for query, rows in (
        ({}, everyone),
        ({"ordering": "-date_joined,role"}, _expected(actor, newest_first=True)),
        ({"search": "ava"}, _expected(actor, search="ava")),
        ({"search": "AVA example"}, _expected(actor, search="ava example")),
        ({"page_size": 2, "page": 2}, everyone),
    ):
        body = api_client.get(USERS, query).json()
        page, size = query.get("page", 1), query.get("page_size", 10)
        assert body["count"] == len(rows)
        assert body["results"] == rows[(page - 1) * size : page * size]
        assert list(body["results"][0]) == list(rows[0])  # the same fields in the same order
    assert {row["can_edit"] for row in everyone} == ({True} if actor.role == Role.ADMIN else {True, False})
    assert [row["no_shows"] for row in everyone if row["last_name"] == "Avatar"] == [2]


def test_the_pagination_envelope(api_client, staff):
    UserFactory.create_batch(4)
    api_client.force_authenticate(staff)
    body = api_client.get(USERS, {"page_size": 2, "page": 2, "search": "example"}).json()
    assert body["count"] == 5
    assert body["next"] == "http://testserver/api/users?page=3&page_size=2&search=example"
    assert body["previous"] == "http://testserver/api/users?page_size=2&search=example"
    assert api_client.get(USERS, {"page": 4, "page_size": 2}).status_code == 404


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"page": "0"}, "page", "Assurez-vous que cette valeur est supérieure ou égale à\u00a01."),
        ({"page": ""}, "page", "Un nombre entier valide est requis."),
        ({"page_size": "101"}, "page_size", "Assurez-vous que cette valeur est inférieure ou égale à 100."),
        ({"search": "x" * 101}, "search", "Ce texte est trop long : 100 caractères au plus."),
    ],
)
def test_a_query_out_of_bounds_is_refused_in_french(api_client, staff, query, field, message):
    api_client.force_authenticate(staff)
    response = api_client.get(USERS, query)
    assert response.status_code == 400
    assert response.json()["error"] == message and response.json()["errors"][field] == [message]


def test_the_default_order_of_the_users_list_has_its_index():
    """The first page in the default order (last name, first name, id) is read from an index in that order, not by
    sorting every account."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, User._meta.db_table)
    assert any(c["index"] and c["columns"] == ["last_name", "first_name", "id"] for c in constraints.values())
