"""The demo seeds one promo code (BIENVENUE15, 15 % on any purchase, once per member) and one discovery-offer tariff,
once: seeding again, or over a studio whose staff changed them, adds nothing and changes nothing."""

from decimal import Decimal
from io import StringIO

import pytest

from courses.models import Tariff
from courses.tests.factories import TariffFactory
from offers.models import PromoCode
from offers.promo_seed import DEMO_DISCOVERY_TITLE, DEMO_PROMO_CODE, promo_seed
from payments.services.offers import order_offers_price

pytestmark = pytest.mark.django_db


def test_the_code_and_the_offer_are_seeded_once(member):
    out = StringIO()
    promo_seed(stdout=out)
    promo_seed(stdout=out)
    assert out.getvalue().count("Offres : code promo BIENVENUE15 et offre découverte prêts.") == 1
    code = PromoCode.objects.get()
    assert (code.code, code.kind, code.value, code.max_uses_per_member, code.active) == (
        DEMO_PROMO_CODE,
        "percent",
        Decimal("15.00"),
        1,
        True,
    )
    assert not code.tariffs.exists()  # every purchase
    offer = Tariff.objects.get(discovery_offer=True)
    assert (offer.title, offer.price, offer.pass_credits) == (DEMO_DISCOVERY_TITLE, Decimal("15.00"), 1)
    card = TariffFactory(price=Decimal("190.00"))
    priced = order_offers_price(user=member, price=card.price, tariff_id=card.pk, promo_code="bienvenue15")
    assert (priced.discount, priced.total) == (Decimal("28.50"), Decimal("161.50"))


def test_what_staff_changed_is_left_as_they_made_it():
    promo_seed()
    PromoCode.objects.filter(code=DEMO_PROMO_CODE).update(active=False)
    Tariff.objects.filter(discovery_offer=True).update(title="Premier cours", price=Decimal("12.00"))
    promo_seed()
    assert PromoCode.objects.get().active is False
    assert list(Tariff.objects.filter(discovery_offer=True).values_list("title", "price")) == [
        ("Premier cours", Decimal("12.00"))
    ]
