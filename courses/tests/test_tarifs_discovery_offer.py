"""The tarifs page says which tariff is the "offre découverte" and that it is sold once per person
(docs/decisions.md 60), on its card and in its details; other tariffs say nothing of it."""

import pytest

from courses.tests.factories import TariffFactory

pytestmark = pytest.mark.django_db

ONCE = "une seule fois par personne"


def _part(html: str, anchor: str, end: str) -> str:
    part = html[html.index(anchor) :]
    return part[: part.index(end)]


def test_the_discovery_offer_is_named_and_said_once_per_person(client):
    offer = TariffFactory(title="Premier cours", price="15.00", discovery_offer=True)
    card = TariffFactory(title="Carte 10 cours", pass_credits=10, pass_validity_months=6)
    html = client.get("/tarifs").text

    offer_card = _part(html, f'id="tarif-{offer.pk}"', "</li>")
    assert "Une seule fois par personne : réservée à qui n'en a jamais profité" in offer_card
    assert "Offre découverte" in offer_card and ONCE in offer_card.lower()
    offer_details = _part(html, f'id="tarif-{offer.pk}-details"', "</article>")
    assert "Offre découverte" in offer_details and ONCE in offer_details.lower()
    other = _part(html, f'id="tarif-{card.pk}"', "</li>") + _part(html, f'id="tarif-{card.pk}-details"', "</article>")
    assert "Offre découverte" not in other and ONCE not in other.lower()
