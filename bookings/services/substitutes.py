"""Substitutes (docs/decisions.md 52): an instructor asks for someone to teach one of their coming classes, another
active instructor accepts, and the class changes instructor.

Every write here takes the session's row lock first (lock 5, docs/architecture.md) and then the request's row, so
that of two instructors accepting at once the first wins and the second hears, in French, that it is taken (409);
asking, withdrawing and accepting the same class never interleave. The booked members and staff are e-mailed after
the commit by a task (`substitute_accepted_send`), once; staff are alerted by a scheduled job when a request is still
open 48 hours before its class (`substitute_alerts_send`), once per request.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.tasks import task
from django.utils import timezone

from courses.models import CourseSession, Instructor, SessionStatus
from courses.services.locking import lock_session
from studio.emails import send_templated_email
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError
from studio.queue import enqueue_after_commit

from ..models import Reservation, ReservationStatus
from ..models_team import SubstituteRequest, SubstituteStatus

MSG_SUBSTITUTE_ASKED = "Votre demande de remplacement est envoyée aux autres professeurs."
MSG_SUBSTITUTE_ACCEPTED = "Merci ! Ce cours est désormais le vôtre : les inscrits et l'équipe sont prévenus."
MSG_SUBSTITUTE_WITHDRAWN = "Votre demande de remplacement est retirée."
MSG_SUBSTITUTE_SESSION_NOT_FOUND = "Ce cours n'existe pas ou n'est pas le vôtre."
MSG_SUBSTITUTE_NOT_FOUND = "Demande de remplacement introuvable."
MSG_SUBSTITUTE_SESSION_STARTED = "Ce cours a déjà commencé : il n'est plus temps de le faire remplacer."
MSG_SUBSTITUTE_SESSION_CANCELLED = "Ce cours est annulé : il n'a pas besoin de remplaçant."
MSG_SUBSTITUTE_ALREADY_ASKED = "Une demande de remplacement est déjà ouverte pour ce cours."
MSG_SUBSTITUTE_TAKEN = "Trop tard : un autre professeur a déjà accepté ce remplacement."
MSG_SUBSTITUTE_CLOSED = "Cette demande de remplacement n'est plus ouverte."
MSG_SUBSTITUTE_OWN = "C'est votre propre demande : un autre professeur doit l'accepter."
MAX_MESSAGE_LENGTH = 1000
ALERT_HOURS_BEFORE = 48

SUBJECT_SUBSTITUTE_MEMBER = "Changement de professeur pour votre cours du {date}"
SUBJECT_SUBSTITUTE_STAFF = "Remplacement accepté : {title} du {date}"
SUBJECT_SUBSTITUTE_ALERT = "Aucun remplaçant à 48 h : {title} du {date}"


class SubstituteError(ApplicationError):
    default_code = "substitute_invalid"
    messages = {
        "session_not_found": MSG_SUBSTITUTE_SESSION_NOT_FOUND,
        "substitute_not_found": MSG_SUBSTITUTE_NOT_FOUND,
        "session_started": MSG_SUBSTITUTE_SESSION_STARTED,
        "session_cancelled": MSG_SUBSTITUTE_SESSION_CANCELLED,
        "already_asked": MSG_SUBSTITUTE_ALREADY_ASKED,
        "taken": MSG_SUBSTITUTE_TAKEN,
        "closed": MSG_SUBSTITUTE_CLOSED,
        "own_request": MSG_SUBSTITUTE_OWN,
    }
    statuses = {
        "session_not_found": NOT_FOUND,
        "substitute_not_found": NOT_FOUND,
        "session_started": CONFLICT,
        "session_cancelled": CONFLICT,
        "already_asked": CONFLICT,
        "taken": CONFLICT,
        "closed": CONFLICT,
        "own_request": CONFLICT,
    }


def _refuse_unless_coming(session: CourseSession, *, now: datetime) -> None:
    if session.status == SessionStatus.CANCELLED:
        raise SubstituteError.of("session_cancelled")
    if session.start <= now:
        raise SubstituteError.of("session_started")


@transaction.atomic
def substitute_request_create(*, instructor: Instructor, session_id: int, message: str = "") -> SubstituteRequest:
    """Ask for a substitute on one of the instructor's own classes still to come; one open request per class."""
    session = lock_session(session_id)
    if session is None or session.instructor_id != instructor.pk:
        raise SubstituteError.of("session_not_found")
    _refuse_unless_coming(session, now=timezone.now())
    if SubstituteRequest.objects.filter(session=session, status=SubstituteStatus.OPEN).exists():
        raise SubstituteError.of("already_asked")
    try:
        with transaction.atomic():
            return SubstituteRequest.objects.create(
                session=session, requested_by=instructor, message=message.strip()[:MAX_MESSAGE_LENGTH]
            )
    except IntegrityError:  # the database's one open request per class, should a writer skip the lock
        raise SubstituteError.of("already_asked") from None


def _locked_request(request_id: int) -> tuple[CourseSession, SubstituteRequest]:
    """The request's session locked (lock 5), then the request's row: read again under the lock."""
    session_id = SubstituteRequest.objects.filter(pk=request_id).values_list("session_id", flat=True).first()
    if session_id is None:
        raise SubstituteError.of("substitute_not_found")
    session = lock_session(session_id)
    request = SubstituteRequest.objects.select_for_update().filter(pk=request_id).first()
    if session is None or request is None:
        raise SubstituteError.of("substitute_not_found")
    return session, request


def _refuse_unless_open(request: SubstituteRequest) -> None:
    if request.status == SubstituteStatus.ACCEPTED:
        raise SubstituteError.of("taken")
    if request.status != SubstituteStatus.OPEN:
        raise SubstituteError.of("closed")


@transaction.atomic
def substitute_request_accept(*, instructor: Instructor, request_id: int) -> SubstituteRequest:
    """The first active instructor to accept teaches the class; the members booked and staff hear it by e-mail."""
    session, request = _locked_request(request_id)
    _refuse_unless_open(request)
    if request.requested_by_id == instructor.pk:
        raise SubstituteError.of("own_request")
    if session.instructor_id != request.requested_by_id:
        # Staff gave the class to someone else meanwhile: the request no longer stands.
        raise SubstituteError.of("closed")
    now = timezone.now()
    _refuse_unless_coming(session, now=now)
    request.status, request.accepted_by, request.closed_at = SubstituteStatus.ACCEPTED, instructor, now
    request.save(update_fields=["status", "accepted_by", "closed_at"])
    session.instructor = instructor
    session.save(update_fields=["instructor"])  # the session's receivers refresh the calendar's caches
    enqueue_after_commit(substitute_accepted_send, request_id=request.pk)
    return request


@transaction.atomic
def substitute_request_withdraw(*, instructor: Instructor, request_id: int) -> SubstituteRequest:
    """The instructor who asked takes their open request back; anyone else's is not theirs to withdraw (404)."""
    _session, request = _locked_request(request_id)
    if request.requested_by_id != instructor.pk:
        raise SubstituteError.of("substitute_not_found")
    _refuse_unless_open(request)
    request.status, request.closed_at = SubstituteStatus.WITHDRAWN, timezone.now()
    request.save(update_fields=["status", "closed_at"])
    return request


def _mail_context(request: SubstituteRequest) -> dict:
    session = request.session
    return {
        "request": request,
        "session": session,
        "start": timezone.localtime(session.start),
        "end": timezone.localtime(session.end),
    }


@task
def substitute_accepted_send(*, request_id: int) -> int:
    """E-mail each member booked on the class (confirmed) and staff that the class has a new instructor. The claim of
    `notified_at` and the outbox's rows are one transaction: a second run, or a second worker, sends nothing."""
    with transaction.atomic():
        claimed = SubstituteRequest.objects.filter(
            pk=request_id, status=SubstituteStatus.ACCEPTED, notified_at__isnull=True
        ).update(notified_at=timezone.now())
        if not claimed:
            return 0
        request = SubstituteRequest.objects.select_related("session__course", "requested_by", "accepted_by").get(
            pk=request_id
        )
        context = _mail_context(request)
        date = f"{context['start']:%d/%m/%Y}"
        booked = Reservation.objects.filter(session_id=request.session_id, status=ReservationStatus.CONFIRMED)
        sent = 0
        for reservation in booked.select_related("user").order_by("id"):
            send_templated_email(
                to=reservation.email or reservation.user.email,
                subject=SUBJECT_SUBSTITUTE_MEMBER.format(date=date),
                template="bookings_substitute_member",
                context={**context, "reservation": reservation},
            )
            sent += 1
        send_templated_email(
            to=settings.STAFF_NOTIFICATION_EMAIL,
            subject=SUBJECT_SUBSTITUTE_STAFF.format(title=request.session.course.title, date=date),
            template="bookings_substitute_staff",
            context={**context, "booked_count": sent},
        )
        return sent + 1


def substitute_alerts_send(*, now: datetime | None = None) -> int:
    """Alert staff of each request still open when its class starts within 48 hours, once per request: each is
    claimed by an UPDATE guarded by `staff_alerted_at` in the transaction that writes its e-mail, so two schedulers
    running at once alert once."""
    now = now or timezone.now()
    due = SubstituteRequest.objects.filter(
        status=SubstituteStatus.OPEN,
        staff_alerted_at__isnull=True,
        session__start__gt=now,
        session__start__lte=now + timedelta(hours=ALERT_HOURS_BEFORE),
        session__status=SessionStatus.SCHEDULED,
    ).values_list("pk", flat=True)
    alerted = 0
    for request_id in list(due):
        with transaction.atomic():
            claimed = SubstituteRequest.objects.filter(
                pk=request_id, status=SubstituteStatus.OPEN, staff_alerted_at__isnull=True
            ).update(staff_alerted_at=now)
            if not claimed:
                continue
            request = SubstituteRequest.objects.select_related("session__course", "requested_by").get(pk=request_id)
            context = _mail_context(request)
            send_templated_email(
                to=settings.STAFF_NOTIFICATION_EMAIL,
                subject=SUBJECT_SUBSTITUTE_ALERT.format(
                    title=request.session.course.title, date=f"{context['start']:%d/%m/%Y}"
                ),
                template="bookings_substitute_alert",
                context=context,
            )
            alerted += 1
    return alerted
