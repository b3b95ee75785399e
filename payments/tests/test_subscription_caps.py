"""Weekly caps of subscriptions (docs/decisions.md 26): counted Monday–Sunday in Europe/Paris, under the pass's lock."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from freezegun import freeze_time

from bookings.services.pass_rules import MSG_PASS_WEEKLY_CAP
from courses.management.commands.seed_demo import seed_catalogue
from courses.models import Tariff
from courses.tests.factories import TariffFactory

from .test_subscriptions import book, buy, session_on

pytestmark = pytest.mark.django_db


@pytest.fixture
def quarterly(db):
    return TariffFactory(
        title="Abonnement trimestriel",
        type="abonnement",
        price=Decimal("120.00"),
        frequency="par trimestre",
        validity="3 mois",
        pass_unlimited=True,
        pass_validity_months=3,
        pass_weekly_cap=1,
    )


@freeze_time("2030-01-07 10:00:00")  # a Monday
def test_a_cap_of_one_class_a_week_refuses_a_second_class_the_same_week(api_client, member, quarterly):
    subscription = buy(api_client, member, quarterly)
    assert (subscription.periods_committed, subscription.periods_paid) == (1, 1)
    pass_obj = subscription.granted_pass
    assert book(api_client, member, session_on(date(2030, 1, 8)), pass_obj).status_code == 201
    response = book(api_client, member, session_on(date(2030, 1, 13), hour=20), pass_obj)  # Sunday, same week
    assert response.status_code == 409
    assert response.json()["error"] == MSG_PASS_WEEKLY_CAP.format(cap=1)
    assert response.json()["error"] == (
        "Votre abonnement permet 1 cours par semaine (du lundi au dimanche) : vous avez déjà réservé cette semaine-là."
    )
    # the next Monday is a new week
    assert book(api_client, member, session_on(date(2030, 1, 14)), pass_obj).status_code == 201


@freeze_time("2030-01-07 10:00:00")
def test_an_unlimited_plan_has_no_cap(api_client, member):
    tariff = TariffFactory(
        type="abonnement", price=Decimal("55.00"), frequency="par mois", pass_unlimited=True, pass_validity_months=12
    )
    pass_obj = buy(api_client, member, tariff).granted_pass
    for day in (8, 9, 10):
        assert book(api_client, member, session_on(date(2030, 1, day)), pass_obj).status_code == 201


@freeze_time("2030-01-07 10:00:00")
def test_the_week_is_counted_in_paris_time(api_client, member, quarterly):
    pass_obj = buy(api_client, member, quarterly).granted_pass
    # Sunday 23:30 in Paris is Sunday 22:30 UTC: the same week as Tuesday
    sunday_late = session_on(date(2030, 1, 13), hour=23)
    sunday_late.start = sunday_late.start + timedelta(minutes=30)
    sunday_late.save(update_fields=["start"])
    assert book(api_client, member, sunday_late, pass_obj).status_code == 201
    assert book(api_client, member, session_on(date(2030, 1, 8)), pass_obj).status_code == 409


@freeze_time("2030-01-07 10:00:00")  # a Monday
def test_the_demo_quarterly_plan_is_one_class_a_week(api_client, member):
    """The demo's "Abonnement trimestriel" ("Un cours par semaine pendant trois mois") bought online: Monday is
    booked, Tuesday and Thursday of the same week are refused."""
    seed_catalogue()
    tariff = Tariff.objects.get(title="Abonnement trimestriel")
    pass_obj = buy(api_client, member, tariff).granted_pass
    assert book(api_client, member, session_on(date(2030, 1, 7)), pass_obj).status_code == 201
    for day in (8, 10):
        refused = book(api_client, member, session_on(date(2030, 1, day)), pass_obj)
        assert refused.status_code == 409 and refused.json()["error"] == MSG_PASS_WEEKLY_CAP.format(cap=1)
