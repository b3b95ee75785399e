from django.urls import path

from . import accounting_apis, apis

api_urlpatterns = [
    path("invoices/mine", apis.MyInvoicesApi.as_view(), name="api-invoices-mine"),
    path("invoices/<int:invoice_id>/pdf", apis.InvoicePdfApi.as_view(), name="api-invoice-pdf"),
    path("invoices/orders/<str:order_id>/pdf", apis.OrderInvoicePdfApi.as_view(), name="api-order-invoice-pdf"),
    path("accounting/journal", accounting_apis.AccountingJournalApi.as_view(), name="api-accounting-journal"),
    path("accounting/fec", accounting_apis.AccountingFecApi.as_view(), name="api-accounting-fec"),
]
