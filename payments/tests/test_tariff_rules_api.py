"""The dashboard's tariff form edits every rule a tariff's passes apply (docs/decisions.md 51): the tariff's own
(classes, validity, weekly cap, future-bookings cap, commitment periods, courses covered) and its subscription plan's
(reduced rate, pause allowance), written at once by staff through `/api/tariff-rules`."""

import pytest

from courses.models import Tariff
from courses.serializers.catalogue import MSG_DISCOVERY_OFFER_INVALID
from courses.services import catalogue
from courses.tests.factories import CourseFactory, TariffFactory
from payments.subscriptions.apis.tariff_rules import MSG_PAUSE_WEEKS_INVALID, MSG_REDUCED_RATE_INVALID
from payments.subscriptions.models import PAUSE_WEEKS_PER_YEAR_DEFAULT, SubscriptionPlan

pytestmark = pytest.mark.django_db

RULES = "/api/tariff-rules"
SUBSCRIPTION = {
    "title": "Un cours par semaine",
    "price": "55.00",
    "type": "abonnement",
    "frequency": "par mois",
    "pass_unlimited": True,
    "pass_validity_months": 12,
}


def test_staff_create_a_tariff_with_every_rule(api_client, staff):
    barre, souplesse, _other = CourseFactory(), CourseFactory(), CourseFactory()
    api_client.force_authenticate(staff)
    payload = {
        **SUBSCRIPTION,
        "pass_weekly_cap": 1,
        "max_future_bookings": 3,
        "commitment_periods": 6,
        "covered_course_ids": [barre.pk, souplesse.pk],
        "reduced_rate": True,
        "pause_weeks_per_year": 2,
    }
    created = api_client.post(RULES, payload, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["pass_weekly_cap"] == 1 and body["max_future_bookings"] == 3 and body["commitment_periods"] == 6
    assert sorted(body["covered_course_ids"]) == sorted([barre.pk, souplesse.pk])
    assert body["reduced_rate"] is True and body["pause_weeks_per_year"] == 2
    tariff = Tariff.objects.get(pk=body["id"])
    assert set(tariff.covered_courses.all()) == {barre, souplesse}
    plan = SubscriptionPlan.objects.get(tariff=tariff)
    assert plan.reduced_rate is True and plan.pause_weeks_per_year == 2


def test_staff_change_the_rules_and_the_list_shows_them(api_client, staff, django_assert_max_num_queries):
    tariff = TariffFactory(type="abonnement", pass_unlimited=True, pass_validity_months=3)
    course = CourseFactory()
    api_client.force_authenticate(staff)
    changed = api_client.put(
        f"{RULES}/{tariff.pk}",
        {"pass_weekly_cap": 2, "pause_weeks_per_year": 0, "reduced_rate": None, "covered_course_ids": [course.pk]},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    TariffFactory.create_batch(3)
    with django_assert_max_num_queries(6):
        listed = {row["id"]: row for row in api_client.get(RULES).json()}
    row = listed[tariff.pk]
    assert row["pass_weekly_cap"] == 2 and row["pause_weeks_per_year"] == 0 and row["reduced_rate"] is None
    assert row["covered_course_ids"] == [course.pk]
    cleared = api_client.put(f"{RULES}/{tariff.pk}", {"covered_course_ids": []}, format="json")
    assert cleared.json()["covered_course_ids"] == [] and not tariff.covered_courses.exists()


def test_a_tariff_without_a_plan_shows_the_default_allowance(api_client, staff):
    tariff = TariffFactory()
    api_client.force_authenticate(staff)
    row = next(r for r in api_client.get(RULES).json() if r["id"] == tariff.pk)
    assert row["pause_weeks_per_year"] == PAUSE_WEEKS_PER_YEAR_DEFAULT and row["reduced_rate"] is None
    assert not SubscriptionPlan.objects.filter(tariff=tariff).exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("pause_weeks_per_year", 53, MSG_PAUSE_WEEKS_INVALID),
        ("pause_weeks_per_year", -1, MSG_PAUSE_WEEKS_INVALID),
        ("pause_weeks_per_year", "deux", MSG_PAUSE_WEEKS_INVALID),
        ("reduced_rate", "peut-être", MSG_REDUCED_RATE_INVALID),
        ("commitment_periods", 121, catalogue.MSG_TARIFF_COMMITMENT_INVALID),
        ("commitment_periods", -1, catalogue.MSG_TARIFF_COMMITMENT_INVALID),
        ("pass_weekly_cap", 15, catalogue.MSG_TARIFF_WEEKLY_CAP_INVALID),
        ("max_future_bookings", 101, catalogue.MSG_TARIFF_FUTURE_CAP_INVALID),
    ],
)
def test_a_wrong_rule_is_refused_in_french_and_nothing_changes(api_client, staff, field, value, message):
    tariff = TariffFactory(type="abonnement", pass_unlimited=True, pass_validity_months=3, pass_weekly_cap=1)
    SubscriptionPlan.objects.create(tariff=tariff, pause_weeks_per_year=4)
    api_client.force_authenticate(staff)
    response = api_client.put(f"{RULES}/{tariff.pk}", {"pass_weekly_cap": 2, field: value}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]
    tariff.refresh_from_db()
    assert tariff.pass_weekly_cap == 1 and tariff.subscription_plan.pause_weeks_per_year == 4


def test_an_unknown_covered_course_is_refused_in_french(api_client, staff):
    tariff = TariffFactory()
    api_client.force_authenticate(staff)
    response = api_client.put(f"{RULES}/{tariff.pk}", {"covered_course_ids": [999_999]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["covered_course_ids"] == [catalogue.MSG_TARIFF_COVERED_COURSE_NOT_FOUND]


def test_a_plan_rule_refused_by_the_tariff_leaves_the_plan_as_it_was(api_client, staff):
    """One transaction: the tariff's own refusal (a card without validity) keeps the plan's rules unchanged."""
    tariff = TariffFactory(type="forfait", pass_credits=10, pass_validity_months=6)
    api_client.force_authenticate(staff)
    response = api_client.put(
        f"{RULES}/{tariff.pk}", {"pass_validity_months": 0, "pause_weeks_per_year": 1}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"] == catalogue.MSG_TARIFF_PASS_NEEDS_VALIDITY
    assert not SubscriptionPlan.objects.filter(tariff=tariff).exists()


def test_staff_delete_a_tariff_and_its_plan(api_client, staff):
    tariff = TariffFactory()
    SubscriptionPlan.objects.create(tariff=tariff)
    api_client.force_authenticate(staff)
    assert api_client.delete(f"{RULES}/{tariff.pk}").status_code == 204
    assert not Tariff.objects.filter(pk=tariff.pk).exists()
    assert api_client.put(f"{RULES}/{tariff.pk}", {"title": "x"}, format="json").status_code == 404


def test_members_and_visitors_are_refused(api_client, member):
    tariff = TariffFactory()
    assert api_client.get(RULES).status_code in (401, 403)
    api_client.force_authenticate(member)
    assert api_client.get(RULES).status_code == 403
    assert api_client.put(f"{RULES}/{tariff.pk}", {"pass_weekly_cap": 0}, format="json").status_code == 403
    assert api_client.post(RULES, SUBSCRIPTION, format="json").status_code == 403


def test_the_messages_read_as_the_studio_writes_them():
    assert MSG_PAUSE_WEEKS_INVALID == (
        "Le nombre de semaines de suspension par an est un nombre entier de 0 (aucune) à 52."
    )
    assert MSG_REDUCED_RATE_INVALID == "Indiquez si le tarif est réduit : vrai, faux ou vide (déduit du titre)."
    assert catalogue.MSG_TARIFF_COMMITMENT_INVALID == (
        "Le nombre de périodes d'engagement est un nombre entier de 0 (la durée de validité) à 120."
    )
    assert catalogue.MSG_TARIFF_COVERED_COURSE_NOT_FOUND == "Un des cours couverts n'existe pas."


def test_staff_mark_a_tariff_as_the_discovery_offer_and_unmark_it(api_client, staff):
    api_client.force_authenticate(staff)
    created = api_client.post(
        RULES, {"title": "Premier cours", "price": "15.00", "type": "cours", "discovery_offer": True}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["discovery_offer"] is True
    tariff = Tariff.objects.get(pk=created.json()["id"])
    assert tariff.discovery_offer is True
    changed = api_client.put(f"{RULES}/{tariff.pk}", {"discovery_offer": False}, format="json")
    assert changed.status_code == 200, changed.json()
    tariff.refresh_from_db()
    assert tariff.discovery_offer is False and changed.json()["discovery_offer"] is False
    listed = api_client.get(RULES).json()
    assert [row["discovery_offer"] for row in listed if row["id"] == tariff.pk] == [False]


def test_a_discovery_flag_that_is_not_a_boolean_is_refused_in_french(api_client, staff):
    tariff = TariffFactory(discovery_offer=False)
    api_client.force_authenticate(staff)
    refused = api_client.put(f"{RULES}/{tariff.pk}", {"discovery_offer": "peut-être"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"]["discovery_offer"] == [MSG_DISCOVERY_OFFER_INVALID]
    tariff.refresh_from_db()
    assert tariff.discovery_offer is False
