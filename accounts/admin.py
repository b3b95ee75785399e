from django.contrib import admin

from .models import User
from .services.authentication import user_deactivate


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    list_display = ("email", "first_name", "last_name", "role", "email_confirmed_at", "is_active")
    list_filter = ("role", "is_active")
    search_fields = ("email", "first_name", "last_name")
    readonly_fields = ("password", "date_joined", "last_login")
    ordering = ("last_name", "first_name")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            user_deactivate(user=obj)  # its API tokens stop at once
