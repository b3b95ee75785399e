from django.urls import path

from . import apis

api_urlpatterns = [
    path("invoices/mine", apis.MyInvoicesApi.as_view(), name="api-invoices-mine"),
    path("invoices/<int:invoice_id>/pdf", apis.InvoicePdfApi.as_view(), name="api-invoice-pdf"),
    path("invoices/orders/<str:order_id>/pdf", apis.OrderInvoicePdfApi.as_view(), name="api-order-invoice-pdf"),
]
