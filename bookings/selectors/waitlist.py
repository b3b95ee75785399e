"""Waiting-list reads for staff: how many wait per session of a page of the session list, and one
session's line with each member's true position. A fixed number of queries whatever the sizes."""

from django.db.models import Count

from ..models_operations import WAITLIST_LIVE_STATUSES, WaitlistEntry, WaitlistStatus


def waitlist_counts(*, session_ids: list[int]) -> dict[int, int]:
    """Per session, its live entries (waiting or offered a seat): one query."""
    rows = (
        WaitlistEntry.objects.filter(session_id__in=session_ids, status__in=WAITLIST_LIVE_STATUSES)
        .values("session_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {row["session_id"]: row["n"] for row in rows}


def session_waitlist(*, session_id: int) -> list[WaitlistEntry]:
    """The live entries of a session in line order, with member and session: one query."""
    return list(
        WaitlistEntry.objects.filter(session_id=session_id, status__in=WAITLIST_LIVE_STATUSES)
        .select_related("session__course", "user")
        .order_by("created_at", "id")
    )


def waiting_positions(entries: list[WaitlistEntry]) -> dict[int, int]:
    """The true rank of each WAITING entry of one session's (ordered) entries; an offered one has none."""
    ranks, counter = {}, 0
    for entry in entries:
        if entry.status == WaitlistStatus.WAITING:
            counter += 1
            ranks[entry.pk] = counter
    return ranks
