from django.contrib import admin

from .models import CourseFeedback, Pass, PassAdjustment, Reservation
from .models_operations import LateCancellation
from .models_team import SubstituteRequest


@admin.register(Reservation)
class ReservationAdmin(admin.ModelAdmin):
    list_display = ("session", "user", "participants", "status", "paid_with_pass", "hold_expires_at", "created_at")
    list_filter = ("status",)
    list_select_related = ("session__course", "user", "paid_with_pass")
    search_fields = ("user__email", "email", "last_name")
    raw_id_fields = ("session", "user", "paid_with_pass")


@admin.register(CourseFeedback)
class CourseFeedbackAdmin(admin.ModelAdmin):
    list_display = ("course", "user", "rating", "updated_at")
    list_filter = ("rating",)
    list_select_related = ("course", "user")
    search_fields = ("user__email", "comment")
    raw_id_fields = ("user", "course")


class PassAdjustmentInline(admin.TabularInline):
    model = PassAdjustment
    fields = ("at", "action", "credits_delta", "expires_on_before", "expires_on_after", "reason", "by", "reservation")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Pass)
class PassAdmin(admin.ModelAdmin):
    """Read-only here: staff change passes in the dashboard, where every change is logged with its reason."""

    list_display = ("title", "member", "kind", "credits_left", "credits_total", "starts_on", "expires_on", "origin")
    list_filter = ("kind", "origin")
    list_select_related = ("member",)
    search_fields = ("member__email", "member__last_name", "title")
    inlines = [PassAdjustmentInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LateCancellation)
class LateCancellationAdmin(admin.ModelAdmin):
    """Read-only: written by the member's cancellation and made good by the booking that takes the seat again."""

    list_display = ("reservation", "session", "seats_taken_before", "status", "cancelled_at", "returned_at")
    list_filter = ("status",)
    list_select_related = ("reservation__user", "reservation__session__course", "session__course")
    search_fields = ("reservation__user__email",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SubstituteRequest)
class SubstituteRequestAdmin(admin.ModelAdmin):
    """Read only: asking, accepting and withdrawing go through bookings/services/substitutes.py, under the session's
    lock, with the e-mails they send (docs/decisions.md 52)."""

    list_display = ("session", "requested_by", "status", "accepted_by", "created_at", "staff_alerted_at")
    list_filter = ("status",)
    list_select_related = ("session__course", "requested_by", "accepted_by")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
