from django.urls import path

from .apis import parties as party_create_apis
from .apis import party_requests as party_apis
from .apis import rental_requests as rental_apis
from .views import pages

urlpatterns = [
    path("evjf-evg", pages.party_page, name="evjf-evg"),
    path("room-rental", pages.room_rental_page, name="room-rental"),
    path("rental-form", pages.rental_form_page, name="rental-form"),
    path("confirmation", pages.confirmation_page, name="confirmation"),
]

api_urlpatterns = [
    # The booking popup's endpoint: bookings' seat holds, and the EVJF/EVG requests its "evj" type sends.
    path(
        "reservations-courses",
        party_create_apis.ReservationOrPartyCreateApi.as_view(),
        name="api-reservations-courses",
    ),
    path("reservations-evj", party_create_apis.ReservationEvjCreateApi.as_view(), name="api-reservations-evj"),
    path("evf-reservations", party_apis.PartyRequestsApi.as_view(), name="api-evf-reservations"),
    path("evf-reservations/mine", party_apis.MyPartyRequestsApi.as_view(), name="api-evf-reservations-mine"),
    path("evf-reservations/estimate", party_apis.PartyEstimateApi.as_view(), name="api-evf-reservations-estimate"),
    path("evf-reservations/<int:party_id>", party_apis.PartyRequestDetailApi.as_view(), name="api-evf-reservation"),
    path("evf-reservations/<int:party_id>/quote", party_apis.PartyQuoteApi.as_view(), name="api-evf-reservation-quote"),
    path(
        "evf-reservations/<int:party_id>/confirm",
        party_apis.PartyConfirmApi.as_view(),
        name="api-evf-reservation-confirm",
    ),
    path(
        "evf-reservations/<int:party_id>/refuse", party_apis.PartyRefuseApi.as_view(), name="api-evf-reservation-refuse"
    ),
    path(
        "evf-reservations/<int:party_id>/cancel", party_apis.PartyCancelApi.as_view(), name="api-evf-reservation-cancel"
    ),
    path("rental-requests", rental_apis.RentalRequestsApi.as_view(), name="api-rental-requests"),
    path("rental-requests/mine", rental_apis.MyRentalRequestsApi.as_view(), name="api-rental-requests-mine"),
    path("rental-requests/<int:rental_id>", rental_apis.RentalRequestDetailApi.as_view(), name="api-rental-request"),
    path(
        "rental-requests/<int:rental_id>/quote", rental_apis.RentalQuoteApi.as_view(), name="api-rental-request-quote"
    ),
    path(
        "rental-requests/<int:rental_id>/confirm",
        rental_apis.RentalConfirmApi.as_view(),
        name="api-rental-request-confirm",
    ),
    path(
        "rental-requests/<int:rental_id>/refuse",
        rental_apis.RentalRefuseApi.as_view(),
        name="api-rental-request-refuse",
    ),
    path(
        "rental-requests/<int:rental_id>/cancel",
        rental_apis.RentalCancelApi.as_view(),
        name="api-rental-request-cancel",
    ),
]
