from django.contrib import admin

from .models import OutgoingEmail


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(admin.ModelAdmin):
    """The outbox, read-only: what left, what is waiting, and why a mail did not leave (resend: the dashboard)."""

    list_display = ("created_at", "subject", "recipients", "status", "attempts", "sent_at")
    list_filter = ("status", "template")
    search_fields = ("subject", "to", "topic_id")
    date_hierarchy = "created_at"

    @admin.display(description="destinataires")
    def recipients(self, email):
        return ", ".join(email.to)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
