"""The EVJF/EVG offer's page. Its island gets its props here. (The calendar and the member's courses carry the payment
widget: project/pages/booking.py.)"""

from django.shortcuts import render

from studio.cache import cache_public_page

from ..services.parties import MSG_PARTY_LOGIN_REQUIRED
from .common import member_props

PARTY_LOGIN_URL = "/login?next=/evjf-evg"


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
