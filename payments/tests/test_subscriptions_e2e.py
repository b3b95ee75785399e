"""Subscriptions in a browser: buy the annual plan on /tarifs with the simulator, see it on the profile, staff freeze it
in the dashboard, the member sees the new end of the commitment."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from courses.tests.factories import TariffFactory
from payments.subscriptions import periods
from payments.subscriptions.models import Subscription

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."


def test_buy_a_plan_see_it_staff_freeze_it_member_sees_the_new_end(page, live_server, login_as, member, staff):
    plan = TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{plan.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    # The later periods are debited from a SEPA mandate, signed before the first payment (Stripe's test IBAN).
    dialog.get_by_role("button", name="Enregistrer un moyen de paiement").click()
    dialog.get_by_label("Prélèvement SEPA").check()
    expect(dialog.locator("[data-mandate-text]")).to_contain_text("vous autorisez")
    dialog.get_by_label("IBAN").fill("FR14 2004 1010 0505 0001 3M02 606")
    dialog.get_by_label("Titulaire du compte").fill("Emma Petit")
    dialog.get_by_label("J'accepte le mandat de prélèvement SEPA").check()
    dialog.get_by_role("button", name="Signer le mandat").click()
    expect(dialog.get_by_text("Payé par : Prélèvement SEPA FR14 •••• 2606", exact=False)).to_be_visible()
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    dialog.get_by_role("button", name="Payer 55,00 €").click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    subscription = Subscription.objects.get(member=member)
    end = periods.commitment_ends_on(subscription)

    page.goto(live_server.url + "/user/profile")
    section = page.locator(".member-subscriptions")
    expect(section).to_contain_text("Abonnement annuel illimité")
    expect(section).to_contain_text("1 période payée sur 12 · 11 restantes")
    expect(section.locator("[data-subscription-end]")).to_have_text(end.strftime("%d/%m/%Y"))
    expect(section.locator("[data-saved-method]")).to_contain_text("Payé par : Prélèvement SEPA FR14 •••• 2606")

    login_as(staff)
    page.goto(live_server.url + "/admin/subscriptions")
    row = page.locator(f'[data-subscription-row="{subscription.pk}"]')
    expect(row).to_contain_text("Active")
    row.get_by_role("button", name=f"Geler l'abonnement {subscription.pk}").click()
    freeze = page.locator("dialog[open]")
    starts_on = timezone.localdate() + timedelta(days=1)
    freeze.get_by_label("Gel à partir du").fill(starts_on.isoformat())
    freeze.get_by_label("Nombre de semaines").fill("3")
    freeze.get_by_label("Raison").fill("Blessure au poignet")
    freeze.get_by_role("button", name="Geler").click()
    expect(page.get_by_text("Abonnement gelé : la fin d'engagement est décalée.")).to_be_visible()
    new_end = end + timedelta(weeks=3)
    expect(row.locator("[data-subscription-end]")).to_have_text(new_end.strftime("%d/%m/%Y"))

    login_as(member)
    page.goto(live_server.url + "/user/profile")
    expect(page.locator(".member-subscriptions [data-subscription-end]")).to_have_text(new_end.strftime("%d/%m/%Y"))
