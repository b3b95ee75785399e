"""Invoices (docs/decisions.md 40): every completed payment is invoiced once, numbered per year without gaps,
never changed; a refund issues a credit note referring to it; the PDF carries the legal mentions from the settings,
rides with the receipt e-mail, and only its member (or staff) downloads it."""

from datetime import date
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone
from freezegun import freeze_time

from courses.tests.factories import CourseSessionFactory, TariffFactory
from invoices.documents import invoice_document
from invoices.errors import MSG_INVOICE_NOT_FOUND
from invoices.models import Invoice, InvoiceKind
from invoices.services import invoice_issue_for_order
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_fulfil
from payments.services.receipts import RECEIPT_SUBJECT
from payments.subscriptions.services import common as subs
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.tests.test_apis import _capture_event, _paypal_order, _post_webhook

from .helpers import pay_reservation, pay_tariff, pdf_text

pytestmark = pytest.mark.django_db

YEAR = timezone.localdate().year
MSG_RECEIPT_INVOICE_ATTACHED = (
    "Votre facture est jointe à cet e-mail (PDF). Vous la retrouvez aussi dans votre profil, rubrique « Mes factures »."
)


def receipts(mailoutbox):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]


@pytest.fixture
def card_tariff(db):
    return TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")


def test_a_paid_reservation_gets_one_invoice_with_the_legal_mentions_attached_to_the_receipt(
    api_client, member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    member.address, member.postal_code, member.city = "3 rue des Lilas", "69003", "Lyon"
    member.save()
    reservation = make_reservation(member, participants=2)
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_reservation(api_client, member, reservation)
        again = api_client.post("/api/paypal/capture-payment", {"orderId": order.order_id}, format="json")
    assert again.status_code == 200

    invoice = Invoice.objects.get()  # the second capture issued nothing more
    assert invoice.kind == InvoiceKind.INVOICE and invoice.payment_order == order and invoice.member == member
    assert invoice.number == f"{YEAR}-000001"
    assert (invoice.quantity, invoice.unit_amount, invoice.total_amount) == (2, Decimal("25.00"), Decimal("50.00"))
    assert invoice.customer_name == "Emma Petit"

    (receipt,) = receipts(mailoutbox)
    assert (
        MSG_RECEIPT_INVOICE_ATTACHED in receipt.body and MSG_RECEIPT_INVOICE_ATTACHED in receipt.alternatives[0].content
    )
    ((name, content, mimetype),) = receipt.attachments
    assert (name, mimetype) == (f"facture-{YEAR}-000001.pdf", "application/pdf")
    text = pdf_text(content)
    assert "FACTURE" in text and f"N° {YEAR}-000001" in text
    assert "50,00 €" in text and "25,00 €" in text
    assert "Studio Pole Danse Lyon (EI Camille Laurent)" in text
    assert "SIRET : 123 456 789 00012" in text
    assert "TVA non applicable, art. 293 B du CGI" in text
    assert "Emma Petit" in text and "3 rue des Lilas, 69003 Lyon" in text
    assert reservation.session.course.title in text
    assert content == invoice_document(invoice=invoice)  # the stored PDF, the one the member downloads


def test_numbers_follow_each_other_across_kinds_of_payment_and_restart_each_year(
    api_client, member, make_reservation, card_tariff
):
    with freeze_time(f"{YEAR}-12-31 22:00:00"):  # 23:00 in Paris: still this year
        first = pay_tariff(api_client, member, card_tariff, quantity=2)
        second = pay_reservation(api_client, member, make_reservation(member, participants=1))
    with freeze_time(f"{YEAR}-12-31 23:30:00"):  # 00:30 in Paris: the next year
        third = pay_tariff(api_client, member, card_tariff)
    numbers = [Invoice.objects.get(payment_order=order).number for order in (first, second, third)]
    assert numbers == [f"{YEAR}-000001", f"{YEAR}-000002", f"{YEAR + 1}-000001"]
    tariff_invoice = Invoice.objects.get(payment_order=first)
    assert (tariff_invoice.quantity, tariff_invoice.unit_amount) == (2, Decimal("190.00"))
    assert tariff_invoice.total_amount == Decimal("380.00")


@pytest.mark.database
def test_a_payment_that_rolls_back_leaves_no_gap(api_client, member, card_tariff):
    order = pay_tariff(api_client, member, card_tariff)
    assert Invoice.objects.get().number == f"{YEAR}-000001"
    other = PaymentOrder.objects.create(
        order_id="MANUAL-1",
        email=member.email,
        title="Cours particulier",
        amount=Decimal("60.00"),
        date="2030-01-01",
        status=PaymentStatus.COMPLETED,
        user=member,
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        assert invoice_issue_for_order(order_id=other.pk).number == f"{YEAR}-000002"
        raise RuntimeError("the payment's transaction fails after the invoice was numbered")
    assert not Invoice.objects.filter(payment_order=other).exists()
    assert invoice_issue_for_order(order_id=other.pk).number == f"{YEAR}-000002"
    assert invoice_issue_for_order(order_id=other.pk).number == f"{YEAR}-000002"  # issued once
    assert Invoice.objects.filter(payment_order=order).count() == 1


def test_a_redelivered_paypal_webhook_issues_no_second_invoice(api_client, member, make_reservation, paypal_settings):
    order = _paypal_order(api_client, member, make_reservation(member))
    assert _post_webhook(api_client, _capture_event(order)).task_result == "completed"
    assert _post_webhook(api_client, _capture_event(order)).task_result == "duplicate"
    assert _post_webhook(api_client, _capture_event(order, event_id="WH-CAP-2")).task_result == "completed"
    assert Invoice.objects.filter(payment_order=order).count() == 1


def test_a_refund_issues_one_credit_note_referring_to_the_invoice(
    api_client, member, make_reservation, paypal_settings
):
    order = _paypal_order(api_client, member, make_reservation(member))
    _post_webhook(api_client, _capture_event(order))
    refund = _capture_event(order, event_type="PAYMENT.CAPTURE.REFUNDED", event_id="WH-REF-1")
    assert _post_webhook(api_client, refund).task_result == "refunded"
    assert _post_webhook(api_client, {**refund, "id": "WH-REF-2"}).task_result == "refunded"
    invoice = Invoice.objects.get(kind=InvoiceKind.INVOICE)
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert note.credited_invoice == invoice and note.number == f"AV-{YEAR}-000001"
    assert note.total_amount == invoice.total_amount and note.member == member
    text = pdf_text(invoice_document(invoice=note))
    assert "AVOIR" in text and f"N° AV-{YEAR}-000001" in text
    assert f"Avoir sur la facture n° {invoice.number}" in text
    assert "-50,00 €" in text and "TVA non applicable, art. 293 B du CGI" in text


def test_staff_voiding_a_completed_payment_issues_a_credit_note_with_the_reason(api_client, member, staff, card_tariff):
    order = pay_tariff(api_client, member, card_tariff)
    api_client.force_authenticate(staff)
    row = api_client.get("/api/paypal/orders", {"search": order.order_id}).json()["results"][0]
    payload = {**row, "status": "VOIDED", "message": "Paiement en double, remboursé à l'accueil."}
    response = api_client.put(f"/api/paypal/orders/{order.order_id}", payload, format="json")
    assert response.status_code == 200, response.json()
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert note.reason == "Paiement en double, remboursé à l'accueil."
    assert "Motif : Paiement en double, remboursé à l'accueil." in pdf_text(invoice_document(invoice=note))


def test_money_refunded_because_it_bought_nothing_has_no_invoice_nor_credit_note(
    api_client, member, other_member, make_reservation
):
    from datetime import timedelta

    from bookings.models import ReservationStatus
    from payments.tests.test_attacks_money import approve, capture, open_order

    reservation = make_reservation(member, participants=2)
    reservation.session.max_attendees = 2
    reservation.session.save()
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    reservation.hold_expires_at = timezone.now() - timedelta(minutes=1)  # the hold lapsed, the seats went elsewhere
    reservation.save()
    make_reservation(other_member, participants=2, session=reservation.session, status=ReservationStatus.CONFIRMED)
    assert capture(api_client, order_id).status_code == 409
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED
    assert not Invoice.objects.exists()


def test_staff_recording_a_completed_payment_invoices_it(api_client, staff, member):
    api_client.force_authenticate(staff)
    payload = {
        "order_id": "DESK-2030-1",
        "email": member.email,
        "first_name": "Emma",
        "last_name": "Petit",
        "title": "Cours particulier",
        "amount": "60.00",
        "date": "2030-01-01",
        "time": "18:30",
        "status": "COMPLETED",
    }
    assert api_client.post("/api/paypal/orders", payload, format="json").status_code == 201
    invoice = Invoice.objects.get()
    assert invoice.total_amount == Decimal("60.00") and invoice.payment_method == "paiement enregistré par le studio"


def test_a_paid_subscription_period_is_invoiced_and_its_receipt_carries_the_pdf(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    annual = TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    with freeze_time("2030-01-10 10:00:00"):
        pay_tariff(api_client, member, annual)
    with freeze_time("2030-02-10 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=date(2030, 2, 10))
        subscription_charges_run(as_of=date(2030, 2, 10))
    first, second = Invoice.objects.order_by("sequence")
    assert (first.number, second.number) == ("2030-000001", "2030-000002")
    assert second.subscription_charge.period == 2 and second.total_amount == Decimal("55.00")
    assert second.description == "Abonnement annuel illimité – période 2/12 (du 10/02/2030 au 09/03/2030)"
    (paid_mail,) = [m for m in mailoutbox if subs.CHARGE_PAID_SUBJECT in m.subject]
    assert MSG_RECEIPT_INVOICE_ATTACHED in paid_mail.body
    ((name, content, _),) = paid_mail.attachments
    assert name == "facture-2030-000002.pdf" and "55,00 €" in pdf_text(content)


def test_an_issued_invoice_never_changes_when_settings_profile_or_order_do(
    api_client, member, card_tariff, settings, staff
):
    order = pay_tariff(api_client, member, card_tariff)
    invoice = Invoice.objects.get()
    before = invoice_document(invoice=invoice)
    settings.INVOICE_LEGAL = {**settings.INVOICE_LEGAL, "legal_name": "Autre SARL", "siret": "999 999 999 99999"}
    member.first_name = "Emmanuelle"
    member.save()
    PaymentOrder.objects.filter(pk=order.pk).update(amount=Decimal("1.00"), title="Autre chose")
    invoice.refresh_from_db()
    assert (invoice.seller_name, invoice.customer_name) == ("Studio Pole Danse Lyon (EI Camille Laurent)", "Emma Petit")
    assert invoice.total_amount == Decimal("190.00")
    assert invoice_document(invoice=invoice) == before
    # A new invoice carries the new mentions.
    pay_tariff(api_client, member, card_tariff)
    newer = Invoice.objects.get(number=f"{YEAR}-000002")
    text = pdf_text(invoice_document(invoice=newer))
    assert "Autre SARL" in text and "SIRET : 999 999 999 99999" in text


# --- downloads --------------------------------------------------------------------------------------------------


def test_a_member_lists_and_downloads_their_invoices_and_nobody_elses(
    api_client, member, other_member, staff, card_tariff, django_assert_max_num_queries
):
    order = pay_tariff(api_client, member, card_tariff)
    pay_tariff(api_client, member, card_tariff)
    invoice = Invoice.objects.get(payment_order=order)
    api_client.force_authenticate(member)
    with django_assert_max_num_queries(4):
        listed = api_client.get("/api/invoices/mine")
    assert listed.status_code == 200
    assert [row["number"] for row in listed.json()] == [f"{YEAR}-000002", f"{YEAR}-000001"]
    row = listed.json()[1]
    assert row["total_amount"] == "190.00" and row["kind"] == "invoice"
    assert row["pdf_url"] == f"/api/invoices/{invoice.pk}/pdf"

    download = api_client.get(row["pdf_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == f'attachment; filename="facture-{YEAR}-000001.pdf"'
    assert f"N° {YEAR}-000001" in pdf_text(download.content)

    api_client.force_authenticate(other_member)
    refused = api_client.get(row["pdf_url"])
    assert refused.status_code == 404 and refused.json()["message"] == MSG_INVOICE_NOT_FOUND
    assert api_client.get("/api/invoices/mine").json() == []
    assert api_client.get(f"/api/invoices/orders/{order.order_id}/pdf").status_code == 403
    assert api_client.get("/api/invoices/99999999999/pdf").status_code == 404

    api_client.force_authenticate(staff)
    assert api_client.get(row["pdf_url"]).status_code == 200
    by_order = api_client.get(f"/api/invoices/orders/{order.order_id}/pdf")
    assert by_order.status_code == 200 and by_order.content == download.content
    missing = api_client.get("/api/invoices/orders/NOPE/pdf")
    assert missing.status_code == 404 and missing.json()["message"] == MSG_INVOICE_NOT_FOUND

    api_client.force_authenticate(None)
    assert api_client.get(row["pdf_url"]).status_code in (401, 403)


def test_the_profile_lists_the_members_invoices_with_their_download_links(
    client, member, other_member, api_client, card_tariff
):
    order = pay_tariff(api_client, member, card_tariff)
    invoice = Invoice.objects.get(payment_order=order)
    client.force_login(member)
    page = client.get("/user/profile").content.decode()
    assert "Mes factures" in page
    assert f'href="/api/invoices/{invoice.pk}/pdf"' in page
    assert f"Facture {YEAR}-000001" in page and "190,00 €" in page
    client.force_login(other_member)
    page = client.get("/user/profile").content.decode()
    assert "Aucune facture pour l'instant." in page and f"/api/invoices/{invoice.pk}/pdf" not in page


def test_a_session_of_the_course_shows_in_the_line(api_client, member, make_reservation):
    session = CourseSessionFactory(price_per_participant=Decimal("25.00"))
    order = pay_reservation(api_client, member, make_reservation(member, participants=1, session=session))
    start = timezone.localtime(session.start)
    assert Invoice.objects.get(payment_order=order).description == (
        f"{order.title} – séance du {start:%d/%m/%Y} à {start:%H:%M}"
    )


def test_staff_refunding_a_subscription_period_issues_its_credit_note(
    api_client, member, staff, django_capture_on_commit_callbacks
):
    annual = TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    with freeze_time("2030-01-10 10:00:00"):
        pay_tariff(api_client, member, annual)
    with freeze_time("2030-02-10 07:00:00"):
        subscription_charges_run(as_of=date(2030, 2, 10))
    period_invoice = Invoice.objects.get(subscription_charge__period=2)
    api_client.force_authenticate(staff)
    with freeze_time("2030-02-15 10:00:00"):
        subscription_id = period_invoice.subscription_charge.subscription_id
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(
                f"/api/subscriptions/{subscription_id}/cancel",
                {"refund": True, "reason": "Blessure longue"},
                format="json",
            )
    assert response.status_code == 200, response.json()
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert (note.number, note.credited_invoice, note.reason) == ("AV-2030-000001", period_invoice, "Blessure longue")
    assert (
        note.total_amount == Decimal("55.00") and note.subscription_charge_id == period_invoice.subscription_charge_id
    )


def test_a_class_the_studio_cancels_refunds_the_card_payment_with_a_credit_note(
    api_client, member, make_reservation, django_capture_on_commit_callbacks
):
    from bookings.services.class_cancellation import course_session_cancel

    order = pay_reservation(api_client, member, make_reservation(member, participants=2))
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=order.reservation.session_id, reason="Professeure malade")
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    invoice = Invoice.objects.get(kind=InvoiceKind.INVOICE)
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert note.credited_invoice == invoice and note.total_amount == Decimal("50.00")
    assert note.reason.startswith(f"Le cours « {order.reservation.session.course.title} » du ")
    assert note.reason.endswith("a été annulé par le studio.")


def test_a_capture_refused_because_the_class_was_just_cancelled_is_invoiced_and_credited_once(
    api_client, member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    """The member approved the payment, the studio cancelled the class, then the capture arrived: the money was
    taken and goes back, so the books show it as any refund of a paid class does (docs/decisions.md 40)."""
    from bookings.services.class_cancellation import course_session_cancel
    from invoices.services import invoices_issue_missing
    from payments.services.class_refunds import MSG_CLASS_CANCELLED_REFUND
    from payments.services.common import MSG_REFUNDED
    from payments.tests.test_attacks_money import approve, capture, open_order

    reservation = make_reservation(member, participants=2)
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=reservation.session_id, reason="Professeure malade")

    with django_capture_on_commit_callbacks(execute=True):
        answer = capture(api_client, order_id)
    assert answer.status_code == 409 and answer.json()["refunded"] is True
    session = reservation.session
    why = MSG_CLASS_CANCELLED_REFUND.format(
        title=session.course.title, date=f"{timezone.localtime(session.start):%d/%m/%Y}"
    )
    assert answer.json()["error"] == MSG_REFUNDED.format(reason=why, amount="50,00")
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id

    invoice = Invoice.objects.get(kind=InvoiceKind.INVOICE)
    assert invoice.payment_order == order and invoice.total_amount == Decimal("50.00") and invoice.member == member
    assert invoice.number == f"{YEAR}-000001"
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert note.credited_invoice == invoice and note.total_amount == Decimal("50.00") and note.reason == why
    assert "séance du" in invoice.description
    assert f"Avoir sur la facture n° {invoice.number}" in pdf_text(invoice_document(invoice=note))

    # A retried capture (the browser's, or the provider's webhook) says the same and issues nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        again = capture(api_client, order_id)
        assert again.status_code == 409 and again.json()["error"] == answer.json()["error"]
        assert payment_order_fulfil(order_id=order_id).refunded
        assert invoices_issue_missing() == {"invoices": 0, "credit_notes": 0}
    assert Invoice.objects.count() == 2
    assert not receipts(mailoutbox)  # no receipt: the class was never booked; the refund notice says it all


def test_the_periodic_job_invoices_and_credits_a_refused_capture_of_a_cancelled_class_issued_nothing_for(
    api_client, member, make_reservation, monkeypatch
):
    """If issuing failed at the time (the savepoint gave the number back), the books are completed later, once."""
    from bookings.services.class_cancellation import course_session_cancel
    from invoices import services as invoice_services
    from payments.tests.test_attacks_money import approve, capture, open_order

    reservation = make_reservation(member)
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    course_session_cancel(session_id=reservation.session_id, reason="Salle inondée")

    def down(**kwargs):
        raise RuntimeError("database busy")

    monkeypatch.setattr(invoice_services, "invoice_issue_for_order", down)
    assert capture(api_client, order_id).status_code == 409
    monkeypatch.undo()
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED
    assert not Invoice.objects.exists()
    assert invoice_services.invoices_issue_missing() == {"invoices": 1, "credit_notes": 1}
    assert invoice_services.invoices_issue_missing() == {"invoices": 0, "credit_notes": 0}
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert note.credited_invoice == Invoice.objects.get(kind=InvoiceKind.INVOICE)
    assert note.reason.endswith("a été annulé par le studio.")
