"""The terms of sale (docs/decisions.md 47): the configured text and version, and the withdrawal form.

Core code: the pages show them, payments records the version an order accepted and mails them."""

import html
import re
from io import BytesIO

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from .pdf import BOLD, REGULAR, StudioCanvas

WITHDRAWAL_FORM_TEMPLATE = "legal/withdrawal_form.txt"


def terms_version() -> str:
    return settings.TERMS_OF_SALE["version"]


def terms_text(template_name: str | None = None) -> str:
    """The studio's terms as HTML (headings and paragraphs)."""
    context = {"STUDIO": settings.STUDIO, "mediator": settings.CONSUMER_MEDIATOR}
    return render_to_string(template_name or settings.TERMS_OF_SALE["template"], context)


def withdrawal_form_text() -> str:
    """The model withdrawal form (annex to article R221-1 of the Code de la consommation), filled with the studio."""
    return render_to_string(WITHDRAWAL_FORM_TEMPLATE, {"STUDIO": settings.STUDIO}).strip()


MARGIN = 20 * mm
BLOCK = re.compile(r"<(h2|p)[^>]*>(.*?)</\1>", re.S)
TAG = re.compile(r"<[^>]+>")


def terms_blocks(text_html: str) -> list[tuple[str, str]]:
    """The terms' headings and paragraphs as plain text: [("h2" | "p", text)]."""
    return [(kind, " ".join(html.unescape(TAG.sub("", body)).split())) for kind, body in BLOCK.findall(text_html)]


def _wrap(pdf: StudioCanvas, text: str, font: str, size: float, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if not line or pdf.stringWidth(candidate, font, size) <= width:
            line = candidate
        else:
            lines.append(line)
            line = word
    return [*lines, line] if line else lines


def terms_pdf_render() -> bytes:
    """The terms of sale in force as a PDF (ReportLab, the site's fonts), for the purchase e-mail."""
    studio = settings.STUDIO["name"]
    buffer = BytesIO()
    pdf = StudioCanvas(
        buffer,
        pagesize=A4,
        pageCompression=0,
        title=f"Conditions générales de vente – {studio}",
        author=studio,
        subject=f"Conditions générales de vente, version {terms_version()}",
        created_at=timezone.now(),
    )
    width, height = A4
    usable = width - 2 * MARGIN
    y = height - MARGIN

    def line_out(text: str, font: str, size: float, gap: float) -> None:
        nonlocal y
        if y < MARGIN + gap:
            pdf.showPage()
            y = height - MARGIN
        pdf.setFont(font, size)
        pdf.drawString(MARGIN, y, text)
        y -= gap

    line_out("Conditions générales de vente", BOLD, 16, 20)
    line_out(f"{studio} – Version {terms_version()}", REGULAR, 9.5, 22)
    for kind, text in terms_blocks(terms_text()):
        font, size, gap = (BOLD, 12, 16) if kind == "h2" else (REGULAR, 10, 13.5)
        if kind == "h2":
            y -= 6
        for line in _wrap(pdf, text, font, size, usable):
            line_out(line, font, size, gap)
        y -= 5
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
