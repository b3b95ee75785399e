from django.contrib import admin

from .models import DeskPaymentLine, PaymentDispute, PaymentOrder, PaymentWebhookEvent, SimulatedProviderOrder
from .subscriptions.models import SubscriptionAction, SubscriptionPlan


class ReadOnlyAdminMixin:
    """What a provider told us: shown, never edited here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PaymentDisputeInline(ReadOnlyAdminMixin, admin.TabularInline):
    """A chargeback opened on the order (answered in Stripe's Dashboard): shown on the order, blocking nothing."""

    model = PaymentDispute
    fields = ("dispute_id", "amount", "reason", "created_at")
    readonly_fields = fields
    extra = 0


class DeskPaymentLineInline(ReadOnlyAdminMixin, admin.TabularInline):
    """The means of a sale at the front desk (docs/decisions.md 43): recorded with the sale, never edited."""

    model = DeskPaymentLine
    extra = 0
    fields = ("means", "amount", "recorded_by", "created_at")
    readonly_fields = fields


@admin.register(PaymentOrder)
class PaymentOrderAdmin(admin.ModelAdmin):
    list_display = (
        "order_id",
        "created_at",
        "email",
        "title",
        "amount",
        "currency",
        "status",
        "provider",
        "payment_method_label",
    )
    list_filter = ("status", "provider", "payment_method", "type")
    search_fields = ("order_id", "email", "last_name", "title", "capture_id")
    raw_id_fields = ("user", "reservation", "tariff")
    readonly_fields = ("created_at", "updated_at", "completed_at", "receipt_sent_at")
    date_hierarchy = "created_at"
    inlines = [PaymentDisputeInline, DeskPaymentLineInline]


@admin.register(PaymentDispute)
class PaymentDisputeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("dispute_id", "created_at", "order", "amount", "reason")
    search_fields = ("dispute_id", "charge_id", "intent_id", "order__order_id", "order__email")
    list_select_related = ("order",)


@admin.register(PaymentWebhookEvent)
class PaymentWebhookEventAdmin(admin.ModelAdmin):
    list_display = ("event_id", "event_type", "resource_id", "received_at", "processed_at")
    search_fields = ("event_id", "resource_id")


@admin.register(SimulatedProviderOrder)
class SimulatedProviderOrderAdmin(admin.ModelAdmin):
    list_display = (
        "order_id",
        "amount",
        "status",
        "method_label",
        "scenario",
        "challenge",
        "capture_status",
        "created_at",
    )


# --- Subscriptions ------------------------------------------------------------------------------------------------


@admin.register(SubscriptionPlan)
class SubscriptionPlanAdmin(admin.ModelAdmin):
    """A tariff sold as a subscription: whether it is a reduced rate (its weekly cap is the tariff's own field);
    PayPal's ids are the site's."""

    list_display = ("tariff", "reduced_rate", "pause_weeks_per_year", "paypal_plan_id", "paypal_plan_amount")
    raw_id_fields = ("tariff",)
    readonly_fields = ("paypal_product_id", "paypal_plan_id", "paypal_plan_amount")


@admin.register(SubscriptionAction)
class SubscriptionActionAdmin(admin.ModelAdmin):
    """The log of staff actions: read only."""

    list_display = ("created_at", "subscription", "kind", "by", "outcome")
    list_filter = ("kind",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
