"""The voucher's PDF: what the holder needs (code, amount or tariff, validity, message) read back by pdftotext, any
name printed, every font embedded, the same card always giving the same bytes."""

import shutil
import subprocess
from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from courses.tests.factories import TariffFactory
from offers.models import GiftCard, GiftCardKind
from offers.pdf import gift_card_voucher_pdf

pytestmark = pytest.mark.django_db


def poppler(tool, content, tmp_path):
    path = tmp_path / "voucher.pdf"
    path.write_bytes(content)
    command = [shutil.which(tool), *(["-enc", "UTF-8"] if tool == "pdftotext" else []), str(path)]
    return subprocess.run(
        command + (["-"] if tool == "pdftotext" else []), check=True, capture_output=True, text=True
    ).stdout


def test_a_tariff_voucher_reads_back_with_any_name_and_embeds_its_fonts(tmp_path):
    card = GiftCard.objects.create(
        code="CADEAU-7KQ2-M9XD",
        kind=GiftCardKind.TARIFF,
        tariff=TariffFactory(title="Carte 10 cours", price=Decimal("180.00")),
        initial_amount=Decimal("180.00"),
        recipient_name="Łukasz Nguyễn",
        buyer_name="Emma Petit",
        message="Bon anniversaire 💃",
        expires_on=date(2027, 12, 1),
        purchased_at=timezone.now(),
    )
    content = gift_card_voucher_pdf(card)
    text = poppler("pdftotext", content, tmp_path)
    for expected in (
        "CADEAU-7KQ2-M9XD",
        "Carte 10 cours (180,00 €)",
        "Valable jusqu'au 01/12/2027",
        "Pour Łukasz Nguyễn",
    ):
        assert expected in text
    assert "Bon anniversaire" in text and "Emma Petit" in text
    fonts = poppler("pdffonts", content, tmp_path).splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts
    assert gift_card_voucher_pdf(card) == content
