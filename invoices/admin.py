from django.contrib import admin

from .models import Invoice, InvoiceCounter


@admin.register(Invoice)
class InvoiceAdmin(admin.ModelAdmin):
    """Read only: an issued invoice is never changed or deleted (docs/decisions.md 40)."""

    list_display = ("number", "kind", "issued_at", "customer_name", "total_amount", "payment_order")
    list_filter = ("kind", "year", "vat_status")
    search_fields = ("number", "customer_name", "customer_company_name", "customer_email", "payment_order__order_id")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(InvoiceCounter)
class InvoiceCounterAdmin(admin.ModelAdmin):
    list_display = ("kind", "year", "last_number")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
