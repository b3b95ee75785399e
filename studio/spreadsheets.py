"""Tables written for spreadsheets, as CSV and as .xlsx, from one description of their columns.

The CSV follows docs/decisions.md 39 (UTF-8 with a byte-order mark, `;`, decimal comma, DD/MM/YYYY, HH:MM in
Europe/Paris) for the tools that read CSV; the .xlsx has typed cells (numbers, euro amounts, dates, text), so that a
spreadsheet opens it without an import wizard and keeps leading zeros.

Every text cell goes through `neutralise`, in both formats: a text a spreadsheet would read as a formula (`=`, `+`,
`-`, `@`, a tab or a carriage return first, after any spaces: OWASP's CSV-injection rule) is written after a single
quote, so that it shows as the text it is and is never evaluated. Numbers, amounts and dates are typed values, never
text, so a negative amount stays a number.
"""

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from enum import StrEnum
from functools import partial

from django.utils import timezone

BOM = "\ufeff"
CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# The first characters that make Excel or LibreOffice read a cell as a formula (OWASP), with their full-width forms,
# which some spreadsheets take for the same.
FORMULA_TRIGGERS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
# Control characters no XML file may hold (openpyxl refuses them); tab, line feed and carriage return are kept.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

MONEY_FORMAT = '#,##0.00 "€";-#,##0.00 "€"'
DATE_FORMAT = "dd/mm/yyyy"
TIME_FORMAT = "hh:mm"
TEXT_FORMAT = "@"


class CellType(StrEnum):
    TEXT = "text"
    PHONE = "phone"  # a phone number: digits that are text, never a number (leading 0)
    CODE = "code"  # digits that are text, such as a postcode (leading 0)
    INTEGER = "integer"
    MONEY = "money"  # euros, a Decimal
    DATE = "date"  # a date, or an aware datetime shown as its Paris day
    TIME = "time"  # an aware datetime shown as its Paris time


@dataclass(frozen=True)
class Column:
    header: str
    type: CellType = CellType.TEXT
    width: int = 0  # .xlsx column width in characters; 0: from the header


def neutralise(text: str) -> str:
    """The text with the control characters no file may hold removed, and a single quote first when a spreadsheet
    would otherwise read it as a formula."""
    text = CONTROL_CHARACTERS.sub("", text)
    # LibreOffice drops the spaces before a CSV cell's text: ` =1+1` is a formula there too.
    start = text.lstrip(" \u00a0\n")
    if start and start[0] in FORMULA_TRIGGERS:
        return "'" + text
    return text


def _as_date(value: date | datetime) -> date:
    return timezone.localtime(value).date() if isinstance(value, datetime) else value


def _as_time(value: datetime | time) -> time:
    if isinstance(value, datetime):
        value = timezone.localtime(value).time()
    return value.replace(second=0, microsecond=0, tzinfo=None)


def _grouped_phone(digits: str) -> str:
    """A French ten-digit number as it is written, `06 12 34 56 78`: a spreadsheet reading CSV keeps it as text."""
    if len(digits) == 10 and digits.isdigit():
        return " ".join(digits[i : i + 2] for i in range(0, 10, 2))
    return digits


def csv_cell(column: Column, value) -> str:
    if value is None or value == "":
        return ""
    match column.type:
        case CellType.INTEGER:
            return str(int(value))
        case CellType.MONEY:
            return f"{Decimal(value):.2f}".replace(".", ",")
        case CellType.DATE:
            return f"{_as_date(value):%d/%m/%Y}"
        case CellType.TIME:
            return f"{_as_time(value):%H:%M}"
        case CellType.PHONE:
            return neutralise(_grouped_phone(str(value)))
        case _:
            return neutralise(str(value))


def _local_times():
    """`timezone.localtime` for one table: the current time zone read once, and each instant converted once (a class's
    start is in two columns of every booking of the class)."""
    zone = timezone.get_current_timezone()
    seen: dict[datetime, datetime] = {}

    def local(value: datetime) -> datetime:
        found = seen.get(value)
        if found is None:
            if timezone.is_naive(value):
                raise ValueError("localtime() cannot be applied to a naive datetime")
            found = seen[value] = value.astimezone(zone)
        return found

    return local


def _remembered(write):
    """`write`, each value written once: a class's date and time repeat for every booking of the class (an instant is
    equal to itself whatever its time zone, and `date` never equals a `datetime`)."""
    seen: dict = {}

    def remembered(value) -> str:
        found = seen.get(value)
        if found is None:
            found = seen[value] = write(value)
        return found

    return remembered


def _csv_writers(columns: Sequence[Column]) -> list:
    """Per column, what `csv_cell` writes for a value, its type decided once for the table rather than per cell, with
    the table's Paris times (`_local_times`)."""
    local = _local_times()

    def as_date(value) -> str:
        return f"{local(value).date() if isinstance(value, datetime) else value:%d/%m/%Y}"

    def as_time(value) -> str:
        return f"{local(value) if isinstance(value, datetime) else value:%H:%M}"

    texts: dict[str, str] = {}

    def as_text(value) -> str:
        # Titles, names and statuses repeat from row to row: each text is neutralised once.
        if type(value) is not str:
            return neutralise(str(value))
        found = texts.get(value)
        if found is None:
            found = texts[value] = neutralise(value)
        return found

    kinds = {
        CellType.INTEGER: lambda: lambda value: str(int(value)),
        CellType.MONEY: lambda: lambda value: f"{Decimal(value):.2f}".replace(".", ","),
        CellType.DATE: lambda: _remembered(as_date),
        CellType.TIME: lambda: _remembered(as_time),
        CellType.PHONE: lambda: lambda value: neutralise(_grouped_phone(str(value))),
    }
    return [kinds.get(column.type, lambda: as_text)() for column in columns]


def table_csv(columns: Sequence[Column], rows: Iterable[Sequence]) -> str:
    """The table as CSV text (docs/decisions.md 39), starting with the byte-order mark. Each cell is what `csv_cell`
    writes."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow([neutralise(c.header) for c in columns])
    writers = _csv_writers(columns)
    for row in rows:
        writer.writerow(
            ["" if value is None or value == "" else write(value) for write, value in zip(writers, row, strict=True)]
        )
    return buffer.getvalue()


def _text_cell(new_cell, text: str):
    cell = new_cell(neutralise(text))
    # A string whatever it looks like: openpyxl would otherwise take `#N/A` for an error value.
    cell.data_type = "s"
    return cell


def _xlsx_cell(new_cell, column: Column, value, local=timezone.localtime):
    """The cell of `value`; `new_cell(value)` makes a write-only cell of the sheet; `local` converts an instant to
    Paris time (`_local_times`)."""
    if value is None or (value == "" and column.type not in (CellType.TEXT, CellType.PHONE, CellType.CODE)):
        return new_cell(None)
    match column.type:
        case CellType.INTEGER:
            cell = new_cell(int(value))
        case CellType.MONEY:
            cell = new_cell(Decimal(value))
            cell.number_format = MONEY_FORMAT
        case CellType.DATE:
            cell = new_cell(local(value).date() if isinstance(value, datetime) else value)
            cell.number_format = DATE_FORMAT
        case CellType.TIME:
            cell = new_cell(_as_time(local(value).time() if isinstance(value, datetime) else value))
            cell.number_format = TIME_FORMAT
        case _:
            cell = _text_cell(new_cell, str(value))
            if column.type in (CellType.PHONE, CellType.CODE):
                cell.number_format = TEXT_FORMAT
    return cell


def _sheet_title(title: str) -> str:
    return re.sub(r"[\[\]:*?/\\]", " ", title)[:31] or "Export"


def table_xlsx(columns: Sequence[Column], rows: Iterable[Sequence], *, title: str) -> bytes:
    """The table as an .xlsx workbook of one sheet: a bold, frozen header row with filters, then typed cells."""
    # Imported here: the web workers load every view at start, and only staff exporting a workbook need openpyxl.
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(_sheet_title(title))
    new_cell = partial(WriteOnlyCell, sheet)
    sheet.freeze_panes = "A2"
    for index, column in enumerate(columns, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = column.width or max(12, len(column.header) + 2)
    bold = Font(bold=True)
    header = []
    for column in columns:
        cell = _text_cell(new_cell, column.header)
        cell.font = bold
        header.append(cell)
    sheet.append(header)
    count = 0
    local = _local_times()
    for row in rows:
        sheet.append([_xlsx_cell(new_cell, column, value, local) for column, value in zip(columns, row, strict=True)])
        count += 1
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{count + 1}"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
