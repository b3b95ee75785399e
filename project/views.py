"""Pages that gather several apps: the sitemap lists every app's public pages and one entry per course."""

from django.http import HttpResponse
from django.template import loader
from django.urls import reverse

from courses.models import Course
from studio.cache import cached_public

# Public pages listed in sitemap.xml, besides one entry per course.
SITEMAP_PATHS = [
    "/",
    "/courses/calendar",
    "/weekly",
    "/tarifs",
    "/tarifs-page",
    "/cartes-cadeaux",
    "/evjf-evg",
    "/room-rental",
    "/rental-form",
    "/contact",
    "/gallery",
    "/blog-facebook",
    "/choisir-nous",
    "/mentions-legales",
    "/politique-confidentialite",
    "/cgv",
    "/accessibilite",
]


def sitemap(request):
    course_ids = cached_public("sitemap:courses", lambda: list(Course.objects.values_list("pk", flat=True)))
    base = request.build_absolute_uri("/").rstrip("/")
    urls = [base + path for path in SITEMAP_PATHS]
    urls += [base + reverse("course-detail", args=[pk]) for pk in course_ids]
    body = loader.render_to_string("pages/sitemap.xml", {"urls": urls})
    return HttpResponse(body, content_type="application/xml; charset=utf-8")
