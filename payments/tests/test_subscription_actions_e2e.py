"""Subscriptions in a browser: a student buys the reduced plan (the confirmation is required, a proof is sent), the
later periods on the simulator's saved card that is refused; the next period is refused; staff see "Impayé" and the
reduced status, retry it from a confirm dialog (refused again); the member replaces the card on the profile and pays
the period; staff end the reduced plan from a confirm dialog."""

from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from courses.tests.factories import TariffFactory
from media_library.tests.files import image_bytes
from payments.subscriptions import periods
from payments.subscriptions.models import Subscription, SubscriptionStatus
from payments.subscriptions.services.lifecycle import subscription_charges_run

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."
MSG_REDUCED_CONFIRM = (
    "Ce tarif réduit est réservé aux étudiant(e)s et aux demandeur(se)s d'emploi : cochez la case pour confirmer "
    "votre statut."
)


def test_student_plan_card_fails_later_staff_retry_member_pays_staff_end_reduced(
    page, live_server, login_as, member, staff, tmp_path
):
    plan = TariffFactory(
        title="Abonnement annuel étudiant",
        type="abonnement",
        price=Decimal("44.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    proof = tmp_path / "carte-etudiante.png"
    proof.write_bytes(image_bytes("PNG", (300, 200)))

    login_as(member)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the whole purchase works at 390 px
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{plan.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("par mois, engagement de 12 échéances")
    expect(dialog.get_by_text(MSG_REDUCED_CONFIRM)).to_be_visible()
    pay = dialog.get_by_role("button", name="Payer 44,00 €")
    expect(pay).to_be_disabled()
    dialog.get_by_role("radio", name="Étudiant(e)").check()
    dialog.get_by_label("Je confirme être étudiant(e) ou demandeur(se) d'emploi (obligatoire)").check()
    dialog.get_by_label("Justificatif (facultatif) : photo ou scan JPEG, PNG, GIF ou WebP").set_input_files(str(proof))
    expect(dialog.get_by_text("Justificatif reçu. (carte-etudiante.png)")).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "subscription-reduced-390.png"), full_page=False)
    expect(pay).to_be_disabled()  # the card of the later periods comes first
    dialog.get_by_role("button", name="Enregistrer un moyen de paiement").click()
    dialog.get_by_label("Carte simulée (démonstration)").select_option("declines")
    dialog.get_by_role("button", name="Enregistrer la carte").click()
    expect(dialog.get_by_text("Payé par : Carte •••• 0002, expire", exact=False)).to_be_visible()
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    pay.click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    subscription = Subscription.objects.get(member=member)
    assert subscription.saved_method.simulated_outcome == "declines"

    # The next period comes due (the daily job as of its date): refused, so unpaid.
    subscription_charges_run(as_of=periods.period_due_on(subscription, 2))
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.UNPAID

    login_as(staff)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_server.url + "/admin/subscriptions")
    row = page.locator(f'[data-subscription-row="{subscription.pk}"]')
    expect(row).to_contain_text("Impayé")
    expect(row).to_contain_text("Tarif réduit : Étudiant(e)")
    row.get_by_role("button", name=f"Échéances de l'abonnement {subscription.pk}").click()
    expect(row.get_by_role("link", name="voir le justificatif")).to_be_visible()
    row.get_by_role("button", name=f"Relancer l'échéance de l'abonnement {subscription.pk}").click()
    confirm = page.locator("dialog[open]")
    expect(confirm).to_contain_text("Relancer maintenant le paiement de l'échéance impayée ?")
    confirm.get_by_label("Raison (facultatif)").fill("Appel du membre")
    confirm.get_by_role("button", name="Relancer l'échéance").click()
    # The same words also join the subscription's history once it is fetched again: the answer is the status line.
    expect(
        page.get_by_role("status").filter(
            has_text="Échéance 2 relancée : le paiement a de nouveau été refusé (le membre est prévenu par e-mail)."
        )
    ).to_be_visible()

    login_as(member)
    page.goto(live_server.url + "/user/profile")
    mine = page.locator(".member-subscriptions")
    expect(mine.locator("[data-subscription-status]")).to_have_text("Impayé")
    # The member replaces the refused card by one that works, then pays the unpaid period with it.
    mine.get_by_role("button", name="Remplacer le moyen de paiement").click()
    mine.get_by_role("button", name="Enregistrer la carte").click()
    expect(mine.get_by_text("Payé par : Carte •••• 4242, expire", exact=False)).to_be_visible()
    mine.get_by_role("button", name="Payer maintenant : Abonnement annuel étudiant").click()
    expect(mine.locator("[data-subscription-status]")).to_have_text("Active")
    subscription.refresh_from_db()
    assert (subscription.status, subscription.periods_paid) == (SubscriptionStatus.ACTIVE, 2)

    login_as(staff)
    page.goto(live_server.url + "/admin/subscriptions")
    row = page.locator(f'[data-subscription-row="{subscription.pk}"]')
    row.get_by_role("button", name=f"Terminer le tarif réduit de l'abonnement {subscription.pk}").click()
    confirm = page.locator("dialog[open]")
    expect(confirm).to_contain_text("Le membre n'a plus droit au tarif réduit ?")
    confirm.get_by_role("button", name="Terminer le tarif réduit").click()
    expect(
        confirm.get_by_text("Indiquez la raison : elle est gardée dans l'historique de l'abonnement.")
    ).to_be_visible()
    confirm.get_by_label("Raison").fill("Plus étudiante depuis septembre")
    confirm.get_by_role("button", name="Terminer le tarif réduit").click()
    expect(
        page.get_by_text("Tarif réduit terminé : plus aucune échéance ne sera prélevée sur cet abonnement.")
    ).to_be_visible()
    expect(row).to_contain_text("Terminé")
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ENDED
