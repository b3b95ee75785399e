from django.contrib import admin

from .models import CourseFeedback, PartyReservation, Reservation


@admin.register(Reservation)
class ReservationAdmin(admin.ModelAdmin):
    list_display = ("session", "user", "participants", "status", "hold_expires_at", "created_at")
    list_filter = ("status",)
    list_select_related = ("session__course", "user")
    search_fields = ("user__email", "email", "last_name")
    raw_id_fields = ("session", "user")


@admin.register(PartyReservation)
class PartyReservationAdmin(admin.ModelAdmin):
    list_display = ("event_type", "date", "time", "participants", "email", "created_at")
    list_filter = ("event_type",)
    list_select_related = ("user",)
    search_fields = ("email", "last_name", "user__email")
    raw_id_fields = ("user",)


@admin.register(CourseFeedback)
class CourseFeedbackAdmin(admin.ModelAdmin):
    list_display = ("course", "user", "rating", "updated_at")
    list_filter = ("rating",)
    list_select_related = ("course", "user")
    search_fields = ("user__email", "comment")
    raw_id_fields = ("user", "course")
