"""What other software reads in an invoice's PDF (docs/decisions.md 54): any name the site accepts prints (poppler's
pdftotext reads it back), every font is embedded (pdffonts), and the metadata are true (pypdf): the document's date is
the invoice's, its title, author, creator and producer the studio's."""

import shutil
import subprocess
from datetime import UTC, datetime
from decimal import Decimal
from io import BytesIO

import pytest
from freezegun import freeze_time
from pypdf import PdfReader

from courses.tests.factories import TariffFactory
from invoices.documents import invoice_document
from invoices.models import Invoice

from .helpers import pay_tariff

pytestmark = pytest.mark.django_db

SELLER = "Studio Pole Danse Lyon (EI Camille Laurent)"


def poppler(tool: str, content: bytes, tmp_path, *args: str) -> str:
    """Run one of poppler's tools (Debian's poppler-utils, installed by `make test`) on the PDF."""
    assert shutil.which(tool), f"{tool} is missing: apt-get install poppler-utils (make test installs it)"
    path = tmp_path / "document.pdf"
    path.write_bytes(content)
    command = [tool, *args, str(path)] + (["-"] if tool == "pdftotext" else [])
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def embedded_fonts(content: bytes, tmp_path) -> list[tuple[str, str]]:
    """(name, emb) of each font pdffonts lists."""
    lines = poppler("pdffonts", content, tmp_path).splitlines()[2:]
    # Columns: name type encoding emb sub uni object ID; the type may hold a space ("CID TrueType").
    return [(line.split()[0], line.split()[-5]) for line in lines if line.strip()]


def invoice_for(api_client, member, *, first_name, last_name, address):
    member.first_name, member.last_name = first_name, last_name
    member.address, member.postal_code, member.city = address, "69003", "Lyon"
    member.save()
    pay_tariff(api_client, member, TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait"))
    return Invoice.objects.get()


def test_a_name_and_an_address_outside_latin_1_print_with_every_font_embedded(api_client, member, tmp_path):
    invoice = invoice_for(api_client, member, first_name="Łukasz", last_name="Nguyễn 🩰", address="3 allée Ōtsuka")
    assert invoice.customer_name == "Łukasz Nguyễn 🩰"
    content = invoice_document(invoice=invoice)

    text = poppler("pdftotext", content, tmp_path, "-enc", "UTF-8")
    assert "Łukasz Nguyễn" in text and "3 allée Ōtsuka, 69003 Lyon" in text
    assert "FACTURE" in text and "190,00 €" in text and SELLER in text
    # A pictograph no installed font draws is left out (pdf.py), never printed as a box or a replacement mark.
    assert "🩰" not in text and "\ufffd" not in text and "■" not in text

    fonts = embedded_fonts(content, tmp_path)
    assert fonts and all(emb == "yes" for _, emb in fonts), fonts
    assert not any("Helvetica" in name for name, _ in fonts)


def test_other_scripts_and_emoji_print_through_the_fallback_fonts(api_client, member, tmp_path):
    invoice = invoice_for(api_client, member, first_name="Sakura 💃", last_name="大塚", address="Улица Ленина 5")
    content = invoice_document(invoice=invoice)
    text = poppler("pdftotext", content, tmp_path, "-enc", "UTF-8")
    assert "Sakura 💃 大塚" in text and "Улица Ленина 5, 69003 Lyon" in text
    fonts = embedded_fonts(content, tmp_path)
    assert len(fonts) >= 3 and all(emb == "yes" for _, emb in fonts), fonts


def test_the_metadata_are_the_invoices_and_the_studios(api_client, member):
    with freeze_time("2030-03-05 14:30:00"):
        invoice = invoice_for(api_client, member, first_name="Emma", last_name="Petit", address="3 rue des Lilas")
    content = invoice_document(invoice=invoice)
    info = PdfReader(BytesIO(content)).metadata
    assert info.title == f"Facture {invoice.number} – {SELLER}"
    assert info.author == SELLER and info.creator == SELLER and info.producer == SELLER
    assert info.subject == f"Facture n° {invoice.number} – Emma Petit"
    assert info.creation_date == datetime(2030, 3, 5, 14, 30, tzinfo=UTC) == invoice.issued_at
    assert info.modification_date == info.creation_date
    assert invoice_document(invoice=invoice) == content  # stored once, and the same bytes whenever rendered
    from invoices.pdf import invoice_pdf_render

    assert invoice_pdf_render(invoice) == content
