"""An instructor's monthly statement as files (docs/decisions.md 52): CSV as every export is (docs/decisions.md 39:
UTF-8 with a byte-order mark, `;`, decimal comma, DD/MM/YYYY, no formula) and a PDF drawn with the site's canvas
(studio/pdf.py: fonts embedded with their fallbacks, so any name the site accepts prints)."""

from io import BytesIO

from django.conf import settings
from django.utils import timezone
from django.utils.text import slugify
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm

from studio.pdf import BOLD, REGULAR, StudioCanvas
from studio.spreadsheets import CellType, Column, table_csv

from .selectors.statements import Statement, euros

COLUMNS = (
    Column("Date", CellType.DATE),
    Column("Heure", CellType.TIME),
    Column("Cours"),
    Column("Participants présents", CellType.INTEGER),
    Column("Règle appliquée"),
    Column("Montant", CellType.MONEY),
)
TOTAL = "Total du mois"
MARGIN = 18 * mm


def statement_file_name(statement: Statement, extension: str) -> str:
    who = slugify(statement.instructor.name) or f"professeur-{statement.instructor.pk}"
    return f"releve-{who}-{statement.month:%Y-%m}.{extension}"


def statement_csv(statement: Statement) -> bytes:
    rows = [
        (line.start, line.start, line.course_title, line.attendees, line.rule_text, line.amount)
        for line in statement.lines
    ]
    rows.append((None, None, TOTAL, sum(line.attendees for line in statement.lines), None, statement.total))
    return table_csv(COLUMNS, rows).encode("utf-8")


def statement_title(statement: Statement) -> str:
    return f"Relevé de {statement.month_label} – {statement.instructor.name}"


def statement_pdf(statement: Statement) -> bytes:
    buffer = BytesIO()
    studio = settings.STUDIO["name"]
    title = statement_title(statement)
    pdf = StudioCanvas(
        buffer,
        pagesize=landscape(A4),  # room for a course's title and a rule's amounts on one line
        pageCompression=0,
        title=title,
        author=studio,
        subject=f"Cours donnés en {statement.month_label}",
        created_at=timezone.now(),
    )
    width, height = landscape(A4)
    # x of each column: date, time, course, attendees (right-aligned), rule, amount (right-aligned)
    x_date, x_time, x_course, x_attendees, x_rule, x_amount = (
        MARGIN,
        MARGIN + 24 * mm,
        MARGIN + 38 * mm,
        160 * mm,
        166 * mm,
        width - MARGIN,
    )

    def header(y: float) -> float:
        pdf.setFont(BOLD, 8.5)
        for x, text in ((x_date, "Date"), (x_time, "Heure"), (x_course, "Cours"), (x_rule, "Règle appliquée")):
            pdf.drawString(x, y, text)
        pdf.drawRightString(x_attendees, y, "Présents")
        pdf.drawRightString(x_amount, y, "Montant")
        pdf.setStrokeColor(colors.grey)
        pdf.line(MARGIN, y - 4, width - MARGIN, y - 4)
        pdf.setFont(REGULAR, 8.5)
        return y - 16

    y = height - MARGIN
    pdf.setFont(BOLD, 13)
    pdf.drawString(MARGIN, y, studio)
    pdf.setFont(BOLD, 15)
    y -= 26
    pdf.drawString(MARGIN, y, f"Relevé de {statement.month_label}")
    pdf.setFont(REGULAR, 11)
    y -= 17
    pdf.drawString(MARGIN, y, f"Professeur : {statement.instructor.name}")
    y = header(y - 28)
    if not statement.lines:
        pdf.drawString(MARGIN, y, "Aucun cours donné ce mois-ci.")
        y -= 14
    for line in statement.lines:
        if y < MARGIN + 30:
            pdf.showPage()
            y = header(height - MARGIN)
        local = timezone.localtime(line.start)
        pdf.drawString(x_date, y, f"{local:%d/%m/%Y}")
        pdf.drawString(x_time, y, f"{local:%H:%M}")
        pdf.drawString(x_course, y, _fit(pdf, line.course_title, x_attendees - 16 * mm - x_course))
        pdf.drawRightString(x_attendees, y, str(line.attendees))
        pdf.drawString(x_rule, y, _fit(pdf, line.rule_text, x_amount - 24 * mm - x_rule))
        pdf.drawRightString(x_amount, y, euros(line.amount))
        y -= 14
    pdf.line(MARGIN, y + 8, width - MARGIN, y + 8)
    pdf.setFont(BOLD, 10)
    pdf.drawString(MARGIN, y - 6, TOTAL)
    pdf.drawRightString(x_amount, y - 6, euros(statement.total))
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _fit(pdf: StudioCanvas, text: str, width: float) -> str:
    """The text, cut with an ellipsis when it would run into the next column."""
    if pdf.stringWidth(text) <= width:
        return text
    while text and pdf.stringWidth(text + "…") > width:
        text = text[:-1]
    return text + "…"
