"""The staff's users list builds its rows from `.values()` rows and compiled queries, for speed; each row is exactly
what StaffUserOutput writes (avatar or the default picture, e-mail confirmed or not, a change waiting, the no-shows,
who may edit whom), for an admin and for a supervisor."""

import json
from datetime import timedelta

import pytest
from django.db.models import IntegerField, Value
from django.utils import timezone

from accounts import selectors
from accounts.apis.outputs import StaffUserOutput
from accounts.models import Role, User
from accounts.tests.factories import StaffFactory, SupervisorFactory, UserFactory
from studio import compiled_queries
from studio.registry import provided

# The no-shows are counted one way on SQLite, another on PostgreSQL (bookings 0015): run on both.
pytestmark = [pytest.mark.django_db, pytest.mark.database]


@pytest.fixture(autouse=True)
def _fresh_templates():
    compiled_queries.clear()


def _expected(actor, *, search="", ordering="", page=1, size=10):
    qs = selectors.user_list(search=search, ordering=ordering).annotate(
        no_shows=provided("user_no_shows", default=Value(0, output_field=IntegerField()))
    )
    users = qs[(page - 1) * size : page * size]
    return qs.count(), json.loads(json.dumps(StaffUserOutput(users, many=True, context={"actor": actor}).data))


@pytest.mark.parametrize("actor_factory", [StaffFactory, SupervisorFactory])
def test_each_user_row_is_what_staff_user_output_writes(api_client, actor_factory):
    actor = actor_factory(last_name="Actrice")
    UserFactory(last_name="Avatar", avatar="avatars/emma.png", pending_email="neuve@example.fr")
    UserFactory(last_name="Sans", email_confirmed_at=None, country="Belgique", address="1 rue Haute")
    StaffFactory(last_name="Admin")
    SupervisorFactory(last_name="Superviseur")
    UserFactory(last_name="Professeur", role=Role.INSTRUCTOR)
    User.objects.filter(last_name="Sans").update(date_joined=timezone.now() - timedelta(days=400))
    api_client.force_authenticate(actor)
    for query in ({}, {"ordering": "-date_joined,role"}, {"search": "a"}, {"page_size": 2, "page": 2}):
        for _ in range(2):  # compiled, then from the kept SQL
            body = api_client.get("/api/users", query).json()
            count, rows = _expected(
                actor,
                search=query.get("search", ""),
                ordering=query.get("ordering", ""),
                page=query.get("page", 1),
                size=query.get("page_size", 10),
            )
            assert body["count"] == count and body["results"] == rows
            assert list(body["results"][0]) == list(rows[0])
    assert {row["can_edit"] for row in rows} == {True, False} or actor.role == Role.ADMIN


def test_the_no_shows_are_a_plain_count_per_member():
    """Each row's no-shows are `SELECT COUNT(*)` over that member's absences, with no GROUP BY (PostgreSQL
    then reads no member id back from each booking: ~0.86 -> ~0.77 ms of its CPU for the bench's first page)."""
    from bookings.models import Attendance, AttendanceStatus
    from bookings.tests.factories import ReservationFactory

    emma, zoe = UserFactory(), UserFactory()
    for person, marks in ((emma, ["absent", "absent", "present"]), (zoe, ["present"])):
        for mark in marks:
            Attendance.objects.create(
                reservation=ReservationFactory(user=person), status=mark, marked_at=timezone.now()
            )
    qs = User.objects.annotate(no_shows=provided("user_no_shows")).order_by("pk")
    sql = str(qs.query)
    assert "GROUP BY" not in sql and "COUNT(*)" in sql
    assert dict(qs.values_list("pk", "no_shows")) == {emma.pk: 2, zoe.pk: 0}
    assert AttendanceStatus.ABSENT == "absent"


def test_the_default_order_of_the_users_list_has_its_index():
    """The first page in the default order (last name, first name, id) is read from an index in that
    order, not by sorting every account (PostgreSQL CPU for the bench's first page ~0.77 -> ~0.70 ms)."""
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, User._meta.db_table)
    assert any(c["index"] and c["columns"] == ["last_name", "first_name", "id"] for c in constraints.values())
