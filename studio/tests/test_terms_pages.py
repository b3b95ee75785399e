"""The terms of sale, the accessibility statement and the consumer mediator of the legal notice."""

import pytest

pytestmark = pytest.mark.django_db


def test_terms_of_sale_page_shows_the_demo_text_with_the_withdrawal_right(client):
    response = client.get("/cgv")
    assert response.status_code == 200
    html = response.text
    assert "<h1>Conditions générales de vente</h1>" in html
    assert "Droit de rétractation" in html
    assert "quatorze jours" in html
    assert "Formulaire de rétractation" in html
    assert "Pas de droit de rétractation pour une séance à date fixe" in html
    assert "Version 2026-11" in html


def test_terms_of_sale_text_and_version_are_configuration(client, settings):
    settings.TERMS_OF_SALE = {"version": "2027-01", "template": "legal/withdrawal_form.txt"}
    html = client.get("/cgv").text
    assert "Version 2027-01" in html
    assert "Je/Nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation" in html


def test_accessibility_statement_is_partial_with_a_contact(client, settings):
    html = client.get("/accessibilite").text
    assert "<h1>Déclaration d'accessibilité</h1>" in html
    assert "partiellement conforme" in html
    assert settings.STUDIO["email"] in html
    assert "Défenseur des droits" in html


def test_footer_links_to_the_terms_and_the_accessibility_statement(client):
    html = client.get("/").text
    assert '<a href="/cgv">Conditions générales de vente</a>' in html
    assert '<a href="/accessibilite">Accessibilité : partiellement conforme</a>' in html


def test_legal_notice_names_the_consumer_mediator(client, settings):
    settings.CONSUMER_MEDIATOR = {
        "name": "Médiateur Test",
        "address": "1 place du Test, 75001 Paris",
        "website": "https://mediateur.example",
    }
    html = client.get("/mentions-legales").text
    assert "Médiation de la consommation" in html
    assert "Médiateur Test" in html and "1 place du Test, 75001 Paris" in html
    assert 'href="https://mediateur.example"' in html
