"""EVJF/EVG party requests with their history, for the staff and the member: three queries whatever their number."""

from django.db.models import Prefetch, QuerySet

from ..models import PartyRequestEvent, PartyReservation


def _with_history(parties: QuerySet) -> QuerySet:
    """Parties with their history and who wrote each line: three queries whatever their number."""
    return parties.select_related("user").prefetch_related(
        Prefetch("events", queryset=PartyRequestEvent.objects.select_related("actor").order_by("created_at", "id"))
    )


def party_reservations_list(*, status: str | None = None) -> QuerySet:
    parties = PartyReservation.objects.order_by("-created_at", "-id")
    if status:
        parties = parties.filter(status=status)
    return _with_history(parties)


def party_requests_of_member(*, user) -> QuerySet:
    return _with_history(PartyReservation.objects.filter(user=user).order_by("-created_at", "-id"))


def party_request_get(*, party_id: int) -> PartyReservation | None:
    return _with_history(PartyReservation.objects.filter(pk=party_id)).first()
