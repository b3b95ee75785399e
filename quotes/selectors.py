"""Reads of quoted requests for their pages and APIs: each kind's requests with their history and who wrote each line
(three queries whatever their number)."""

from django.db.models import Prefetch, QuerySet

from .models import PartyRequestEvent, PartyReservation, RentalRequestEvent, RoomRentalRequest

# Sort keys the staff's list of rental requests accepts (?ordering=key or -key); anything else: newest first.
RENTAL_REQUEST_ORDERINGS = {"created_at", "date", "name", "event_type"}


def _with_history(requests: QuerySet, event_model) -> QuerySet:
    return requests.select_related("user").prefetch_related(
        Prefetch("events", queryset=event_model.objects.select_related("actor").order_by("created_at", "id"))
    )


# --- EVJF/EVG parties -----------------------------------------------------------------------------------------------


def party_reservations_list(*, status: str | None = None) -> QuerySet:
    parties = PartyReservation.objects.order_by("-created_at", "-id")
    if status:
        parties = parties.filter(status=status)
    return _with_history(parties, PartyRequestEvent)


def party_requests_of_member(*, user) -> QuerySet:
    return _with_history(PartyReservation.objects.filter(user=user).order_by("-created_at", "-id"), PartyRequestEvent)


def party_request_get(*, party_id: int) -> PartyReservation | None:
    return _with_history(PartyReservation.objects.filter(pk=party_id), PartyRequestEvent).first()


# --- Room rentals ---------------------------------------------------------------------------------------------------


def rental_requests_for_staff(*, ordering: str | None = None, history: bool = False) -> QuerySet:
    value = (ordering or "").strip()
    if value.lstrip("-") in RENTAL_REQUEST_ORDERINGS:
        keys = [value, "-id" if value.startswith("-") else "id"]
    else:
        keys = ["-created_at", "-id"]
    rentals = RoomRentalRequest.objects.order_by(*keys)
    return _with_history(rentals, RentalRequestEvent) if history else rentals


def rental_requests_list(*, status: str | None = None) -> QuerySet:
    rentals = RoomRentalRequest.objects.order_by("-created_at", "-id")
    if status:
        rentals = rentals.filter(status=status)
    return _with_history(rentals, RentalRequestEvent)


def rental_requests_of_member(*, user) -> QuerySet:
    return _with_history(RoomRentalRequest.objects.filter(user=user).order_by("-created_at", "-id"), RentalRequestEvent)


def rental_request_get(*, rental_id: int) -> RoomRentalRequest | None:
    return _with_history(RoomRentalRequest.objects.filter(pk=rental_id), RentalRequestEvent).first()


def rental_request_confirmed(*, rental_id) -> RoomRentalRequest | None:
    """The request just sent from this browser, for its confirmation page."""
    return RoomRentalRequest.objects.filter(pk=rental_id).first() if rental_id else None
