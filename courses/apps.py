from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "courses"
    verbose_name = "Cours et tarifs"

    def ready(self):
        from studio.cache import register_public_models

        from .models import Course, CourseSession, Instructor, Tariff, Testimonial

        # Shown on the public pages: a change refreshes every cached page (and the sessions feed).
        register_public_models(Course, CourseSession, Tariff, Testimonial, Instructor)
