"""The demo's promo code and discovery offer (idempotent): BIENVENUE15, 15 % off any purchase once per member, and
a "Cours découverte" tariff sold once per person (docs/decisions.md 60), so that the order modal, the tarifs page and
the dashboard's sections show both. Each is created once: a code or an offer staff changed or deleted since is left
as they made it (the offer is not created again while any tariff is a discovery offer)."""

from decimal import Decimal

from django.db import transaction

from courses.models import Course, Tariff, TariffType

from .models import PromoCode, PromoKind

DEMO_PROMO_CODE = "BIENVENUE15"
DEMO_DISCOVERY_TITLE = "Cours découverte"
DEMO_DISCOVERY_COURSE = "Pole Dance Débutant"


@transaction.atomic
def promo_seed(*, stdout=None) -> None:
    _, code_created = PromoCode.objects.get_or_create(
        code=DEMO_PROMO_CODE,
        defaults={
            "label": "Bienvenue : 15 % sur votre premier achat",
            "kind": PromoKind.PERCENT,
            "value": Decimal("15"),
            "max_uses_per_member": 1,
        },
    )
    offer_created = False
    if (
        not Tariff.objects.filter(discovery_offer=True).exists()
        and not Tariff.objects.filter(title=DEMO_DISCOVERY_TITLE).exists()
    ):
        Tariff.objects.create(
            title=DEMO_DISCOVERY_TITLE,
            type=TariffType.COURSE,
            price=Decimal("15.00"),
            validity="1 mois",
            description="Votre tout premier cours au studio, à petit prix, pour essayer.",
            course=Course.objects.filter(title=DEMO_DISCOVERY_COURSE).first(),
            pass_credits=1,
            pass_validity_months=1,
            discovery_offer=True,
        )
        offer_created = True
    if stdout and (code_created or offer_created):
        stdout.write(f"  Offres : code promo {DEMO_PROMO_CODE} et offre découverte prêts.")
