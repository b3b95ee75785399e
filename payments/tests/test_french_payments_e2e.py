"""The French ways of paying, on a 390 px phone, with no provider configured (the simulator stands in for each): a class
paid by a card its bank challenges (3-D Secure passed, then refused and paid again), a 10-class card paid with Apple
Pay, and a monthly subscription whose later periods are debited from a SEPA mandate (paid, or returned)."""

import re
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone
from freezegun import freeze_time
from playwright.sync_api import expect

from bookings.models import Pass, Reservation, ReservationStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from invoices.models import Invoice, InvoiceKind
from payments.models import PaymentOrder, PaymentStatus
from payments.services.common import MSG_AUTHENTICATION_REFUSED
from payments.services.receipts import RECEIPT_SUBJECT
from payments.simulator import CARD_LABEL, WALLET_APPLE_PAY, WALLET_LABELS
from payments.subscriptions import periods
from payments.subscriptions.models import ChargeStatus, SavedPaymentMethod, Subscription, SubscriptionStatus
from payments.subscriptions.services.common import CHARGE_FAILED_SUBJECT, CHARGE_PAID_SUBJECT, SEPA_NOTICE_SUBJECT
from payments.subscriptions.services.debits import sepa_pre_notifications_send
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.simulated_debits import IBAN_RETURNED, IBAN_SUCCEEDS, NOTE_DEBIT_RETURNED

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# The payment alerts' French messages, as the islands show them (asserted against the JS constants by the Vitest tests).
MSG_CALENDAR_PAID = "✅ Paiement réussi ! Un Email avec votre recu vous a été envoyé"
MSG_CALENDAR_FAILED = "❌ Erreur de paiement"
MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."
MSG_CHALLENGE_TITLE = "Authentification 3-D Secure (simulée)"
MSG_MANDATE_SAVED = "✅ Moyen de paiement enregistré : il paiera les prochaines échéances."


def receipts(mailoutbox):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]


def mails(mailoutbox, subject):
    return [m for m in mailoutbox if m.subject.endswith(subject)]


def invoice_of(**paid):
    return Invoice.objects.get(kind=InvoiceKind.INVOICE, **paid)


def fits_the_phone(page, shot=""):
    """Nothing wider than the phone: no sideways scrolling at 390 px (`shot`: a screenshot to look at, not compared)."""
    if shot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{shot}-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.fixture
def phone(page):
    page.set_viewport_size(PHONE)
    return page


@pytest.fixture
def session(db):
    start = timezone.localtime(timezone.now() + timedelta(days=1)).replace(hour=11, minute=0, second=0, microsecond=0)
    return CourseSessionFactory(
        course=CourseFactory(title="Pole Exotic"), start=start, max_attendees=5, price_per_participant=Decimal("25.00")
    )


def show_event(page, session):
    """The session in the phone's list of the week, moving on a week if it is not on screen."""
    target = page.locator(f'.session-event[data-session-id="{session.pk}"]').first
    for _ in range(3):
        try:
            target.wait_for(state="visible", timeout=2500)
            return target
        except Exception:
            page.get_by_role("button", name=re.compile("Suivant")).first.click()
    target.wait_for(state="visible")
    return target


def book_and_open_the_card_pane(page, live_server, session):
    page.goto(live_server.url + "/courses/calendar")
    show_event(page, session).click()
    dialog = page.locator("dialog[open]").first
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    widget = dialog.locator(".payment-widget")
    widget.get_by_role("button", name="Payer 25,00 €").click()
    return dialog, widget


def pay_with_a_challenged_card(page, widget, answer):
    simulator = widget.get_by_role("group", name="Fenêtre de paiement simulée")
    expect(simulator.get_by_role("radio", name="Carte bancaire")).to_be_checked()
    simulator.get_by_role("radio", name="Authentification 3-D Secure").check()
    simulator.get_by_role("button", name="Payer (simulation)").click()
    bank = page.get_by_role("dialog", name=MSG_CHALLENGE_TITLE)
    expect(bank).to_contain_text("Votre banque demande de confirmer ce paiement.")
    expect(bank).to_contain_text("Montant : 25,00 €")
    fits_the_phone(page, "card-3d-secure")
    bank.get_by_role("button", name=answer).click()
    expect(bank).to_have_count(0)


# --- a class paid by a card the bank challenges -----------------------------------------------------------------


def test_a_class_paid_by_card_after_3d_secure(phone, live_server, login_as, member, session, mailoutbox):
    page = phone
    login_as(member)
    dialog, widget = book_and_open_the_card_pane(page, live_server, session)
    pay_with_a_challenged_card(page, widget, "Valider")

    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    order = PaymentOrder.objects.get()
    assert (order.status, order.amount) == (PaymentStatus.COMPLETED, Decimal("25.00"))
    assert (order.payment_method, order.payment_method_label) == ("card", CARD_LABEL)
    assert CARD_LABEL == "Carte •••• 4242 (CB)"
    assert Reservation.objects.get().status == ReservationStatus.CONFIRMED
    (receipt,) = receipts(mailoutbox)
    assert receipt.to == [member.email]
    assert order.order_id in receipt.body and "25,00 EUR" in receipt.body
    # The invoice attached to it names the card the member paid with.
    assert invoice_of(payment_order=order).payment_method == "Carte •••• 4242 (CB), simulateur de démonstration"


def test_a_refused_3d_secure_keeps_the_seat_and_the_card_pays_on_retry(
    phone, live_server, login_as, member, session, mailoutbox
):
    page = phone
    login_as(member)
    dialog, widget = book_and_open_the_card_pane(page, live_server, session)
    pay_with_a_challenged_card(page, widget, "Refuser")

    expect(widget.get_by_role("alert")).to_have_text(f"{MSG_CALENDAR_FAILED} — {MSG_AUTHENTICATION_REFUSED}")
    expect(page.locator("dialog[open]")).to_have_count(1)  # the popup stays open, to pay again
    fits_the_phone(page, "card-3d-secure-refused")
    reservation = Reservation.objects.get()
    assert reservation.status == ReservationStatus.HELD
    until = timezone.localtime(reservation.hold_expires_at)
    expect(dialog).to_contain_text(f"Vos places sont retenues jusqu'à {until:%H:%M}.")
    assert PaymentOrder.objects.get().status == PaymentStatus.DECLINED
    assert receipts(mailoutbox) == []

    widget.get_by_role("button", name="Payer 25,00 €").click()
    pay_with_a_challenged_card(page, widget, "Valider")
    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    paid = PaymentOrder.objects.get(status=PaymentStatus.COMPLETED)
    assert (paid.amount, paid.payment_method_label) == (Decimal("25.00"), CARD_LABEL)
    assert len(receipts(mailoutbox)) == 1


# --- a class card paid with Apple Pay ------------------------------------------------------------------------------


def test_a_10_class_card_paid_with_apple_pay(phone, live_server, login_as, member, mailoutbox):
    page = phone
    card = TariffFactory(
        title="Carte 10 cours", type="forfait", price=Decimal("190.00"), pass_credits=10, pass_validity_months=6
    )
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("[data-total]")).to_have_text("190,00 €")
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    dialog.get_by_role("button", name="Payer 190,00 €").click()
    simulator = dialog.get_by_role("group", name="Fenêtre de paiement simulée")
    simulator.get_by_role("radio", name="Apple Pay / Google Pay").check()
    expect(simulator.get_by_role("radio", name="Paiement accepté")).to_be_checked()
    expect(simulator.get_by_role("radio", name="Authentification 3-D Secure")).to_have_count(0)  # a phone's wallet
    fits_the_phone(page, "apple-pay")
    simulator.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)

    order = PaymentOrder.objects.get()
    assert (order.status, order.amount, order.tariff) == (PaymentStatus.COMPLETED, Decimal("190.00"), card)
    assert (order.payment_method, order.payment_method_label) == ("wallet", WALLET_LABELS[WALLET_APPLE_PAY])
    assert WALLET_LABELS[WALLET_APPLE_PAY] == "Apple Pay"
    (receipt,) = receipts(mailoutbox)
    assert "Carte 10 cours" in receipt.body and "190,00 EUR" in receipt.body
    assert invoice_of(payment_order=order).payment_method == "Apple Pay, simulateur de démonstration"
    pass_obj = Pass.objects.get(member=member)

    page.goto(live_server.url + "/user/profile")
    passes = page.locator(".member-passes")
    expect(passes).to_contain_text("Carte 10 cours")
    expect(passes).to_contain_text("10 crédits restants sur 10")
    expect(passes).to_contain_text(f"jusqu'au {pass_obj.expires_on:%d/%m/%Y}")
    fits_the_phone(page)
    passes.get_by_role("link", name="Mes cours").click()
    expect(page.get_by_role("heading", name="Mes Cours de Pole Dance")).to_be_visible()


# --- a monthly subscription debited from a SEPA mandate ----------------------------------------------------------


@pytest.fixture
def monthly(db):
    return TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )


def buy_with_a_sepa_mandate(page, live_server, plan, iban):
    """On /tarifs at 390 px: the mandate for the later periods signed first, then the first period paid."""
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{plan.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("[data-subscription-terms]")).to_contain_text("les suivantes sont prélevées automatiquement")
    pay = dialog.get_by_role("button", name="Payer 55,00 €")
    expect(pay).to_be_disabled()  # the mandate of the later periods comes first
    dialog.get_by_role("button", name="Enregistrer un moyen de paiement").click()
    dialog.get_by_label("Prélèvement SEPA").check()
    mandate = dialog.locator("[data-mandate-text]")
    expect(mandate).to_contain_text("vous autorisez")
    expect(mandate).to_contain_text(settings.STUDIO["name"])
    expect(mandate).to_be_visible()
    dialog.get_by_label("IBAN").fill(iban)
    dialog.get_by_label("Titulaire du compte").fill("Emma Petit")
    dialog.get_by_label("J'accepte le mandat de prélèvement SEPA").check()
    fits_the_phone(page, "sepa-mandate")
    dialog.get_by_role("button", name="Signer le mandat").click()
    expect(dialog.get_by_role("status").filter(has_text=MSG_MANDATE_SAVED)).to_be_visible()
    label = f"Prélèvement SEPA {iban[:4]} •••• {iban[-4:]}, mandat du {timezone.localdate():%d/%m/%Y}"
    expect(dialog.locator("[data-saved-method]")).to_have_text(f"Payé par : {label}")
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    pay.click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    return label


def at(day, hour=6, minute=15):
    """A moment of the scheduler's day (its jobs run in the morning, Paris time)."""
    return datetime.combine(day, time(hour, minute), tzinfo=UTC)


def the_days_pass_until_the_second_debit(page, subscription, mailoutbox):
    """The member is away (no page open) while the scheduler runs: the pre-notification days ahead, then the debit
    sent on the due date. Time moves for the jobs only, run here as the scheduler would."""
    page.goto("about:blank")
    due = periods.period_due_on(subscription, 2)
    notice_day = due - timedelta(days=settings.SUBSCRIPTION_SEPA_NOTICE_DAYS)
    with freeze_time(at(notice_day)):
        assert sepa_pre_notifications_send() == 1
    assert mails(mailoutbox, CHARGE_FAILED_SUBJECT) == []
    (notice,) = mails(mailoutbox, SEPA_NOTICE_SUBJECT)
    assert subscription.charges.filter(period=2).count() == 0  # told before anything is debited
    with freeze_time(at(due)):
        assert subscription_charges_run()["processing"] == 1
    return due, notice


def settle_the_debits(page, due):
    """Days later, the simulated bank answers (the command a demonstration runs instead of waiting for the hourly
    job)."""
    page.goto("about:blank")
    out = StringIO()
    with freeze_time(at(due + timedelta(days=settings.SIMULATOR_SEPA_SETTLE_DAYS), hour=7, minute=40)):
        call_command("simulator_settle_debits", stdout=out)
    return out.getvalue().strip()


def periods_history(page, live_server):
    page.goto(live_server.url + "/user/profile")
    mine = page.locator(".member-subscriptions")
    mine.get_by_text("Historique des échéances").click()
    return mine


def test_a_monthly_subscription_debited_from_a_sepa_mandate(phone, live_server, login_as, member, monthly, mailoutbox):
    page = phone
    login_as(member)
    label = buy_with_a_sepa_mandate(page, live_server, monthly, IBAN_SUCCEEDS)
    subscription = Subscription.objects.get(member=member)
    assert subscription.periods_paid == 1
    method = SavedPaymentMethod.objects.get(member=member)
    assert (method.kind, method.label) == ("sepa_debit", label)

    page.goto(live_server.url + "/user/profile")
    mine = page.locator(".member-subscriptions")
    expect(mine).to_contain_text("1 période payée sur 12 · 11 restantes")
    expect(mine.locator("[data-saved-method]")).to_have_text(f"Payé par : {label}")
    fits_the_phone(page)

    due, notice = the_days_pass_until_the_second_debit(page, subscription, mailoutbox)
    assert notice.to == [member.email]
    assert (
        f"Le {due:%d/%m/%Y}, 55,00 € seront prélevés sur votre compte pour l'échéance 2/12 de votre "
        "Abonnement annuel illimité."
    ) in notice.body
    assert f"Moyen de paiement : {label}" in notice.body
    assert f"Référence unique du mandat : {method.mandate_reference}" in notice.body
    assert f"Créancier : {settings.STUDIO['name']}" in notice.body
    assert "Mode démonstration : aucun prélèvement réel ne sera effectué." in notice.body

    mine = periods_history(page, live_server)
    second = mine.locator("tbody tr").nth(1)
    expect(second).to_contain_text(f"2{due:%d/%m/%Y}55,00 €En cours")
    expect(mine.locator("[data-subscription-status]")).to_have_text("Active")
    expect(mine).to_contain_text("1 période payée sur 12")
    # The bank takes days: meanwhile the member books the classes of the period being debited.
    expect(mine).to_contain_text(f"réservations possibles jusqu'au {periods.period_ends_on(subscription, 2):%d/%m/%Y}")
    fits_the_phone(page, "sepa-debit-in-progress")

    assert settle_the_debits(page, due) == "Prélèvements payés : 1, rejetés : 0."
    mine = periods_history(page, live_server)
    second = mine.locator("tbody tr").nth(1)
    expect(second).to_contain_text("Payée")
    expect(mine).to_contain_text("2 périodes payées sur 12 · 10 restantes")
    expect(mine.locator("[data-subscription-status]")).to_have_text("Active")
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.amount, charge.attempts) == (ChargeStatus.PAID, Decimal("55.00"), 1)
    # The period's invoice says it was debited from the mandate, not paid by card.
    assert invoice_of(subscription_charge=charge).payment_method == (
        "Prélèvement SEPA FR14 •••• 2606, simulateur de démonstration"
    )
    (paid,) = mails(mailoutbox, CHARGE_PAID_SUBJECT)
    assert paid.to == [member.email]
    assert "Merci : l'échéance 2/12 de votre Abonnement annuel illimité est payée. Voici votre reçu." in paid.body
    assert "Montant payé : 55,00 €" in paid.body and f"Échéance du : {due:%d/%m/%Y}" in paid.body
    assert [attachment.mimetype for attachment in paid.attachments] == ["application/pdf"]  # the invoice
    assert mails(mailoutbox, CHARGE_FAILED_SUBJECT) == []


def test_a_returned_sepa_debit_leaves_the_period_unpaid(phone, live_server, login_as, member, monthly, mailoutbox):
    page = phone
    login_as(member)
    label = buy_with_a_sepa_mandate(page, live_server, monthly, IBAN_RETURNED)
    subscription = Subscription.objects.get(member=member)
    method = SavedPaymentMethod.objects.get(member=member)
    due, notice = the_days_pass_until_the_second_debit(page, subscription, mailoutbox)
    assert f"Référence unique du mandat : {method.mandate_reference}" in notice.body

    assert settle_the_debits(page, due) == "Prélèvements payés : 0, rejetés : 1."
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.failure_note) == (ChargeStatus.FAILED, NOTE_DEBIT_RETURNED)
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.UNPAID
    retry = charge.next_attempt_on
    assert retry == due + timedelta(days=settings.SIMULATOR_SEPA_SETTLE_DAYS + 3)

    mine = periods_history(page, live_server)
    expect(mine.locator("[data-subscription-status]")).to_have_text("Impayé")
    expect(mine.locator("tbody tr").nth(1)).to_contain_text(f"Refusée (nouvel essai le {retry:%d/%m/%Y})")
    expect(mine).to_contain_text("1 période payée sur 12 · 11 restantes")
    expect(mine.get_by_role("button", name="Payer maintenant : Abonnement annuel illimité")).to_be_visible()
    fits_the_phone(page, "sepa-debit-returned")

    assert mails(mailoutbox, CHARGE_PAID_SUBJECT) == []
    (unpaid,) = mails(mailoutbox, CHARGE_FAILED_SUBJECT)
    assert unpaid.to == [member.email]
    assert (
        f"Le paiement de l'échéance 2/12 de votre Abonnement annuel illimité (55,00 €, échéance du {due:%d/%m/%Y}) "
        "a été refusé."
    ) in unpaid.body
    assert (
        f"Nous réessaierons le {retry:%d/%m/%Y} ({label}). Le prélèvement de 55,00 € sera présenté ce jour-là "
        f"(référence unique du mandat : {method.mandate_reference}, créancier : {settings.STUDIO['name']})."
    ) in unpaid.body
