"""/cartes-cadeaux: public (a visitor checks a balance and is asked to log in to buy), with the giftable tariffs and
the amounts allowed in the island's props; a member's own details only for that member; listed in the sitemap."""

import json
import re
from decimal import Decimal

import pytest

from courses.models import TariffType
from courses.tests.factories import TariffFactory

pytestmark = pytest.mark.django_db


def _props(response):
    match = re.search(rb'<script id="[^"]*gift-cards[^"]*" type="application/json">(.*?)</script>', response.content)
    assert match, "the island's props are rendered with json_script"
    return json.loads(match.group(1))


def test_a_visitor_sees_the_page_with_the_giftable_tariffs_only(client):
    card = TariffFactory(title="Carte 10 cours", price=Decimal("180.00"))
    TariffFactory(title="EVJF", type=TariffType.EVENT, price=Decimal("40.00"))
    TariffFactory(title="Abonnement illimité", price=Decimal("90.00"), pass_unlimited=True, pass_validity_months=1)
    response = client.get("/cartes-cadeaux")
    assert response.status_code == 200
    props = _props(response)
    assert props["user"] is None and props["loginUrl"] == "/login?next=/cartes-cadeaux"
    assert props["tariffs"] == [{"id": card.pk, "title": "Carte 10 cours", "price": "180.00"}]
    assert (props["minAmount"], props["maxAmount"]) == ("20.00", "500.00")
    assert "/cartes-cadeaux" in client.get("/sitemap.xml").content.decode()


def test_a_member_gets_their_own_details(client, member):
    client.force_login(member)
    props = _props(client.get("/cartes-cadeaux"))
    assert props["user"]["email"] == member.email
