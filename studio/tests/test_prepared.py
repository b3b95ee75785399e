"""studio.prepared: a queryset compiled once and run again with new values gives what the queryset itself gives, on
SQLite and on PostgreSQL (the SQL and the column conversions are each engine's)."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.db.models import Case, F, Value, When
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation
from bookings.tests.factories import PassFactory, ReservationFactory
from studio.prepared import PreparedQuery

pytestmark = [pytest.mark.django_db, pytest.mark.database]


def passes_of(member_id):
    return (
        Pass.objects.filter(member_id=member_id)
        .order_by("-expires_on", "-id")
        .values_list("id", "title", "credits_left", "starts_on", "expires_on", "created_at")
    )


def test_the_rows_are_the_querysets_for_each_value_and_the_sql_is_compiled_once():
    first, second = UserFactory(), UserFactory()
    for member, days in ((first, (10, 40)), (second, (20,))):
        for d in days:
            PassFactory(member=member, expires_on=timezone.localdate() + timedelta(days=d))
    prepared = PreparedQuery(passes_of, member_id="int")
    for member in (first, second, first):
        rows = prepared.rows(member_id=member.pk)
        assert [tuple(r) for r in rows] == list(passes_of(member.pk))
        assert isinstance(rows[0][3], date) and timezone.is_aware(rows[0][5])  # converted as values_list() does
    assert prepared.dicts(member_id=second.pk) == list(
        Pass.objects.filter(member_id=second.pk).values("id", "title", "credits_left", "starts_on", "expires_on",
                                                        "created_at")
    )  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        page = prepared.rows(member_id=first.pk, limit=1, offset=1)
    assert [tuple(r) for r in page] == list(passes_of(first.pk))[1:2]
    assert len(queries) == 1
    assert prepared.rows(member_id=UserFactory().pk) == []
    assert PreparedQuery(passes_of, member_id=int).rows(member_id=second.pk) == prepared.rows(member_id=second.pk)


def test_a_datetime_parameter_used_several_times_takes_the_new_value_everywhere():
    member = UserFactory()
    now = timezone.now()
    past = ReservationFactory(user=member, session__start=now - timedelta(days=2))
    soon = ReservationFactory(user=member, session__start=now + timedelta(days=1))
    later = ReservationFactory(user=member, session__start=now + timedelta(days=5))

    def ordered(member_id, now):
        return (
            Reservation.objects.filter(user_id=member_id)
            .annotate(is_past=Case(When(session__start__lte=now, then=Value(1)), default=Value(0)))
            .order_by("is_past", Case(When(session__start__gt=now, then=F("session__start"))).asc(), "-session__start")
            .values_list("id", flat=False)
        )

    prepared = PreparedQuery(ordered, member_id="int", now="datetime")
    assert [r[0] for r in prepared.rows(member_id=member.pk, now=now)] == [soon.pk, later.pk, past.pk]
    in_three_days = now + timedelta(days=3)
    assert [r[0] for r in prepared.rows(member_id=member.pk, now=in_three_days)] == [later.pk, soon.pk, past.pk]
    assert [r[0] for r in prepared.rows(member_id=member.pk, now=in_three_days)] == [
        r[0] for r in ordered(member.pk, in_three_days)
    ]


def test_a_parameter_the_query_does_not_use_is_refused_at_the_first_run():
    prepared = PreparedQuery(lambda member_id: Pass.objects.values_list("id"), member_id="int")
    with pytest.raises(ValueError, match="member_id"):
        prepared.rows(member_id=1)
    with pytest.raises(TypeError):
        PreparedQuery(lambda title: Pass.objects.filter(title=title).values_list("id"), title="str")


@pytest.mark.postgres
def test_on_postgresql_outside_a_transaction_the_query_is_a_prepared_statement():
    """Planned once per connection (studio.statements): EXECUTE outside transactions, the plain SQL inside one (a
    lost statement there would abort it), the same rows either way, with a limit too."""
    from django.db import transaction

    member = UserFactory()
    for days in (10, 40, 70):
        PassFactory(member=member, expires_on=date.today() + timedelta(days=days))
    query = PreparedQuery(passes_of, member_id="int")
    expected = list(passes_of(member.pk))
    newcomer = UserFactory()
    connection.close()
    with CaptureQueriesContext(connection) as run:
        assert query.rows(member_id=member.pk) == expected
        assert query.rows(member_id=member.pk, limit=2) == expected[:2]
        assert query.dicts(member_id=newcomer.pk) == []
        # A later page's SQL holds its offset: not prepared, or each page visited would stay in the connection.
        assert query.rows(member_id=member.pk, limit=2, offset=1) == expected[1:3]
    assert [q["sql"].split()[0] for q in run.captured_queries] == ["EXECUTE", "EXECUTE", "EXECUTE", "SELECT"]
    with transaction.atomic(), CaptureQueriesContext(connection) as run:
        assert query.rows(member_id=member.pk) == expected
    assert run.captured_queries[0]["sql"].startswith("SELECT ")
