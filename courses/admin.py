from django.contrib import admin

from .models import Course, CourseSession, Instructor, Tariff, Testimonial


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("title", "level", "duration", "position")
    search_fields = ("title",)


@admin.register(CourseSession)
class CourseSessionAdmin(admin.ModelAdmin):
    list_display = ("course", "start", "end", "instructor", "max_attendees", "price_per_participant")
    list_filter = ("course",)
    date_hierarchy = "start"
    list_select_related = ("course",)


@admin.register(Tariff)
class TariffAdmin(admin.ModelAdmin):
    list_display = ("title", "type", "price", "frequency", "position")
    list_filter = ("type",)


@admin.register(Testimonial)
class TestimonialAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")


@admin.register(Instructor)
class InstructorAdmin(admin.ModelAdmin):
    list_display = ("user", "specialties")
    list_select_related = ("user",)
