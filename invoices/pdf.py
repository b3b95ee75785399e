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

MARGIN = 20 * mm


def euros(amount: Decimal) -> str:
    """French money: "1 190,00 €"."""
    whole, cents = f"{Decimal(amount):.2f}".split(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{' '.join(groups)},{cents} €"


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

    # The customer.
    y = min(y, ry) - 28
    pdf.setFont(BOLD, 10)
    pdf.drawString(MARGIN, y, "Client")
    pdf.setFont(REGULAR, 10)
    for line in (invoice.customer_name, invoice.customer_address, invoice.customer_email):
        if line:
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

    # The line: designation, quantity, unit price, total.
    y -= 30
    columns = (MARGIN, width - MARGIN - 95 * mm, width - MARGIN - 60 * mm, width - MARGIN)
    pdf.setFillColor(colors.HexColor("#eeeeee"))
    pdf.rect(MARGIN, y - 5, width - 2 * MARGIN, 18, stroke=0, fill=1)
    pdf.setFillColor(colors.black)
    pdf.setFont(BOLD, 9.5)
    pdf.drawString(columns[0] + 3, y, "Désignation")
    pdf.drawRightString(columns[1] + 15 * mm, y, "Qté")
    pdf.drawRightString(columns[2] + 25 * mm, y, "Prix unitaire")
    pdf.drawRightString(columns[3] - 3, y, "Total")
    pdf.setFont(REGULAR, 9.5)
    sign = "-" if invoice.is_credit_note else ""
    description = _wrap(invoice.description, columns[1] - columns[0] - 6, REGULAR, 9.5, pdf)
    y -= 20
    pdf.drawRightString(columns[1] + 15 * mm, y, str(invoice.quantity))
    pdf.drawRightString(columns[2] + 25 * mm, y, f"{sign}{euros(invoice.unit_amount)}")
    pdf.drawRightString(columns[3] - 3, y, f"{sign}{euros(invoice.total_amount + invoice.discount_amount)}")
    for line in description:
        pdf.drawString(columns[0] + 3, y, line)
        y -= 13
    if invoice.discount_amount:  # a promo code: the price, then its discount (docs/decisions.md 56)
        pdf.drawString(columns[0] + 3, y, invoice.discount_label or "Remise")
        pdf.drawRightString(columns[3] - 3, y, f"-{euros(invoice.discount_amount)}")
        y -= 13

    # Total and the VAT status.
    y -= 14
    pdf.line(columns[2], y + 10, columns[3], y + 10)
    pdf.setFont(BOLD, 11)
    label = "Total de l'avoir" if invoice.is_credit_note else "Total à payer"
    pdf.drawString(columns[2], y - 4, label)
    pdf.drawRightString(columns[3] - 3, y - 4, f"{sign}{euros(invoice.total_amount)}")
    pdf.setFont(REGULAR, 9.5)
    y -= 24
    pdf.drawString(MARGIN, y, invoice.seller_vat_note)
    if invoice.payment_method and not invoice.is_credit_note:
        y -= 13
        pdf.drawString(MARGIN, y, f"Réglée par {invoice.payment_method}.")
        if invoice.payment_lines:  # a desk sale: each means with its amount (docs/decisions.md 43)
            for label, amount in invoice.payment_lines:
                y -= 13
                pdf.drawString(MARGIN + 4 * mm, y, f"{label} {euros(Decimal(amount))}")
    if invoice.is_credit_note:
        y -= 13
        pdf.drawString(MARGIN, y, "Montant remboursé ou annulé sur le moyen de paiement d'origine.")

    pdf.setFont(REGULAR, 8)
    pdf.setFillColor(colors.HexColor("#555555"))
    pdf.drawString(
        MARGIN, MARGIN / 2, f"{invoice.seller_name} – SIRET {invoice.seller_siret} – {invoice.seller_vat_note}"
    )
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
