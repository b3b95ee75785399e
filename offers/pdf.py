"""A gift card's voucher as a PDF: the studio's name and colours, the code, the amount, the validity and the buyer's
message, drawn on the site's canvas (studio/pdf.py: fonts embedded, any name prints, `pdftotext` reads it back).
Drawn from the card's row only, dated by its purchase: the same card always gives the same bytes."""

from io import BytesIO

from django.conf import settings
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm

from studio.pdf import BOLD, REGULAR, StudioCanvas
from studio.templatetags.formatting import euros

from .models import GiftCard

PLUM = colors.HexColor("#2b1033")
PLUM_LIGHT = colors.HexColor("#8e2c8e")
PINK = colors.HexColor("#fbe7f5")
MARGIN = 18 * mm
VOUCHER_TITLE = "Carte cadeau"


def _wrap(pdf: StudioCanvas, text: str, font: str, size: float, width: float) -> list[str]:
    lines = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if not line or pdf.stringWidth(candidate, font, size) <= width:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def gift_card_voucher_file_name(card: GiftCard) -> str:
    return f"carte-cadeau-{card.code}.pdf"


def gift_card_voucher_pdf(card: GiftCard) -> bytes:
    studio = settings.STUDIO["name"]
    buffer = BytesIO()
    pdf = StudioCanvas(
        buffer,
        pagesize=landscape(A4),
        pageCompression=0,
        title=f"{VOUCHER_TITLE} {card.code} – {studio}",
        author=studio,
        subject=f"{VOUCHER_TITLE} de {euros(card.initial_amount)}",
        created_at=card.purchased_at or card.created_at,
    )
    width, height = landscape(A4)
    # The studio's look: a plum frame and band, a pink card.
    pdf.setFillColor(PINK)
    pdf.setStrokeColor(PLUM_LIGHT)
    pdf.setLineWidth(3)
    pdf.roundRect(MARGIN / 2, MARGIN / 2, width - MARGIN, height - MARGIN, 14, stroke=1, fill=1)
    pdf.setFillColor(PLUM)
    pdf.rect(MARGIN / 2, height - MARGIN / 2 - 34 * mm, width - MARGIN, 34 * mm, stroke=0, fill=1)
    pdf.setFillColor(colors.white)
    pdf.setFont(BOLD, 30)
    pdf.drawString(MARGIN, height - MARGIN - 16 * mm, VOUCHER_TITLE)
    pdf.setFont(REGULAR, 13)
    pdf.drawRightString(width - MARGIN, height - MARGIN - 15 * mm, studio)

    y = height - MARGIN - 48 * mm
    pdf.setFillColor(PLUM)
    if card.recipient_name:
        pdf.setFont(REGULAR, 15)
        pdf.drawString(MARGIN, y, f"Pour {card.recipient_name}")
        y -= 18 * mm
    pdf.setFont(BOLD, 40)
    what = euros(card.initial_amount)
    if card.tariff_id:
        what = f"{card.tariff.title} ({what})"
        pdf.setFont(BOLD, 24)
    pdf.drawString(MARGIN, y, what)
    y -= 16 * mm

    pdf.setFont(REGULAR, 12)
    pdf.drawString(MARGIN, y, "Code")
    pdf.setFont(BOLD, 22)
    pdf.drawString(MARGIN + 30 * mm, y, card.code)
    y -= 10 * mm
    pdf.setFont(REGULAR, 12)
    if card.expires_on:
        pdf.drawString(MARGIN, y, f"Valable jusqu'au {card.expires_on:%d/%m/%Y}")
        y -= 10 * mm

    if card.message:
        pdf.setFillColor(PLUM_LIGHT)
        pdf.setFont(REGULAR, 12)
        for line in _wrap(pdf, f"« {card.message} »", REGULAR, 12, width - 2 * MARGIN)[:8]:
            pdf.drawString(MARGIN, y, line)
            y -= 6 * mm
        if card.buyer_name:
            pdf.drawRightString(width - MARGIN, y, f"— {card.buyer_name}")

    pdf.setFillColor(PLUM)
    pdf.setFont(REGULAR, 9.5)
    how = (
        "À utiliser sur le site pour un cours, une carte ou un abonnement : saisissez le code au moment de payer. "
        "Utilisable en une ou plusieurs fois ; le solde se consulte sur le site avec le code."
    )
    foot = MARGIN + 8 * mm
    for line in reversed(_wrap(pdf, how, REGULAR, 9.5, width - 2 * MARGIN)):
        pdf.drawString(MARGIN, foot, line)
        foot += 5 * mm
    address = f"{settings.STUDIO['address']}, {settings.STUDIO['postal_code']} {settings.STUDIO['city']}"
    pdf.drawString(MARGIN, MARGIN, f"{studio} – {address} – {settings.SITE_URL}")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
