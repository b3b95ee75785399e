"""The questionnaire and the documents are published from the dashboard's API (a new version each time); the Django
admin only lists them. The members' declarations are health data and are not in the admin at all."""

from django.contrib import admin

from .models import Questionnaire, StudioDocument


@admin.register(Questionnaire)
class QuestionnaireAdmin(admin.ModelAdmin):
    list_display = ("version", "published_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(StudioDocument)
class StudioDocumentAdmin(admin.ModelAdmin):
    list_display = ("kind", "version", "title", "published_at")
    list_filter = ("kind",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
