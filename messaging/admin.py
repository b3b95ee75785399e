from django.contrib import admin

from .models import ContactMessage, ContactReply, RentalRequestEvent, RoomRentalRequest


class ContactReplyInline(admin.TabularInline):
    model = ContactReply
    extra = 0
    fields = ("created_at", "author_role", "author", "text")
    readonly_fields = ("created_at", "author")
    autocomplete_fields = ()


@admin.register(ContactMessage)
class ContactMessageAdmin(admin.ModelAdmin):
    list_display = ("subject", "name", "email", "user", "created_at", "last_activity_at", "staff_unread")
    list_filter = ("staff_unread", "member_unread", "follow_up")
    search_fields = ("name", "email", "subject", "text")
    date_hierarchy = "created_at"
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    inlines = [ContactReplyInline]


class RentalRequestEventInline(admin.TabularInline):
    """The request's history, read only: steps go through messaging/rental_requests.py."""

    model = RentalRequestEvent
    fields = ("created_at", "kind", "actor", "by_staff", "note")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RoomRentalRequest)
class RoomRentalRequestAdmin(admin.ModelAdmin):
    list_display = ("name", "event_type", "date", "time", "email", "phone", "status", "quote_amount", "created_at")
    list_filter = ("event_type", "status")
    readonly_fields = (
        "status",
        "quote_amount",
        "deposit_amount",
        "quote_note",
        "quoted_at",
        "deposit_paid_at",
        "closed_at",
    )
    inlines = [RentalRequestEventInline]
    search_fields = ("name", "email", "phone", "message")
    date_hierarchy = "date"
    raw_id_fields = ("user",)
