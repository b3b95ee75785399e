"""An invoice's PDF, drawn with ReportLab from what the invoice row holds (nothing else is read, so the same invoice
always gives the same document, and the same bytes: its date is the invoice's issue date).

The canvas is the site's (studio/pdf.py): DejaVu Sans embedded, with fallback fonts, so any name the site accepts
prints; the metadata name the document and the studio.
"""

from decimal import Decimal
from io import BytesIO

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from studio.pdf import BOLD, REGULAR, StudioCanvas

from .models import Invoice
from .vat import VatStatus, vat_lines

MARGIN = 20 * mm
# What an invoice to a business must also say (Code de commerce L441-9 and L441-10, D441-5).
B2B_MENTIONS = (
    "Nature : prestations de services. Facture réglée à la commande : aucun escompte pour paiement anticipé.",
    "En cas de retard de paiement : pénalités au taux d'intérêt appliqué par la BCE à son opération de "
    "refinancement la plus récente majoré de 10 points, et indemnité forfaitaire pour frais de recouvrement de 40 €.",
)


def euros(amount: Decimal) -> str:
    """French money: "1 190,00 €"."""
    sign = "-" if Decimal(amount) < 0 else ""
    whole, cents = f"{abs(Decimal(amount)):.2f}".split(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{sign}{' '.join(groups)},{cents} €"


def percent(rate: Decimal) -> str:
    """A VAT rate as French writes it: "20 %", "5,5 %"."""
    return f"{Decimal(rate).normalize():f}".replace(".", ",") + "\u00a0%"


def _fr_date(dt) -> str:
    return timezone.localtime(dt).strftime("%d/%m/%Y")


def _wrap(text: str, width: float, font: str, size: float, pdf: StudioCanvas) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if pdf.stringWidth(candidate, font, size) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines or [""]


def _customer_lines(invoice: Invoice) -> list[str]:
    if not invoice.is_business:
        return [line for line in (invoice.customer_name, invoice.customer_address, invoice.customer_email) if line]
    lines = [invoice.customer_company_name]
    if invoice.customer_siren:
        lines.append(f"SIREN : {invoice.customer_siren}")
    if invoice.customer_vat_number:
        lines.append(f"N° de TVA : {invoice.customer_vat_number}")
    if invoice.customer_address:
        lines.append(invoice.customer_address)
    lines.append(f"À l'attention de {invoice.customer_name}")
    if invoice.customer_email:
        lines.append(invoice.customer_email)
    return lines


def _columns(width: float, taxable: bool) -> list[tuple[str, float]]:
    """The headers of the lines' figures and the right edge of each."""
    right = width - MARGIN - 3
    if taxable:
        return [
            ("Qté", right - 100 * mm),
            ("Total HT", right - 62 * mm),
            ("TVA", right - 30 * mm),
            ("Total TTC", right),
        ]
    return [("Qté", right - 75 * mm), ("Prix unitaire", right - 35 * mm), ("Total", right)]


def _draw_lines(pdf: StudioCanvas, invoice: Invoice, y: float, width: float) -> float:
    """The sale's line and its discount; when taxable, each with its price before VAT, its VAT and rate."""
    taxable = invoice.vat_status == VatStatus.TAXABLE
    columns = _columns(width, taxable)
    sign = -1 if invoice.is_credit_note else 1
    pdf.setFillColor(colors.HexColor("#eeeeee"))
    pdf.rect(MARGIN, y - 5, width - 2 * MARGIN, 18, stroke=0, fill=1)
    pdf.setFillColor(colors.black)
    pdf.setFont(BOLD, 9.5)
    pdf.drawString(MARGIN + 3, y, "Désignation")
    for header, right in columns:
        pdf.drawRightString(right, y, f"TVA {percent(invoice.vat_rate)}" if header == "TVA" else header)
    pdf.setFont(REGULAR, 9.5)
    gross = invoice.unit_amount * invoice.quantity
    lines = vat_lines(
        gross=gross,
        discount=invoice.discount_amount,
        rate=invoice.vat_rate,
        label=invoice.description,
        discount_label=f"Remise{f' – {invoice.discount_label}' if invoice.discount_label else ''}",
    )
    text_width = columns[0][1] - 12 * mm - MARGIN
    y -= 20
    for index, line in enumerate(lines):
        first = index == 0
        if taxable:
            figures = [str(invoice.quantity) if first else "", line.excl_vat, line.vat, line.incl_vat]
        else:
            unit = invoice.unit_amount if first else line.incl_vat
            figures = [str(invoice.quantity) if first else "", unit, line.incl_vat]
        for figure, (_, right) in zip(figures, columns, strict=True):
            pdf.drawRightString(right, y, figure if isinstance(figure, str) else euros(sign * figure))
        for text in _wrap(line.label, text_width, REGULAR, 9.5, pdf):
            pdf.drawString(MARGIN + 3, y, text)
            y -= 13
        y -= 3
    return y


def _draw_totals(pdf: StudioCanvas, invoice: Invoice, y: float, width: float) -> float:
    """Totals (before VAT, VAT, VAT included when taxable), then what was paid, or the credit note's total."""
    sign = -1 if invoice.is_credit_note else 1
    left, right = width - MARGIN - 80 * mm, width - MARGIN - 3
    rows = []
    if invoice.vat_status == VatStatus.TAXABLE:
        rows += [
            ("Total HT", invoice.total_excl_vat, False),
            (f"TVA {percent(invoice.vat_rate)}", invoice.vat_amount, False),
            ("Total TTC", invoice.total_amount, not invoice.paid_at or invoice.is_credit_note),
        ]
    if invoice.is_credit_note:
        if not rows:
            rows.append(("Total de l'avoir", invoice.total_amount, True))
    elif invoice.paid_at:
        rows.append(("Montant payé", invoice.total_amount, True))
    else:
        rows.append(("Total à payer", invoice.total_amount, True))
    y -= 4
    pdf.line(left, y + 10, width - MARGIN, y + 10)
    for label, amount, bold in rows:
        pdf.setFont(BOLD if bold else REGULAR, 11 if bold else 10)
        y -= 4
        pdf.drawString(left, y, label)
        pdf.drawRightString(right, y, euros(sign * amount))
        y -= 12
    return y


def invoice_pdf_render(invoice: Invoice) -> bytes:
    buffer = BytesIO()
    title = "AVOIR" if invoice.is_credit_note else "FACTURE"
    kind = title.capitalize()
    pdf = StudioCanvas(
        buffer,
        pagesize=A4,
        pageCompression=0,
        title=f"{kind} {invoice.number} – {invoice.seller_name}",
        author=invoice.seller_name,
        subject=f"{kind} n° {invoice.number} – {invoice.customer_name}",
        created_at=invoice.issued_at,
    )
    width, height = A4
    y = height - MARGIN

    # The studio, as the law wants it named.
    pdf.setFont(BOLD, 13)
    pdf.drawString(MARGIN, y, invoice.seller_name)
    pdf.setFont(REGULAR, 9.5)
    for line in (invoice.seller_address, f"SIRET : {invoice.seller_siret}"):
        y -= 13
        pdf.drawString(MARGIN, y, line)

    # Number and dates, on the right.
    pdf.setFont(BOLD, 20)
    pdf.drawRightString(width - MARGIN, height - MARGIN, title)
    pdf.setFont(REGULAR, 10)
    right = [f"N° {invoice.number}", f"Date d'émission : {_fr_date(invoice.issued_at)}"]
    if invoice.paid_at and not invoice.is_credit_note:
        right.append(f"Payée le {_fr_date(invoice.paid_at)}")
    ry = height - MARGIN - 18
    for line in right:
        pdf.drawRightString(width - MARGIN, ry, line)
        ry -= 13

    # The customer: a company first, with its identifiers (docs/decisions.md 54).
    y = min(y, ry) - 28
    pdf.setFont(BOLD, 10)
    pdf.drawString(MARGIN, y, "Client")
    pdf.setFont(REGULAR, 10)
    for line in _customer_lines(invoice):
        y -= 13
        pdf.drawString(MARGIN, y, line)

    if invoice.is_credit_note and invoice.credited_invoice_id:
        y -= 24
        pdf.setFont(BOLD, 10)
        pdf.drawString(MARGIN, y, f"Avoir sur la facture n° {invoice.credited_invoice.number}")
        if invoice.reason:
            pdf.setFont(REGULAR, 9.5)
            for line in _wrap(f"Motif : {invoice.reason}", width - 2 * MARGIN, REGULAR, 9.5, pdf):
                y -= 13
                pdf.drawString(MARGIN, y, line)

    y = _draw_lines(pdf, invoice, y - 30, width)
    y = _draw_totals(pdf, invoice, y, width)

    # The VAT mention, the means of payment, the B2B mentions.
    pdf.setFont(REGULAR, 9.5)
    y -= 10
    if invoice.seller_vat_note:
        y -= 13
        pdf.drawString(MARGIN, y, invoice.seller_vat_note)
    if invoice.payment_method and not invoice.is_credit_note:
        y -= 13
        pdf.drawString(MARGIN, y, f"Réglée par {invoice.payment_method}.")
        for label, amount in invoice.payment_lines or ():  # each means and its amount (docs/decisions.md 43, 49)
            y -= 13
            pdf.drawString(MARGIN + 4 * mm, y, f"{label} {euros(Decimal(amount))}")
    if invoice.is_credit_note:
        y -= 13
        pdf.drawString(MARGIN, y, "Montant remboursé ou annulé sur le moyen de paiement d'origine.")
    if invoice.is_business:
        pdf.setFont(REGULAR, 8.5)
        y -= 6
        for mention in B2B_MENTIONS:
            for line in _wrap(mention, width - 2 * MARGIN, REGULAR, 8.5, pdf):
                y -= 11
                pdf.drawString(MARGIN, y, line)

    pdf.setFont(REGULAR, 8)
    pdf.setFillColor(colors.HexColor("#555555"))
    footer = " – ".join(
        part for part in (invoice.seller_name, f"SIRET {invoice.seller_siret}", invoice.seller_vat_note) if part
    )
    pdf.drawString(MARGIN, MARGIN / 2, footer)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
