from django.contrib import admin

from .models import Alert, BackupRun, Heartbeat


class ReadOnlyAdmin(admin.ModelAdmin):
    """What the site recorded of its own running: read, never written by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(BackupRun)
class BackupRunAdmin(ReadOnlyAdmin):
    list_display = ("started_at", "finished_at", "succeeded", "error")
    list_filter = ("succeeded",)
    date_hierarchy = "started_at"


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdmin):
    list_display = ("raised_at", "kind", "message", "resolved_at")
    list_filter = ("kind",)


@admin.register(Heartbeat)
class HeartbeatAdmin(ReadOnlyAdmin):
    list_display = ("name", "beat_at")
