"""The bookings pages: the calendar, the EVJF/EVG offer and the member's courses. Islands get their props here."""

from django.conf import settings
from django.shortcuts import render

from studio.cache import cache_public_page
from studio.decorators import login_required_page

from ..ics import studio_location
from ..services.parties import MSG_PARTY_LOGIN_REQUIRED
from .common import member_props, payment_config

PLANNING_IMAGE = "img/planning.jpg"
PLANNING_DOWNLOAD_NAME = "Planning-Pole-Dance.jpg"
PARTY_LOGIN_URL = "/login?next=/evjf-evg"


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


@cache_public_page
def party_page(request):
    user = member_props(request)
    return render(
        request,
        "bookings/evjf_evg.html",
        {
            "page_title": "EVJF et EVG",
            "page_description": (
                "Enterrement de vie de jeune fille ou de garçon : une initiation pole dance entre amis, "
                "25 € par participant."
            ),
            "login_url": PARTY_LOGIN_URL,
            "props": {
                "user": user,
                "submitUrl": "/api/evf-reservations",
                "estimateUrl": "/api/evf-reservations/estimate",
                "loginUrl": PARTY_LOGIN_URL,
                "loginMessage": MSG_PARTY_LOGIN_REQUIRED,
            },
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
