from django.contrib import admin

from .models import PartyRequestEvent, PartyReservation, RentalRequestEvent, RoomRentalRequest

# The life of a request is written by its services (the deposit by payments): its status, quote and history are
# read only here.
QUOTED_REQUEST_READONLY = (
    "status",
    "quote_amount",
    "deposit_amount",
    "quote_note",
    "quoted_at",
    "deposit_paid_at",
    "closed_at",
)


class RequestEventInline(admin.TabularInline):
    """The request's history, read only: steps go through the services (quote, deposit, confirm...)."""

    fields = ("created_at", "kind", "actor", "by_staff", "note")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class PartyRequestEventInline(RequestEventInline):
    model = PartyRequestEvent


class RentalRequestEventInline(RequestEventInline):
    model = RentalRequestEvent


@admin.register(PartyReservation)
class PartyReservationAdmin(admin.ModelAdmin):
    list_display = ("event_type", "date", "time", "participants", "email", "status", "quote_amount", "created_at")
    list_filter = ("event_type", "status")
    readonly_fields = (
        *QUOTED_REQUEST_READONLY[:3],
        "quote_participants",
        "quote_spectators",
        *QUOTED_REQUEST_READONLY[3:],
    )
    inlines = [PartyRequestEventInline]
    list_select_related = ("user",)
    search_fields = ("email", "last_name", "user__email")
    raw_id_fields = ("user",)


@admin.register(RoomRentalRequest)
class RoomRentalRequestAdmin(admin.ModelAdmin):
    list_display = ("name", "event_type", "date", "time", "email", "phone", "status", "quote_amount", "created_at")
    list_filter = ("event_type", "status")
    readonly_fields = QUOTED_REQUEST_READONLY
    inlines = [RentalRequestEventInline]
    search_fields = ("name", "email", "phone", "message")
    date_hierarchy = "date"
    raw_id_fields = ("user",)
