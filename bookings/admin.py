from django.contrib import admin

from .models import Reservation


@admin.register(Reservation)
class ReservationAdmin(admin.ModelAdmin):
    list_display = ("session", "user", "participants", "status", "hold_expires_at", "created_at")
    list_filter = ("status",)
    list_select_related = ("session__course", "user")
    search_fields = ("user__email", "email", "last_name")
