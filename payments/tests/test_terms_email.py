"""The purchase e-mail of a card or a subscription carries the terms of sale (PDF) and the withdrawal form
(docs/decisions.md 47); a dated class's does not."""

from decimal import Decimal

import pytest

from courses.tests.factories import TariffFactory
from invoices.tests.helpers import pay_reservation, pay_tariff, pdf_text
from payments.services.receipts import MSG_RECEIPT_TERMS_ATTACHED, RECEIPT_SUBJECT, TERMS_PDF_NAME

pytestmark = pytest.mark.django_db

FORM_LINE = "Je/Nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation du contrat"


def receipt_of(mailoutbox):
    (receipt,) = [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]
    return receipt


def test_the_message_is_french():
    assert MSG_RECEIPT_TERMS_ATTACHED == (
        "Nos conditions générales de vente sont jointes à cet e-mail (PDF). Vous pouvez vous rétracter pendant "
        "14 jours : « Exercer mon droit de rétractation » sur votre profil, ou le formulaire ci-dessous."
    )
    assert TERMS_PDF_NAME == "conditions-generales-de-vente.pdf"


def test_a_card_receipt_carries_the_terms_pdf_and_the_withdrawal_form(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks, settings
):
    card = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")
    with django_capture_on_commit_callbacks(execute=True):
        pay_tariff(api_client, member, card)
    receipt = receipt_of(mailoutbox)
    names = [name for name, _content, _type in receipt.attachments]
    assert TERMS_PDF_NAME in names and any(name.startswith("facture-") for name in names)
    (terms,) = [(content, mimetype) for name, content, mimetype in receipt.attachments if name == TERMS_PDF_NAME]
    assert terms[1] == "application/pdf"
    text = pdf_text(terms[0])
    assert "Conditions générales de vente" in text
    assert f"Version {settings.TERMS_OF_SALE['version']}" in text
    assert "Droit de rétractation" in text
    assert "À l'attention de" in receipt.body  # the text part, unescaped
    for body in (receipt.body, receipt.alternatives[0].content):
        assert MSG_RECEIPT_TERMS_ATTACHED in body
        assert FORM_LINE in body
        assert "Formulaire de rétractation" in body


def test_a_dated_class_receipt_has_no_terms_nor_form(
    api_client, member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pay_reservation(api_client, member, make_reservation(member))
    receipt = receipt_of(mailoutbox)
    assert TERMS_PDF_NAME not in [name for name, _c, _t in receipt.attachments]
    assert FORM_LINE not in receipt.body and MSG_RECEIPT_TERMS_ATTACHED not in receipt.body
