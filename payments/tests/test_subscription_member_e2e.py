"""The member ends or pauses their own subscription in a phone's browser (390 px, docs/decisions.md 46): at most three
clicks from the profile to the confirmation of the end; a pause of two weeks shows the moved dates."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Pass
from payments.subscriptions import periods
from payments.subscriptions.models import Subscription, SubscriptionStatus
from studio.models import OutgoingEmail

from .test_subscription_concurrency import _subscribe

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_ending_the_subscription_takes_two_clicks_from_the_profile(page, live_server, login_as, member):
    subscription = _subscribe(member)
    # the commitment's periods stay due: access runs to the commitment's end
    last_day = periods.commitment_ends_on(subscription).strftime("%d/%m/%Y")
    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/user/profile")
    clicks = 0
    page.locator(".member-subscriptions").get_by_role("link", name="Résilier mon abonnement").click()
    clicks += 1
    expect(page.locator("[data-last-day]")).to_contain_text(f"jusqu'au {last_day} inclus")
    expect(page.locator("[data-periods-left]")).to_contain_text("il reste 11 échéances de 55,00 € (605,00 € au total)")
    expect(page.locator("[data-periods-left]")).to_contain_text("seront prélevées comme prévu")
    expect(page.get_by_text("L'abonnement ne sera pas renouvelé.")).to_be_visible()
    page.get_by_role("button", name="Confirmer la résiliation").click()
    clicks += 1
    confirmation = page.locator("[data-terminate-confirmation]")
    expect(confirmation).to_contain_text(
        f"Votre résiliation est enregistrée : vous pouvez réserver jusqu'au {last_day}. Les échéances encore dues au "
        "titre de votre engagement (11 × 55,00 €, soit 605,00 € au total) seront prélevées comme prévu ; "
        "l'abonnement ne sera pas renouvelé."
    )
    expect(confirmation).to_contain_text("Un e-mail de confirmation vous est envoyé.")
    assert clicks <= 3
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.ACTIVE
    assert OutgoingEmail.objects.filter(template="payments_subscription_terminated").count() == 1
    # the page fits the phone: nothing wider than the viewport
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_pausing_two_weeks_shows_the_moved_dates(page, live_server, login_as, member):
    subscription = _subscribe(member)
    pass_end = Pass.objects.get(pk=subscription.granted_pass_id).expires_on
    commitment_end = periods.commitment_ends_on(subscription)
    starts_on = timezone.localdate() + timedelta(days=1)
    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/user/profile")
    page.locator(".member-subscriptions").get_by_role("link", name="Suspendre").click()
    expect(page.locator("[data-pass-expires]")).to_have_text(pass_end.strftime("%d/%m/%Y"))
    page.get_by_label("Début de la suspension").fill(starts_on.isoformat())
    page.get_by_label("Nombre de semaines").fill("2")
    page.get_by_role("button", name="Suspendre").click()
    last = starts_on + timedelta(weeks=2) - timedelta(days=1)
    expect(page.locator("[data-pause-confirmation]")).to_contain_text(
        f"Votre abonnement est suspendu du {starts_on:%d/%m/%Y} au {last:%d/%m/%Y}"
    )
    expect(page.locator("[data-pass-expires]")).to_have_text((pass_end + timedelta(weeks=2)).strftime("%d/%m/%Y"))
    expect(page.locator("[data-commitment-end]")).to_have_text(
        (commitment_end + timedelta(weeks=2)).strftime("%d/%m/%Y")
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
