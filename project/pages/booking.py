"""The pages where a class is booked and paid: the calendar and the member's courses. Their islands take bookings'
feeds and payments' widget (its provider and public client id), so the pages sit in the top layer, which sees both."""

from django.shortcuts import render

from bookings.ics import studio_location
from bookings.views.common import member_props
from payments.selectors import payment_client_config
from studio.cache import cache_public_page
from studio.decorators import login_required_page

PLANNING_IMAGE = "img/planning.jpg"
PLANNING_DOWNLOAD_NAME = "Planning-Pole-Dance.jpg"


@cache_public_page
def calendar_page(request):
    props = {
        "user": member_props(request),
        "paymentConfig": payment_client_config(),
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
                "waitlistUrl": "/api/waitlist/mine",  # the waiting lists I am on
                "preferencesUrl": "/api/booking-preferences",  # reminders and calendar feed
                "calendarLocation": studio_location(),
                "paymentConfig": payment_client_config(),  # an unpaid hold is paid from here
            },
        },
    )
