"""A subscription's weekly cap (docs/decisions.md 26) is part of what a tariff grants: the demo data sets the caps its
own texts promise ("Un cours par semaine" is a cap of 1), and staff see and edit it in the dashboard's tariff form."""

import pytest

from courses.management.commands.seed_demo import seed_catalogue
from courses.models import Tariff
from courses.seed_data import TARIFFS
from courses.services import catalogue
from courses.tests.factories import TariffFactory

pytestmark = pytest.mark.django_db

SUBSCRIPTION = {"type": "abonnement", "pass_unlimited": True, "pass_validity_months": 3}


def test_the_demo_tariffs_cap_what_their_texts_promise():
    seed_catalogue()
    caps = dict(Tariff.objects.values_list("title", "pass_weekly_cap"))
    assert caps["Abonnement trimestriel"] == 1  # "Un cours par semaine pendant trois mois."
    assert caps["Abonnement trimestriel étudiant"] == 1  # "L'abonnement trimestriel à tarif réduit"
    for data in TARIFFS:
        text = f"{data['title']} {data['description']}".lower()
        cap = caps[data["title"]]
        if "un cours par semaine" in text:
            assert cap == 1, data["title"]
        if "illimité" in text or "autant que vous le voulez" in text or not data.get("pass_unlimited"):
            assert cap == 0, data["title"]


def test_seeding_again_keeps_the_caps():
    seed_catalogue()
    seed_catalogue()
    assert Tariff.objects.filter(title="Abonnement trimestriel").get().pass_weekly_cap == 1
    assert Tariff.objects.filter(title="Abonnement trimestriel").count() == 1


def test_staff_see_and_set_the_weekly_cap(api_client, staff):
    api_client.force_authenticate(staff)
    created = api_client.post(
        "/api/tarifs", {"title": "Trimestre", "price": "120.00", **SUBSCRIPTION, "pass_weekly_cap": 1}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["pass_weekly_cap"] == 1
    tariff_id = created.json()["id"]
    changed = api_client.put(f"/api/tarifs/{tariff_id}", {"pass_weekly_cap": 2}, format="json")
    assert changed.status_code == 200 and changed.json()["pass_weekly_cap"] == 2
    listed = {row["id"]: row for row in api_client.get("/api/tarifs").json()}
    assert listed[tariff_id]["pass_weekly_cap"] == 2
    unlimited = api_client.put(f"/api/tarifs/{tariff_id}", {"pass_weekly_cap": 0}, format="json")
    assert unlimited.status_code == 200 and Tariff.objects.get(pk=tariff_id).pass_weekly_cap == 0


@pytest.mark.parametrize("value", [-1, 15, 1.5, "deux", None, True])
def test_a_weekly_cap_that_is_not_a_whole_number_of_classes_is_refused_in_french(api_client, staff, value):
    tariff = TariffFactory(**SUBSCRIPTION, pass_weekly_cap=1)
    api_client.force_authenticate(staff)
    response = api_client.put(f"/api/tarifs/{tariff.pk}", {"pass_weekly_cap": value}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["pass_weekly_cap"] == [catalogue.MSG_TARIFF_WEEKLY_CAP_INVALID]
    tariff.refresh_from_db()
    assert tariff.pass_weekly_cap == 1


def test_a_class_card_may_be_capped_too(api_client, staff):
    """The cap is a booking rule of the pass the tariff grants (bookings' PassRule), whatever its kind."""
    api_client.force_authenticate(staff)
    card = {"title": "Carte", "price": "100", "type": "forfait", "pass_credits": 10, "pass_validity_months": 6}
    created = api_client.post("/api/tarifs", {**card, "pass_weekly_cap": 2}, format="json")
    assert created.status_code == 201 and created.json()["pass_weekly_cap"] == 2


def test_a_tariff_left_without_a_cap_is_unlimited(api_client, staff):
    api_client.force_authenticate(staff)
    created = api_client.post("/api/tarifs", {"title": "Mois", "price": "55", **SUBSCRIPTION}, format="json")
    assert created.status_code == 201 and created.json()["pass_weekly_cap"] == 0


def test_the_messages_read_as_the_studio_writes_them():
    assert catalogue.MSG_TARIFF_WEEKLY_CAP_INVALID == (
        "Le nombre de cours par semaine est un nombre entier de 0 (illimité) à 14."
    )
