"""The requests move from bookings and messaging into quotes without a row copied (quotes 0001, payments 0013,
bookings 0018, messaging 0003): rows written as the old apps wrote them are read by quotes' models afterwards, the
deposit orders still point at them, and their content types (so permissions and admin log entries) follow.

Migrated back to before the move, rows are written on the old models, then the migrations run forward."""

from datetime import date, time
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from payments.models import PaymentOrder
from quotes.models import PartyReservation, RoomRentalRequest

pytestmark = pytest.mark.database  # SQL migrations: run on SQLite and again on PostgreSQL

MOVED = ("partyreservation", "partyrequestevent", "roomrentalrequest", "rentalrequestevent")


def _forward():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _migrate_back():
    """quotes unapplied, with the migrations of the other apps that depend on it (Django plans that when migrating
    back); the models as they were then."""
    _forward()  # forwards first: a plan cannot go both ways
    executor = MigrationExecutor(connection)
    executor.migrate([("quotes", None)])
    executor.loader.build_graph()
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


def _labels(content_type) -> dict[str, str]:
    return dict(content_type.objects.filter(model__in=MOVED).values_list("model", "app_label"))


@pytest.mark.django_db(transaction=True)
def test_rows_written_by_bookings_and_messaging_are_quotes_rows_after_the_move():
    old = _migrate_back()
    try:
        assert _labels(old.get_model("contenttypes", "ContentType")) == {
            "partyreservation": "bookings",
            "partyrequestevent": "bookings",
            "roomrentalrequest": "messaging",
            "rentalrequestevent": "messaging",
        }
        member = old.get_model("accounts", "User").objects.create(email="lea@example.fr", first_name="Léa")
        party = old.get_model("bookings", "PartyReservation").objects.create(
            user=member,
            date=date(2031, 6, 7),
            time=time(15),
            participants=8,
            email=member.email,
            status="quoted",
            quote_amount=Decimal("200.00"),
            deposit_amount=Decimal("50.00"),
        )
        old.get_model("bookings", "PartyRequestEvent").objects.create(party=party, kind="quoted", note="Devis")
        rental = old.get_model("messaging", "RoomRentalRequest").objects.create(
            user=member, name="Léa", email=member.email, phone="0612345678", date=date(2031, 6, 8), time=time(10)
        )
        old.get_model("messaging", "RentalRequestEvent").objects.create(rental=rental, kind="cancelled")
        order = old.get_model("payments", "PaymentOrder").objects.create(
            order_id="DEPOSIT-1",
            provider="simulator",
            user=member,
            email=member.email,
            title="Acompte",
            amount=Decimal("50.00"),
            currency="EUR",
            date="2031-06-07",
            time="15:00",
            type="ACOMPTE_EVJF",
            status="COMPLETED",
            party=party,
        )
        content_type = old.get_model("contenttypes", "ContentType").objects.get(app_label="bookings", model=MOVED[0])
        permission = old.get_model("auth", "Permission").objects.get(
            content_type=content_type, codename="view_partyreservation"
        )
    finally:
        _forward()
    ContentType.objects.clear_cache()
    moved = PartyReservation.objects.get(pk=party.pk)
    assert (moved.status, moved.deposit_amount, moved.events.get().note) == ("quoted", Decimal("50.00"), "Devis")
    assert RoomRentalRequest.objects.get(pk=rental.pk).events.get().kind == "cancelled"
    assert PaymentOrder.objects.get(pk=order.pk).party == moved
    assert set(_labels(ContentType).values()) == {"quotes"}
    assert ContentType.objects.get_for_model(PartyReservation).pk == content_type.pk  # the same row, renamed
    assert Permission.objects.get(pk=permission.pk).content_type.app_label == "quotes"
