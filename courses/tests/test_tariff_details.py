"""Each tariff card's "Détails" leads to that tariff's own details: a class tariff to its course, a
class card or a subscription to its section on /tarifs, never to an unrelated course page or to /weekly."""

import re

import pytest

from courses.models import TariffType
from courses.tests.factories import CourseFactory, TariffFactory

pytestmark = pytest.mark.django_db


def _card(html: str, tariff) -> str:
    card = html[html.index(f'id="tarif-{tariff.pk}"') :]
    return card[: card.index("</li>")]


def _details_href(card: str) -> str:
    return re.search(r'<a [^>]*href="([^"]*)"[^>]*>Détails', card).group(1)


def test_card_and_subscription_details_lead_to_their_own_section_on_tarifs(client):
    course = CourseFactory(title="Pole Dance Tous niveaux")
    card = TariffFactory(
        title="Carte 10 cours", type=TariffType.PACKAGE, course=course, pass_credits=10, pass_validity_months=6
    )
    subscription = TariffFactory(
        title="Abonnement trimestriel",
        type=TariffType.SUBSCRIPTION,
        pass_unlimited=True,
        pass_validity_months=3,
        frequency="par trimestre",
        conditions="Sur présentation d'une carte étudiante.",
    )
    html = client.get("/tarifs").text

    for tariff in (card, subscription):
        href = _details_href(_card(html, tariff))
        assert href == f"#tarif-{tariff.pk}-details"
        assert f'id="tarif-{tariff.pk}-details"' in html  # the anchor exists on the page
    assert f"/courses/{course.pk}" not in _card(html, card)
    assert "/weekly" not in _card(html, subscription)

    card_details = html[html.index(f'id="tarif-{card.pk}-details"') :]
    card_details = card_details[: card_details.index("</article>")]
    assert "Carte 10 cours" in card_details and "10 cours, à réserver sur tous les cours du planning" in card_details
    assert "Valable 6 mois à partir de l'achat" in card_details
    sub_details = html[html.index(f'id="tarif-{subscription.pk}-details"') :]
    sub_details = sub_details[: sub_details.index("</article>")]
    assert "Accès illimité à tous les cours du planning" in sub_details
    assert "Sur présentation d&#x27;une carte étudiante." in sub_details


def test_a_class_tariff_details_lead_to_its_course(client):
    course = CourseFactory()
    single = TariffFactory(title="Cours à l'unité", type=TariffType.COURSE, course=course)
    assert _details_href(_card(client.get("/tarifs").text, single)) == f"/courses/{course.pk}"


def test_a_class_tariff_without_a_course_leads_to_its_section(client):
    single = TariffFactory(title="Cours d'essai", type=TariffType.COURSE)
    html = client.get("/tarifs").text
    assert _details_href(_card(html, single)) == f"#tarif-{single.pk}-details"
    assert f'id="tarif-{single.pk}-details"' in html
