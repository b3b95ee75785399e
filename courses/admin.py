from django import forms
from django.contrib import admin
from django.utils.html import format_html

from media_library.uploads import IMAGE_FORMATS_WEBP, MSG_IMAGE_TYPES_WEBP, UploadRejected, check_image

from .models import ClosurePeriod, Course, CourseSession, Instructor, Tariff, Testimonial
from .services import catalogue


class CourseAdminForm(forms.ModelForm):
    """The picture is a plain upload checked by content and size (media_library.uploads), then stored with its
    renditions by courses.services.catalogue.course_set_picture; the file name is never taken from the browser."""

    photo = forms.FileField(
        label="Photo du cours",
        required=False,
        help_text="JPEG, PNG, GIF ou WebP ; elle remplace la photo actuelle.",
    )

    class Meta:
        model = Course
        fields = [
            "title",
            "description",
            "duration",
            "video_url",
            "level",
            "position",
            "image_alt",
            "free_cancellation_hours",
            "booking_opens_days_before",
            "booking_opens_time",
        ]

    def clean_photo(self):
        upload = self.cleaned_data.get("photo")
        if not upload:
            return None
        try:
            check_image(upload, formats=IMAGE_FORMATS_WEBP, type_message=MSG_IMAGE_TYPES_WEBP)
        except UploadRejected as error:
            raise forms.ValidationError(error.message) from error
        upload.seek(0)
        return upload


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    form = CourseAdminForm
    list_display = ("title", "level", "duration", "position")
    search_fields = ("title",)
    readonly_fields = ("current_photo",)
    fields = (
        "title",
        "description",
        "duration",
        "video_url",
        "level",
        "position",
        "current_photo",
        "photo",
        "image_alt",
        "free_cancellation_hours",
        "booking_opens_days_before",
        "booking_opens_time",
    )

    @admin.display(description="Photo actuelle")
    def current_photo(self, course):
        picture = course.picture
        if not picture:
            return "Aucune photo"
        return format_html('<img src="{}" alt="" width="240" style="height:auto">', picture["src"])

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        upload = form.cleaned_data.get("photo")
        if upload:
            catalogue.course_set_picture(course=obj, image=upload)


@admin.register(CourseSession)
class CourseSessionAdmin(admin.ModelAdmin):
    list_display = ("course", "start", "end", "instructor", "max_attendees", "price_per_participant")
    list_filter = ("course", "instructor")
    date_hierarchy = "start"
    list_select_related = ("course", "instructor")


@admin.register(Tariff)
class TariffAdmin(admin.ModelAdmin):
    list_display = ("title", "type", "price", "frequency", "position")
    list_filter = ("type",)


@admin.register(Testimonial)
class TestimonialAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")


@admin.register(Instructor)
class InstructorAdmin(admin.ModelAdmin):
    """Instructors are people: a name the calendar shows, an optional account to sign in with (give it
    the role "Professeur" for it to see its classes), and an active flag instead of a deletion once they taught."""

    list_display = ("name", "user", "active", "specialties")
    list_filter = ("active",)
    search_fields = ("name", "user__email")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    fields = ("name", "user", "active", "specialties", "bio")


@admin.register(ClosurePeriod)
class ClosurePeriodAdmin(admin.ModelAdmin):
    """The studio's closures (summer break…): weekly series create no class on these days (docs/decisions.md 51)."""

    list_display = ["label", "starts_on", "ends_on"]
    ordering = ["-starts_on"]
