"""Every PDF the site writes embeds its fonts and prints any name the site accepts (docs/decisions.md 54): drawn
with studio/pdf.py's canvas, an instructor's statement as an invoice and its credit note (the gift vouchers use the
same canvas). `pdffonts` lists each font with emb=yes; `pdftotext` reads the names back."""

from datetime import date, datetime
from decimal import Decimal
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory
from courses.models_pay import InstructorPayRule, PayRuleKind
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory, TariffFactory
from invoices.documents import invoice_document
from invoices.models import Invoice
from invoices.services import credit_note_issue_for_order
from invoices.tests.helpers import pay_tariff
from invoices.tests.test_invoice_pdf import embedded_fonts, poppler
from studio.pdf import BOLD, REGULAR, StudioCanvas

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
NAMES = "Łukasz Nguyễn – 王小明 – Ōtsuka – Zoë Ñúñez"


def all_embedded(content: bytes, tmp_path) -> bool:
    fonts = embedded_fonts(content, tmp_path)
    return bool(fonts) and all(emb == "yes" for _, emb in fonts)


def test_the_canvas_embeds_every_font_it_draws_with(tmp_path):
    buffer = BytesIO()
    pdf = StudioCanvas(buffer, title="Essai", author="Studio", subject="Essai", created_at=timezone.now())
    for font in (REGULAR, BOLD):
        pdf.setFont(font, 12)
        pdf.drawString(50, 700 if font == REGULAR else 680, NAMES)
    pdf.showPage()
    pdf.save()
    content = buffer.getvalue()
    assert all_embedded(content, tmp_path)
    assert "Łukasz Nguyễn – 王小明 – Ōtsuka – Zoë Ñúñez" in poppler("pdftotext", content, tmp_path, "-enc", "UTF-8")


def test_an_instructors_statement_embeds_its_fonts(client, tmp_path):
    lea = InstructorFactory(name="Łukasz Nguyễn", user=UserFactory(role=Role.INSTRUCTOR))
    InstructorPayRule.objects.create(
        instructor=lea, starts_on=date(2026, 1, 1), kind=PayRuleKind.PER_ATTENDEE, attendee_amount=Decimal("10.00")
    )
    session = CourseSessionFactory(
        instructor=lea, course=CourseFactory(title="Pole Flow"), start=datetime(2026, 10, 6, 19, 0, tzinfo=PARIS)
    )
    Attendance.objects.create(reservation=ReservationFactory(session=session), status=AttendanceStatus.PRESENT)
    client.force_login(lea.user)
    response = client.get(f"/api/instructors/{lea.pk}/statements?month=2026-10&format=pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert all_embedded(response.content, tmp_path)
    assert "Łukasz Nguyễn" in poppler("pdftotext", response.content, tmp_path, "-enc", "UTF-8")


def test_an_invoice_and_its_credit_note_embed_their_fonts(api_client, member, tmp_path):
    member.first_name, member.last_name = "王小明", "Nguyễn"
    member.save()
    order = pay_tariff(api_client, member, TariffFactory(price=Decimal("190.00"), type="forfait"))
    with transaction.atomic():
        note = credit_note_issue_for_order(order_id=order.pk, reason="Rétractation")
    for document in (Invoice.objects.get(pk=note.credited_invoice_id), note):
        content = invoice_document(invoice=Invoice.objects.select_related("credited_invoice").get(pk=document.pk))
        assert all_embedded(content, tmp_path)
        assert "王小明 Nguyễn" in poppler("pdftotext", content, tmp_path, "-enc", "UTF-8")
