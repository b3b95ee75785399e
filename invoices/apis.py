"""Invoices over the API: a member lists theirs and downloads each PDF; staff download any, also by the
payment order's id (the dashboard's orders list). Someone else's invoice answers 404, as one that does not exist."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import DateTimeOutputField
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from .documents import invoice_document
from .models import Invoice, InvoiceKind
from .selectors import invoice_for_reader, invoice_of_order_for_staff, member_invoices

PDF_RESPONSE = {
    (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="Le PDF de la facture ou de l'avoir."),
    404: ErrorOutput,
}


def invoice_pdf_url(invoice: Invoice) -> str:
    return f"/api/invoices/{invoice.pk}/pdf"


class InvoiceOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=InvoiceKind.choices)
    number = serializers.CharField()
    issued_at = DateTimeOutputField()
    description = serializers.CharField()
    total_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    credited_invoice_number = serializers.CharField(allow_null=True, source="credited_invoice.number", default=None)
    pdf_url = serializers.SerializerMethodField()

    def get_pdf_url(self, invoice) -> str:
        return invoice_pdf_url(invoice)


def pdf_response(invoice: Invoice) -> HttpResponse:
    response = HttpResponse(invoice_document(invoice=invoice), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{invoice.file_name}"'
    response["Cache-Control"] = "private, no-store"
    return response


class MyInvoicesApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="invoices_mine", responses={200: InvoiceOutput(many=True)})
    def get(self, request):
        return Response(InvoiceOutput(member_invoices(member_id=request.user.pk), many=True).data)


class InvoicePdfApi(APIView):
    """The member's own invoice, or any for staff (per object: 404 otherwise)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="invoice_pdf", responses=PDF_RESPONSE)
    def get(self, request, invoice_id: int):
        return pdf_response(invoice_for_reader(invoice_id=invoice_id, user=request.user))


class OrderInvoicePdfApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(operation_id="order_invoice_pdf", responses=PDF_RESPONSE)
    def get(self, request, order_id: str):
        return pdf_response(invoice_of_order_for_staff(order_id=order_id))
