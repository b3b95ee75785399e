from django.contrib import admin

from .models import ContactMessage, ContactReply


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
