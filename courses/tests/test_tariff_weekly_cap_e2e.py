"""Staff see and edit a subscription's weekly cap in the dashboard's tariff form (docs/decisions.md 26), in Chromium."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from courses.services.catalogue import MSG_TARIFF_WEEKLY_CAP_INVALID

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def test_staff_set_the_quarterly_plans_cap_in_the_tariff_form(page, live_server, login_as, staff):
    from courses.models import Tariff
    from courses.tests.factories import TariffFactory

    tariff = TariffFactory(
        title="Abonnement trimestriel",
        type="abonnement",
        price=Decimal("120.00"),
        frequency="par trimestre",
        description="Un cours par semaine pendant trois mois.",
        pass_unlimited=True,
        pass_validity_months=3,
    )
    login_as(staff)
    page.goto(live_server.url + "/admin/tarifs")
    row = page.locator(".dash-table tbody tr").filter(has_text="Abonnement trimestriel")
    expect(row.locator('td[data-label="Cours / semaine"]')).to_have_text("Illimité")
    row.get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = page.locator("dialog[open]")
    cap = dialog.get_by_label("Cours par semaine (0 = illimité)")
    expect(cap).to_have_value("0")
    cap.fill("15")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator(".field-error", has_text=MSG_TARIFF_WEEKLY_CAP_INVALID)).to_be_visible()
    assert Tariff.objects.get(pk=tariff.pk).pass_weekly_cap == 0
    cap.fill("1")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status")).to_contain_text("Enregistré avec succès.")
    assert Tariff.objects.get(pk=tariff.pk).pass_weekly_cap == 1
    expect(row.locator('td[data-label="Cours / semaine"]')).to_have_text("1")
