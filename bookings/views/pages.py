"""The bookings pages: the calendar and the member's courses. Islands get their props here."""

from django.conf import settings
from django.shortcuts import render

from studio.cache import cache_public_page
from studio.decorators import login_required_page

from ..ics import studio_location
from .common import member_props, payment_config

PLANNING_IMAGE = "img/planning.jpg"
PLANNING_DOWNLOAD_NAME = "Planning-Pole-Dance.jpg"


@cache_public_page
def calendar_page(request):
    props = {
        "user": member_props(request),
        "paymentConfig": payment_config(),
        "feedUrl": "/api/course-sessions",
        "reserveUrl": "/api/reservations-courses",
        "loginUrl": "/login?next=/courses/calendar",
    }
    return render(
        request,
        "bookings/calendar.html",
        {
            "page_title": "Planning des cours",
            "page_description": "Le planning des cours de pole dance, cerceau aérien et cabaret : réservez en ligne.",
            "props": props,
            "planning_image": PLANNING_IMAGE,
            "planning_download_name": PLANNING_DOWNLOAD_NAME,
        },
    )


@login_required_page
def my_courses_page(request):
    return render(
        request,
        "bookings/my_courses.html",
        {
            "page_title": "Mes Cours de Pole Dance",
            "props": {
                "user": member_props(request),
                "listUrl": f"/api/course-feedback/user/{request.user.pk}",
                "feedbackUrl": "/api/course-feedback",
                "cancellationHours": settings.CANCELLATION_WINDOW_HOURS,
                "waitlistUrl": "/api/waitlist/mine",  # the waiting lists I am on
                "preferencesUrl": "/api/booking-preferences",  # reminders and calendar feed
                "calendarLocation": studio_location(),
                "paymentConfig": payment_config(),  # an unpaid hold is paid from here
            },
        },
    )
