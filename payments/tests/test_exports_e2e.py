"""The dashboard's exports in a browser: the .xlsx is offered first and downloads as a workbook, the CSV beside it,
each choice on its own line and large enough for a finger on a phone."""

import io

import openpyxl
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_staff_download_an_export_as_xlsx_or_csv_from_a_phone(page, live_server, login_as, staff):
    login_as(staff)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/admin/exports")
    formats = page.get_by_role("group", name="Format")
    xlsx, as_csv = formats.get_by_role("radio", name="Excel (.xlsx)"), formats.get_by_role("radio", name="CSV")
    expect(xlsx).to_be_checked()
    labels = [formats.locator("label").nth(i).bounding_box() for i in range(2)]
    assert all(box["height"] >= 44 for box in labels)
    assert labels[1]["y"] >= labels[0]["y"] + labels[0]["height"]  # one choice a line
    members = page.get_by_role("link", name="Membres")
    with page.expect_download() as download:
        members.click()
    assert download.value.suggested_filename.endswith(".xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(open(download.value.path(), "rb").read())).worksheets[0]
    assert [c.value for c in next(sheet.iter_rows())][:4] == ["Prénom", "Nom", "E-mail", "Téléphone"]
    as_csv.check()
    with page.expect_download() as download:
        members.click()
    assert download.value.suggested_filename.endswith(".csv")
