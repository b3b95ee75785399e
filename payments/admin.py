from django.contrib import admin

from .models import PaymentOrder, PaymentWebhookEvent, SimulatedProviderOrder


@admin.register(PaymentOrder)
class PaymentOrderAdmin(admin.ModelAdmin):
    list_display = ("order_id", "created_at", "email", "title", "amount", "currency", "status", "provider")
    list_filter = ("status", "provider", "type")
    search_fields = ("order_id", "email", "last_name", "title", "capture_id")
    raw_id_fields = ("user", "reservation", "tariff")
    readonly_fields = ("created_at", "updated_at", "completed_at", "receipt_sent_at")
    date_hierarchy = "created_at"


@admin.register(PaymentWebhookEvent)
class PaymentWebhookEventAdmin(admin.ModelAdmin):
    list_display = ("event_id", "event_type", "resource_id", "received_at")
    search_fields = ("event_id", "resource_id")


@admin.register(SimulatedProviderOrder)
class SimulatedProviderOrderAdmin(admin.ModelAdmin):
    list_display = ("order_id", "amount", "status", "capture_status", "created_at")
