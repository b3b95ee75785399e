"""Substitute requests as an instructor's page lists them (docs/decisions.md 52): the open requests of the other
instructors, which they may accept, and their own requests on classes still to come. Staff see every open request.
Two queries whatever their number."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from courses.models import Instructor, SessionStatus

from ..models_team import SubstituteRequest, SubstituteStatus


@dataclass(frozen=True)
class ListedRequest:
    request: SubstituteRequest
    can_accept: bool
    can_withdraw: bool


def substitute_requests_for(*, instructor: Instructor | None, now: datetime) -> list[ListedRequest]:
    """Classes still to come: every open request, and the accepted ones the instructor asked or took. Without an
    instructor record (staff who do not teach): the open requests alone."""
    coming = SubstituteRequest.objects.filter(
        session__start__gt=now, session__status=SessionStatus.SCHEDULED
    ).select_related("session__course", "requested_by", "accepted_by")
    if instructor is not None:
        theirs = Q(requested_by=instructor) | Q(accepted_by=instructor)
        coming = coming.filter(Q(status=SubstituteStatus.OPEN) | (Q(status=SubstituteStatus.ACCEPTED) & theirs))
    else:
        coming = coming.filter(status=SubstituteStatus.OPEN)
    listed = []
    for request in coming.order_by("session__start", "id"):
        is_open = request.status == SubstituteStatus.OPEN
        mine = instructor is not None and request.requested_by_id == instructor.pk
        listed.append(
            ListedRequest(
                request=request,
                can_accept=is_open and instructor is not None and not mine,
                can_withdraw=is_open and mine,
            )
        )
    return listed
