import pytest

from quotes.views.pages import PARTY_LOGIN_URL

pytestmark = pytest.mark.django_db


def test_party_page_for_visitors_links_to_login_without_react(client):
    response = client.get("/evjf-evg")
    html = response.content.decode()
    assert "25 €" in html and "Gratuit" in html and "5 €" in html and "6 personnes" in html
    assert f'href="{PARTY_LOGIN_URL}"' in html
    assert 'data-island="party"' not in html


def test_party_page_for_members_mounts_the_form_island(client, member):
    client.force_login(member)
    html = client.get("/evjf-evg").content.decode()
    assert 'data-island="party"' in html
