"""The waiting list's pushes and their one-tap accept (docs/decisions.md 53).

Beside each offer's e-mail, the member's phone gets a push (when they turned it on, outside quiet hours): for a seat
booked with their pass, the news; for a held seat, the offer with an "Accepter" action carrying a signed token. The
service worker posts the token (`POST /api/waitlist/offers/accept`, no session or CSRF needed: the token is the
member's word for this one offer) and opens what the answer says:
  - a pass of the member pays the class today (the entry's own first, then the others, soonest expiring first): the
    held seat is booked with it at once (`reservation_book_with_pass`, which turns the member's hold into the
    booking under the session and pass locks) and "Mes cours" opens;
  - no pass pays it: the calendar opens on the held seat's payment.
"""

from django.core import signing
from django.db import transaction
from django.utils import timezone

from courses.services.locking import lock_session
from notifications.models import PushKind
from notifications.services import push_notify
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

from ..models import Pass, ReservationStatus
from ..models_operations import WaitlistEntry, WaitlistStatus
from .passes import PASS_REFUSALS, reservation_book_with_pass

_ACCEPT_SALT = "bookings.waitlist.accept"
ACCEPT_TOKEN_MAX_AGE = 24 * 3600
MY_COURSES_URL = "/my-courses"
PUSH_OFFER_TITLE = "Une place s'est libérée"
PUSH_OFFER_BODY = "{course}, {day} à {time} : la place vous est réservée jusqu'à {deadline}."
PUSH_BOOKED_TITLE = "Place réservée"
PUSH_BOOKED_BODY = "{course}, {day} à {time} : réservé avec votre carte ou abonnement."
PUSH_ACCEPT_ACTION = "Accepter"
MSG_ACCEPT_BOOKED = "C'est réservé : votre place est confirmée avec votre carte ou abonnement."
MSG_ACCEPT_PAY = "Aucune carte ni aucun abonnement ne paie ce cours : réglez la place retenue pour la confirmer."
MSG_ACCEPT_LINK_INVALID = "Ce lien n'est pas valide."
MSG_ACCEPT_OFFER_OVER = "Cette offre n'est plus valable : la place a été proposée à la personne suivante."


class WaitlistAcceptError(ApplicationError):
    messages = {"accept_link_invalid": MSG_ACCEPT_LINK_INVALID, "accept_offer_over": MSG_ACCEPT_OFFER_OVER}
    statuses = {"accept_link_invalid": NOT_FOUND, "accept_offer_over": CONFLICT}


def pay_url(session) -> str:
    """The calendar opened on the session's popup, where a held seat is paid."""
    return f"/courses/calendar?date={timezone.localtime(session.start):%Y-%m-%d}&session={session.pk}"


def accept_token(entry: WaitlistEntry) -> str:
    return signing.dumps({"e": entry.pk, "u": entry.user_id}, salt=_ACCEPT_SALT)


def waitlist_push(*, entry: WaitlistEntry, session, booked: bool) -> None:
    """Called under the session lock where the offer is made; the push itself leaves after the commit."""
    start = timezone.localtime(session.start)
    when = {"course": session.course, "day": f"{start:%d/%m}", "time": f"{start:%H:%M}"}
    if booked:
        push_notify(
            user_id=entry.user_id,
            kind=PushKind.WAITLIST_OFFER,
            title=PUSH_BOOKED_TITLE,
            body=PUSH_BOOKED_BODY.format(**when),
            url=MY_COURSES_URL,
        )
        return
    deadline = timezone.localtime(entry.offer_expires_at)
    push_notify(
        user_id=entry.user_id,
        kind=PushKind.WAITLIST_OFFER,
        title=PUSH_OFFER_TITLE,
        body=PUSH_OFFER_BODY.format(**when, deadline=f"{deadline:%H:%M}"),
        url=pay_url(session),
        data={
            "tag": f"waitlist-offer-{entry.pk}",
            "actions": [{"action": "accept", "title": PUSH_ACCEPT_ACTION}],
            "accept": {"url": "/api/waitlist/offers/accept", "token": accept_token(entry)},
        },
    )


def _entry_of(token: str) -> WaitlistEntry:
    try:
        data = signing.loads(token, salt=_ACCEPT_SALT, max_age=ACCEPT_TOKEN_MAX_AGE)
    except signing.BadSignature as exc:
        raise WaitlistAcceptError.of("accept_link_invalid") from exc
    entry = WaitlistEntry.objects.filter(pk=data.get("e"), user_id=data.get("u")).first()
    if entry is None:
        raise WaitlistAcceptError.of("accept_link_invalid")
    return entry


def _candidate_pass_ids(entry: WaitlistEntry, today) -> list[int]:
    others = (
        Pass.objects.filter(member_id=entry.user_id, expires_on__gte=today)
        .exclude(pk=entry.pass_ref_id)
        .order_by("expires_on", "id")
        .values_list("pk", flat=True)
    )
    return ([entry.pass_ref_id] if entry.pass_ref_id else []) + list(others)


@transaction.atomic
def waitlist_offer_accept(*, token: str) -> dict:
    """Accept a held offer in one tap: booked with a pass that pays, else the way to the held seat's payment.
    Returns `{booked, url, message}`."""
    entry = _entry_of(token)
    session = lock_session(entry.session_id, with_course=True)
    entry = WaitlistEntry.objects.select_related("user", "reservation").get(pk=entry.pk)
    now = timezone.now()
    hold = entry.reservation
    live = (
        entry.status == WaitlistStatus.OFFERED
        and hold is not None
        and hold.status == ReservationStatus.HELD
        and hold.hold_expires_at
        and hold.hold_expires_at > now
    )
    if session is None or not live:
        raise WaitlistAcceptError.of("accept_offer_over")
    for pass_id in _candidate_pass_ids(entry, timezone.localdate(now)):
        try:
            with transaction.atomic():  # a pass that cannot pay leaves nothing behind; the next is tried
                reservation = reservation_book_with_pass(
                    user=entry.user,
                    session_id=session.pk,
                    pass_id=pass_id,
                    participants=hold.participants,
                    first_name=hold.first_name,
                    last_name=hold.last_name,
                    email=hold.email,
                )
        except PASS_REFUSALS:
            continue
        entry.status, entry.ended_at, entry.reservation = WaitlistStatus.BOOKED, now, reservation
        entry.save(update_fields=["status", "ended_at", "reservation"])
        return {"booked": True, "url": MY_COURSES_URL, "message": MSG_ACCEPT_BOOKED}
    return {"booked": False, "url": pay_url(session), "message": MSG_ACCEPT_PAY}
