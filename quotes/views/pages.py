"""The public pages of quoted requests: the EVJF/EVG offer (its island posts to /api/evf-reservations), the room
rental page, its form (works without JavaScript) and the confirmation. Islands get their props here."""

from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.company import CompanyError
from bookings.views.common import member_props
from studio.cache import cache_public_page
from studio.ratelimit import rate_limited_page

from ..forms import RentalForm
from ..selectors import rental_request_confirmed
from ..services import rentals
from ..services.parties import MSG_PARTY_LOGIN_REQUIRED

PARTY_LOGIN_URL = "/login?next=/evjf-evg"
RENTAL_SESSION_KEY = "messaging:last_rental_id"  # the session key kept as it was: sessions in flight still read it


@cache_public_page
def party_page(request):
    user = member_props(request)
    return render(
        request,
        "quotes/evjf_evg.html",
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


@cache_public_page(forms=True)
def room_rental_page(request):
    return render(
        request,
        "quotes/room_rental.html",
        {
            "page_title": "Location de salle",
            "page_description": "Louez notre salle de pole dance pour un événement privé, une réunion, "
            "un anniversaire ou un cours.",
            "form": RentalForm(),
            "back_url": "/room-rental",
        },
    )


def _back_url(request) -> str:
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure()):
        if not referer.rstrip("/").endswith("/rental-form"):
            return referer
    return "/room-rental"


@cache_public_page(forms=True, variant=_back_url)  # one stored page per place "Annuler" leads back to
@rate_limited_page("rental")
def rental_form_page(request):
    if request.method == "POST":
        form = RentalForm(request.POST)
        if form.is_valid():
            try:
                rental = rentals.room_rental_request_create(
                    name=form.cleaned_data["name"],
                    email=form.cleaned_data["email"],
                    phone=form.cleaned_data["phone"],
                    event_type=form.cleaned_data["eventType"],
                    date=form.cleaned_data["date"],
                    time=form.cleaned_data["time"],
                    message=form.cleaned_data["message"],
                    user=request.user,
                    company=form.company(),
                )
            except (rentals.RentalError, CompanyError) as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                request.session[RENTAL_SESSION_KEY] = rental.pk
                return redirect("confirmation")
        status = 400
        back_url = request.POST.get("back") or "/room-rental"
        if not url_has_allowed_host_and_scheme(back_url, {request.get_host()}, request.is_secure()):
            back_url = "/room-rental"
    else:
        initial = {}
        if request.user.is_authenticated:
            initial = {"name": request.user.get_full_name(), "email": request.user.email, "phone": request.user.phone}
        form = RentalForm(initial=initial)
        status = 200
        back_url = _back_url(request)
    return render(
        request,
        "quotes/rental_form.html",
        {
            "page_title": "Demande de location de salle",
            "page_description": "Réservez la salle du studio : dites-nous la date, l'heure et le type d'événement.",
            "form": form,
            "back_url": back_url,
        },
        status=status,
    )


@cache_public_page  # a visitor without a session sees no request of theirs: the same page for all of them
def confirmation_page(request):
    rental_id = request.session.get(RENTAL_SESSION_KEY)
    rental = rental_request_confirmed(rental_id=rental_id)
    return render(
        request,
        "quotes/confirmation.html",
        {
            "page_title": "Demande envoyée",
            "page_description": "Votre demande de location de salle a bien été envoyée au studio.",
            "rental": rental,
        },
    )
