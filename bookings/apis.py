"""Bookings API (SPEC.md 7; DECISIONS.md 1, 12-14). Thin views: parse, call a service or selector, shape the answer.

Errors always answer `{"error": msg, "message": msg}` in French (studio/api.py), never a 500.

Shapes, for the islands and the dashboard:

Session (public feed item, `GET /api/course-sessions?start=&end=`)::

    {"id", "course_id", "course_title", "title", "date", "end_date",       # date/end_date: ISO 8601, Paris offset
     "instructor", "level", "details", "seats_left", "max_attendees",
     "price_per_participant": "25.00", "is_full", "is_past",
     "my_reservation": null | {"id", "status", "participants"}}           # the caller's own seats, when logged in

Staff session (`GET /api/course-sessions?view=staff&page=1&page_size=10&ordering=date|-date[&start=&end=]`)::

    {"count", "next", "previous", "results": [session + {"seats_taken", "reservations_count",
                                                         "start_paris": "YYYY-MM-DD HH:MM:SS"}]}

Attendee (`GET /api/course-sessions/<id>/attendees`, staff)::

    {"session": staff session, "seats_taken", "seats_left",
     "results": [{"id", "user_id", "first_name", "last_name", "email", "participants", "status": "held|confirmed",
                  "status_label", "paid": bool, "total_amount": "50.00", "hold_expires_at", "created_at",
                  "confirmed_at", "message"}]}

Pass (`GET /api/passes/mine` for the member; `GET /api/passes?page=&search=&ordering=` and `GET|PUT
/api/passes/<id>` for staff)::

    {"id", "kind": "card|subscription", "kind_label", "origin", "origin_label", "title", "tariff_id",
     "credits_total", "credits_left",                                     # null for a subscription
     "starts_on", "expires_on": "YYYY-MM-DD", "state": "active|upcoming|expired|used", "state_label",
     "member_id", "member_name", "member_email", "created_at"}
    staff detail adds "adjustments": [{"id", "action", "action_label", "credits_delta", "expires_on_before",
     "expires_on_after", "reason", "by", "reservation": null | {"id", "title", "date"}, "at"}]

Booking with a pass: `POST /api/reservations-courses` with `pass_id` → 201, the reservation confirmed at once
(`status: "confirmed"`, `paid_with_pass: {id, title, kind}`, `credits_spent`, `pass`: the pass after the spend).
Cancelling: `POST /api/reservations-courses/<id>/cancel` → 200 {message, reservation_id, credit_pass: pass|null}.

Party reservation (`GET /api/evf-reservations?page=`, staff)::

    {"count", "next", "previous", "results": [{"id", "user_id", "eventType": "EVJF|EVG", "event_type_label",
      "date": "YYYY-MM-DD", "time": "HH:MM", "participants", "email", "first_name", "last_name", "title",
      "message", "created_at"}]}
"""

import json
from datetime import datetime, time, timedelta
from decimal import Decimal, InvalidOperation

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import MSG_TEXT_TOO_LONG, amount_is_sane, error_response
from studio.cache import cached_public, mark_public_answer, public_cache_version
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff, is_studio_staff

from . import selectors, services
from .models import PartyEventType, ReservationStatus

MSG_RANGE_INVALID = "Les dates de début et de fin du calendrier sont invalides."
MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours."
MSG_FEEDBACK_FORBIDDEN = "Vous ne pouvez consulter ou modifier que vos propres avis."
MSG_AMOUNT_INVALID = "Le montant envoyé est invalide."

DEFAULT_FEED_DAYS_BEFORE = 7
DEFAULT_FEED_DAYS_AFTER = 62
MAX_FEED_DAYS = 400  # a year view at most: the feed stays bounded whatever the query


def _iso(value):
    return timezone.localtime(value).isoformat() if value else None


def _parse_range_bound(raw: str | None) -> datetime | None:
    if not raw:
        return None
    text = raw.strip().replace(" ", "+")  # an unencoded "+02:00" arrives as " 02:00"
    try:
        if len(text) == 10:
            parsed = datetime.combine(datetime.fromisoformat(text).date(), time.min)
        else:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(MSG_RANGE_INVALID) from None
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, timezone.get_default_timezone())
    return parsed


def parse_feed_range(params) -> tuple[datetime, datetime]:
    now = timezone.now()
    start = _parse_range_bound(params.get("start")) or now - timedelta(days=DEFAULT_FEED_DAYS_BEFORE)
    end = _parse_range_bound(params.get("end")) or start + timedelta(days=DEFAULT_FEED_DAYS_AFTER)
    if end <= start or end - start > timedelta(days=MAX_FEED_DAYS):
        raise ValueError(MSG_RANGE_INVALID)
    return start, end


def session_data(session, *, now=None, my_reservation=None) -> dict:
    now = now or timezone.now()
    seats_taken = getattr(session, "seats_taken", None)
    if seats_taken is None:
        seats_taken = services.session_seats_taken(session=session, now=now)
    seats_left = max(session.max_attendees - seats_taken, 0)
    return {
        "id": session.pk,
        "course_id": session.course_id,
        "course_title": session.course.title,
        "title": session.course.title,
        "date": _iso(session.start),
        "end_date": _iso(session.end),
        "instructor": session.instructor,
        "level": session.level or session.course.level,
        "details": session.details,
        "seats_left": seats_left,
        "max_attendees": session.max_attendees,
        "price_per_participant": f"{session.price_per_participant:.2f}",
        "is_full": seats_left == 0,
        "is_past": session.start <= now,
        "my_reservation": my_reservation,
    }


# The public feed is shared by every visitor and cached until staff or a reservation change the data. The cache
# also expires after FEED_CACHE_SECONDS so that lapsed holds (which change no row) and "past" flags refresh.
FEED_CACHE_SECONDS = 30


MY_RESERVATION_NULL = b'"my_reservation": null'


def public_feed_encoded(*, start: datetime, end: datetime, now: datetime) -> tuple[bytes, dict[int, int]]:
    """The range's public events as JSON bytes, and where each event's `"my_reservation": null` sits in them.

    Cached until public data changes: visitors get the bytes as they are; a member gets the same bytes with their
    few reservations spliced in at those offsets (`member_feed_json`), never a re-encoding of every event.
    """

    def encode() -> tuple[bytes, dict[int, int]]:
        parts, offsets, position = [], {}, 1  # position just after the opening "["
        for session in selectors.sessions_in_range(start=start, end=end, now=now):
            text = json.dumps(session_data(session, now=now), cls=DjangoJSONEncoder).encode()
            # "my_reservation" is the event's last key: its null closes the object.
            offsets[session.pk] = position + len(text) - len(MY_RESERVATION_NULL) - 1
            parts.append(text)
            position += len(text) + 2  # the ", " between events
        return b"[" + b", ".join(parts) + b"]", offsets

    return cached_public(f"feed-json:{start.isoformat()}:{end.isoformat()}", encode, timeout=FEED_CACHE_SECONDS)


def member_feed_json(*, body: bytes, offsets: dict[int, int], mine: dict[int, dict]) -> bytes:
    """`body` with `"my_reservation": {...}` in place of null for each of the member's sessions."""
    pieces, last = [], 0
    for offset, value in sorted((offsets[sid], value) for sid, value in mine.items() if sid in offsets):
        pieces += [body[last:offset], b'"my_reservation": ', json.dumps(value).encode()]
        last = offset + len(MY_RESERVATION_NULL)
    pieces.append(body[last:])
    return b"".join(pieces)


def staff_session_data(session, *, now=None) -> dict:
    data = session_data(session, now=now)
    data.pop("my_reservation")
    data["seats_taken"] = session.max_attendees - data["seats_left"]
    data["reservations_count"] = getattr(session, "reservations_count", None)
    data["start_paris"] = timezone.localtime(session.start).strftime("%Y-%m-%d %H:%M:%S")
    data["end_paris"] = timezone.localtime(session.end).strftime("%Y-%m-%d %H:%M:%S")
    return data


def attendee_data(reservation) -> dict:
    return {
        "id": reservation.pk,
        "user_id": reservation.user_id,
        "first_name": reservation.first_name,
        "last_name": reservation.last_name,
        "email": reservation.email,
        "participants": reservation.participants,
        "status": reservation.status,
        "status_label": reservation.get_status_display(),
        "paid": reservation.status == ReservationStatus.CONFIRMED,
        "total_amount": f"{reservation.total_amount:.2f}",
        "hold_expires_at": _iso(reservation.hold_expires_at),
        "created_at": _iso(reservation.created_at),
        "confirmed_at": _iso(reservation.confirmed_at),
        "message": reservation.message,
    }


def reservation_data(reservation) -> dict:
    session = reservation.session
    return {
        "id": reservation.pk,
        "session_id": session.pk,
        "title": session.course.title,
        "date": _iso(session.start),
        "end_date": _iso(session.end),
        "participants": reservation.participants,
        "unit_price": f"{reservation.unit_price:.2f}",
        "total_amount": f"{reservation.total_amount:.2f}",
        "status": reservation.status,
        "hold_expires_at": _iso(reservation.hold_expires_at),
        "first_name": reservation.first_name,
        "last_name": reservation.last_name,
        "email": reservation.email,
        "message": services.MSG_RESERVATION_SENT,
        **selectors.reservation_payment_data(reservation, now=timezone.now()),
    }


def pass_data(pass_obj, *, today=None) -> dict:
    today = today or timezone.localdate()
    state = getattr(pass_obj, "state", None) or selectors.pass_state(pass_obj, today=today)
    member = pass_obj.member
    return {
        "id": pass_obj.pk,
        "kind": pass_obj.kind,
        "kind_label": pass_obj.get_kind_display(),
        "origin": pass_obj.origin,
        "origin_label": pass_obj.get_origin_display(),
        "title": pass_obj.title,
        "tariff_id": pass_obj.tariff_id,
        "credits_total": pass_obj.credits_total,
        "credits_left": pass_obj.credits_left,
        "starts_on": pass_obj.starts_on.isoformat(),
        "expires_on": pass_obj.expires_on.isoformat(),
        "state": state,
        "state_label": selectors.PASS_STATE_LABELS[state],
        "member_id": pass_obj.member_id,
        "member_name": member.get_full_name(),
        "member_email": member.email,
        "created_at": _iso(pass_obj.created_at),
    }


def adjustment_data(adjustment) -> dict:
    reservation = adjustment.reservation
    return {
        "id": adjustment.pk,
        "action": adjustment.action,
        "action_label": adjustment.get_action_display(),
        "credits_delta": adjustment.credits_delta,
        "expires_on_before": adjustment.expires_on_before.isoformat() if adjustment.expires_on_before else None,
        "expires_on_after": adjustment.expires_on_after.isoformat() if adjustment.expires_on_after else None,
        "reason": adjustment.reason,
        "by": adjustment.by.get_full_name() or adjustment.by.email if adjustment.by else "",
        "reservation": (
            {"id": reservation.pk, "title": reservation.session.course.title, "date": _iso(reservation.session.start)}
            if reservation
            else None
        ),
        "at": _iso(adjustment.at),
    }


def party_data(party) -> dict:
    return {
        "id": party.pk,
        "user_id": party.user_id,
        "eventType": party.event_type,
        "event_type_label": party.get_event_type_display(),
        "date": party.date.isoformat(),
        "time": party.time.strftime("%H:%M"),
        "participants": party.participants,
        "email": party.email,
        "first_name": party.first_name,
        "last_name": party.last_name,
        "title": party.title,
        "message": party.message,
        "created_at": _iso(party.created_at),
    }


def _text(**kwargs):
    return serializers.CharField(required=False, allow_blank=True, allow_null=True, **kwargs)


class SessionWriteSerializer(serializers.Serializer):
    """SPEC.md 7's staff payload. Values are checked by the services, which hold the French messages."""

    course_id = _text()
    date = _text()
    end_date = _text()
    instructor = _text()
    level = _text()
    max_attendees = _text()
    details = _text()
    price_per_participant = _text()

    def service_kwargs(self) -> dict:
        data = self.validated_data
        return {
            "course_id": data.get("course_id"),
            "start": data.get("date"),
            "end": data.get("end_date") or None,
            "instructor": data.get("instructor") or "",
            "level": data.get("level") or "",
            "max_attendees": data.get("max_attendees"),
            "details": data.get("details"),
            "price_per_participant": data.get("price_per_participant"),
        }


class CourseSessionListApi(APIView):
    """GET: the public feed (or, with ?view=staff, the staff list). POST: staff create a session."""

    permission_classes = [AllowAny]
    serializer_class = SessionWriteSerializer

    def get_permissions(self):
        if self.request.method == "POST" or self.request.query_params.get("view") == "staff":
            return [IsStudioStaff()]
        return super().get_permissions()

    @extend_schema(operation_id="course_sessions_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        now = timezone.now()
        if request.query_params.get("view") == "staff":
            return self._staff_list(request, now)
        try:
            start, end = parse_feed_range(request.query_params)
        except ValueError as exc:
            return error_response(str(exc))
        # Everyone shares one encoded copy of the range; a member's own reservations are spliced into it.
        if request.user.is_authenticated:
            body, offsets = public_feed_encoded(start=start, end=end, now=now)
            mine = selectors.member_reservations_in_range(user=request.user, start=start, end=end, now=now)
            body = member_feed_json(body=body, offsets=offsets, mine=mine)
            return HttpResponse(body, content_type="application/json")
        # Visitors: the whole answer is kept for the middleware, which serves the next ones before DRF and sessions.
        version = public_cache_version()
        body, _offsets = public_feed_encoded(start=start, end=end, now=now)
        response = HttpResponse(body, content_type="application/json")
        return mark_public_answer(request, response, version=version, timeout=FEED_CACHE_SECONDS)

    def _staff_list(self, request, now):
        ordering = "-start" if request.query_params.get("ordering", "date").startswith("-") else "start"
        qs = selectors.sessions_staff_page_list(ordering=ordering)
        if request.query_params.get("start") or request.query_params.get("end"):
            try:
                start, end = parse_feed_range(request.query_params)
            except ValueError as exc:
                return error_response(str(exc))
            qs = qs.filter(start__lt=end, end__gt=start)
        paginator = StandardPagination()
        page = selectors.sessions_with_seats(paginator.paginate_queryset(qs, request, view=self), now=now)
        return paginator.get_paginated_response([staff_session_data(s, now=now) for s in page])

    def post(self, request):
        serializer = SessionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            session = services.course_session_create(**serializer.service_kwargs())
        except services.ReservationError as exc:
            return error_response(exc.message)
        data = staff_session_data(session)
        data["message"] = services.MSG_SESSION_ADDED
        return Response(data, status=status.HTTP_201_CREATED)


class CourseSessionDetailApi(APIView):
    """GET one session (public). PUT and DELETE: staff."""

    permission_classes = [AllowAny]
    serializer_class = SessionWriteSerializer

    def get_permissions(self):
        if self.request.method in ("PUT", "PATCH", "DELETE"):
            return [IsStudioStaff()]
        return super().get_permissions()

    def _get(self, session_id):
        session = selectors.sessions_staff_list().filter(pk=session_id).first()
        return session

    def get(self, request, session_id: int):
        session = self._get(session_id)
        if session is None:
            return error_response(services.MSG_SESSION_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        if is_studio_staff(request.user):
            return Response(staff_session_data(session))
        return Response(session_data(session))

    def put(self, request, session_id: int):
        serializer = SessionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            services.course_session_update(session_id=session_id, **serializer.service_kwargs())
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_SESSION_NOT_FOUND else 400
            return error_response(exc.message, code)
        data = staff_session_data(self._get(session_id))
        data["message"] = services.MSG_SESSION_UPDATED
        return Response(data)

    patch = put

    def delete(self, request, session_id: int):
        try:
            services.course_session_delete(session_id=session_id)
        except services.ReservationError as exc:
            code = (
                status.HTTP_404_NOT_FOUND if exc.message == services.MSG_SESSION_NOT_FOUND else status.HTTP_409_CONFLICT
            )
            return error_response(exc.message, code)
        return Response({"message": services.MSG_SESSION_DELETED})


class CourseSessionAttendeesApi(APIView):
    """Staff: who is coming to a session, how many, paid (confirmed) or held."""

    permission_classes = [IsStudioStaff]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, session_id: int):
        now = timezone.now()
        session = selectors.sessions_staff_list(now=now).filter(pk=session_id).first()
        if session is None:
            return error_response(services.MSG_SESSION_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        attendees = [
            attendee_data(r)
            for r in selectors.session_attendees(session_id=session_id)
            if r.status == ReservationStatus.CONFIRMED or (r.hold_expires_at and r.hold_expires_at > now)
        ]
        data = staff_session_data(session, now=now)
        return Response(
            {
                "session": data,
                "seats_taken": data["seats_taken"],
                "seats_left": data["seats_left"],
                "results": attendees,
            }
        )


class ReservationPayloadSerializer(serializers.Serializer):
    """SPEC.md 3's reservation payload plus session_id. user_id and name are accepted and ignored: the server
    reserves for the logged-in member. total_amount, when sent, must match the server's price (DECISIONS.md 12)."""

    session_id = _text()
    title = _text()
    date = _text()
    time = _text()
    participants = serializers.JSONField(required=False, allow_null=True)
    # A TextField has no column bound; 5,000 characters, as a contact message (issue 16).
    message = _text(max_length=5000, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    email = _text(max_length=254, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    # Bounded by the reservation's columns (issue 16): a 100,000-character name is refused, in French.
    first_name = _text(max_length=150, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    last_name = _text(max_length=150, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    type = _text()
    user_id = serializers.JSONField(required=False, allow_null=True)
    name = _text()
    total_amount = _text()
    totalAmount = _text()
    eventType = _text()
    pass_id = serializers.JSONField(required=False, allow_null=True)


class ReservationCourseCreateApi(APIView):
    """POST /api/reservations-courses: hold seats on a session for the logged-in member (15 minutes).

    201 → reservation (id, total_amount, hold_expires_at, status, message '✅ Réservation envoyée avec succès !').
    The payment widget then pays `{kind: "reservation", reservationId: id}`; the capture confirms the reservation.
    """

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(MSG_LOGIN_TO_RESERVE, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if (data.get("type") or "cours").strip().lower() == "evj":
            return _create_party_from_payload(request, data)
        if data.get("pass_id") not in (None, ""):
            return self._book_with_pass(request, data)
        raw_total = data.get("total_amount") or data.get("totalAmount")
        try:
            expected_total = Decimal(str(raw_total)) if raw_total not in (None, "") else None
        except InvalidOperation:
            return error_response(MSG_AMOUNT_INVALID)
        if expected_total is not None and not amount_is_sane(expected_total):
            return error_response(MSG_AMOUNT_INVALID)  # Infinity, NaN, sNaN, 1e400, negative or zero (issue 16)
        try:
            reservation = services.reservation_hold(
                user=request.user,
                session_id=data.get("session_id"),
                participants=data.get("participants"),
                first_name=data.get("first_name") or "",
                last_name=data.get("last_name") or "",
                email=data.get("email") or "",
                message=data.get("message") or "",
                expected_total=expected_total,
            )
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_SESSION_NOT_FOUND else 400
            if exc.message in (services.MSG_SESSION_FULL, services.MSG_ALREADY_RESERVED) or exc.message.startswith(
                (services.MSG_NOT_ENOUGH_SEATS.split("{")[0], services.MSG_PARTICIPANTS_LOCKED_BY_PAYMENT.split("{")[0])
            ):
                code = status.HTTP_409_CONFLICT
            return error_response(exc.message, code)
        reservation = selectors.member_reservations(user=request.user).get(pk=reservation.pk)
        return Response(reservation_data(reservation), status=status.HTTP_201_CREATED)

    def _book_with_pass(self, request, data):
        """The popup's 'pay with my card/subscription': confirmed at once, the credits taken under row locks."""
        try:
            reservation = services.reservation_book_with_pass(
                user=request.user,
                session_id=data.get("session_id"),
                pass_id=data.get("pass_id"),
                participants=data.get("participants"),
                first_name=data.get("first_name") or "",
                last_name=data.get("last_name") or "",
                email=data.get("email") or "",
                message=data.get("message") or "",
            )
        except services.ReservationError as exc:
            code = 400
            if exc.message in (services.MSG_SESSION_NOT_FOUND, services.MSG_PASS_NOT_FOUND):
                code = status.HTTP_404_NOT_FOUND
            elif exc.message in (
                services.MSG_SESSION_FULL,
                services.MSG_ALREADY_RESERVED,
                services.MSG_CARD_PAYMENT_IN_PROGRESS,
            ) or exc.message.startswith(services.MSG_NOT_ENOUGH_SEATS.split("{")[0]):
                code = status.HTTP_409_CONFLICT
            return error_response(exc.message, code)
        reservation = selectors.member_reservations(user=request.user).get(pk=reservation.pk)
        data = reservation_data(reservation)
        data["message"] = services.MSG_BOOKED_WITH_PASS.format(title=reservation.paid_with_pass.title)
        reservation.paid_with_pass.member = request.user
        data["pass"] = pass_data(reservation.paid_with_pass)
        return Response(data, status=status.HTTP_201_CREATED)


class ReservationCancelApi(APIView):
    """POST /api/reservations-courses/<id>/cancel: the member cancels their own confirmed reservation (issue 10)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, reservation_id: int):
        try:
            outcome = services.reservation_cancel(user=request.user, reservation_id=reservation_id)
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_RESERVATION_NOT_FOUND else 400
            return error_response(exc.message, code)
        credit_pass = outcome.credit_pass
        if credit_pass is not None:
            credit_pass.member = request.user
        return Response(
            {
                "message": outcome.message,
                "reservation_id": outcome.reservation.pk,
                "status": outcome.reservation.status,
                "credit_pass": pass_data(credit_pass) if credit_pass else None,
            }
        )


class MyPassesApi(APIView):
    """GET /api/passes/mine: the member's class cards and subscriptions (usable first). One query."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        passes = selectors.member_passes(user=request.user)
        for p in passes:
            p.member = request.user
        return Response([pass_data(p) for p in passes])


class PassGrantSerializer(serializers.Serializer):
    member_email = _text()
    tariff_id = serializers.JSONField(required=False, allow_null=True)
    kind = _text()
    credits = serializers.JSONField(required=False, allow_null=True)
    starts_on = _text()
    expires_on = _text()
    reason = _text()


class PassAdjustSerializer(serializers.Serializer):
    credits_delta = serializers.JSONField(required=False, allow_null=True)
    expires_on = _text()
    reason = _text()


class PassListApi(APIView):
    """Staff: GET the passes (paginated, ?search= member or offer, ?ordering=), POST grant one to a member."""

    permission_classes = [IsStudioStaff]
    serializer_class = PassGrantSerializer

    @extend_schema(operation_id="passes_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        qs = selectors.passes_staff_list(
            search=request.query_params.get("search", ""),
            ordering=request.query_params.get("ordering", "-created_at"),
        )
        paginator = StandardPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        today = timezone.localdate()
        return paginator.get_paginated_response([pass_data(p, today=today) for p in page])

    def post(self, request):
        serializer = PassGrantSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            pass_obj = services.pass_grant(
                actor=request.user,
                member_email=data.get("member_email") or "",
                reason=data.get("reason") or "",
                tariff_id=data.get("tariff_id"),
                kind=data.get("kind") or "",
                credits=data.get("credits"),
                starts_on=data.get("starts_on"),
                expires_on=data.get("expires_on"),
            )
        except services.ReservationError as exc:
            return error_response(exc.message)
        return Response({**pass_data(pass_obj), "message": services.MSG_PASS_GRANTED}, status=status.HTTP_201_CREATED)


class PassDetailApi(APIView):
    """Staff: GET a pass with its ledger; PUT {credits_delta, expires_on, reason} adds credits or extends it."""

    permission_classes = [IsStudioStaff]
    serializer_class = PassAdjustSerializer

    def _detail(self, pass_id: int):
        pass_obj = selectors.passes_staff_list().filter(pk=pass_id).first() if pass_id < 2**31 else None
        if pass_obj is None:
            return None
        data = pass_data(pass_obj)
        data["adjustments"] = [adjustment_data(a) for a in selectors.pass_adjustments(pass_id=pass_id)]
        return data

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pass_id: int):
        data = self._detail(pass_id)
        if data is None:
            return error_response(services.MSG_PASS_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        return Response(data)

    def put(self, request, pass_id: int):
        serializer = PassAdjustSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            services.pass_adjust(
                actor=request.user,
                pass_id=pass_id,
                reason=data.get("reason") or "",
                credits_delta=data.get("credits_delta"),
                expires_on=data.get("expires_on"),
            )
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_PASS_NOT_FOUND else 400
            return error_response(exc.message, code)
        return Response({**self._detail(pass_id), "message": services.MSG_PASS_UPDATED})

    patch = put


def _create_party_from_payload(request, data):
    try:
        party = services.party_reservation_create(
            user=request.user,
            event_type=data.get("eventType") or PartyEventType.EVJF,
            date=data.get("date"),
            time=data.get("time"),
            participants=data.get("participants"),
            email=data.get("email") or "",
            message=data.get("message") or "",
            first_name=data.get("first_name") or "",
            last_name=data.get("last_name") or "",
            title=data.get("title") or "",
        )
    except services.ReservationError as exc:
        return error_response(exc.message)
    return Response({**party_data(party), "message": services.MSG_PARTY_SUCCESS}, status=status.HTTP_201_CREATED)


class ReservationEvjCreateApi(APIView):
    """POST /api/reservations-evj: the reservation payload with type 'EVJ' → an EVJF/EVG request."""

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(services.MSG_PARTY_LOGIN_REQUIRED, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _create_party_from_payload(request, serializer.validated_data)


class PartyReservationApi(APIView):
    """POST /api/evf-reservations (member): {eventType, date, time, participants, message, email, user_id}.
    GET (staff): the paginated list of EVJF/EVG requests."""

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    def get_permissions(self):
        if self.request.method == "GET":
            return [IsStudioStaff()]
        return super().get_permissions()

    def get(self, request):
        paginator = StandardPagination()
        page = paginator.paginate_queryset(selectors.party_reservations_list(), request, view=self)
        return paginator.get_paginated_response([party_data(p) for p in page])

    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(services.MSG_PARTY_LOGIN_REQUIRED, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _create_party_from_payload(request, serializer.validated_data)


class FeedbackHistoryPagination(StandardPagination):
    page_size = 20


class CourseFeedbackUserApi(APIView):
    """GET /api/course-feedback/user/<id>?page=&page_size=: that member's followed sessions with their course
    feedback (self or staff), upcoming first then the most recent past, 20 a page.

    {count, next, previous, results: [{id (course id), course_id, session_id, reservation_id, title, description,
    level, date, end_date, instructor, participants, status, status_label, is_past, can_give_feedback, rating,
    comment, paid_with_pass, credits_spent, cancel_deadline, can_cancel}]}.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, user_id: int):
        if user_id != request.user.pk and not is_studio_staff(request.user):
            return error_response(MSG_FEEDBACK_FORBIDDEN, status.HTTP_403_FORBIDDEN)
        from accounts.models import User

        member = request.user if user_id == request.user.pk else User.objects.filter(pk=user_id).first()
        if member is None:
            return error_response("Utilisateur introuvable.", status.HTTP_404_NOT_FOUND)
        now = timezone.now()
        paginator = FeedbackHistoryPagination()
        page = paginator.paginate_queryset(selectors.member_followed_courses(user=member, now=now), request, view=self)
        return paginator.get_paginated_response(selectors.followed_course_rows(page, user=member, now=now))


class FeedbackSerializer(serializers.Serializer):
    user_id = serializers.JSONField(required=False, allow_null=True)
    course_id = serializers.JSONField(required=False, allow_null=True)
    rating = serializers.JSONField(required=False, allow_null=True)
    comment = _text()


class CourseFeedbackApi(APIView):
    """POST /api/course-feedback {user_id, course_id, rating, comment}: create or change the member's own feedback.

    200 → {message: 'Feedback enregistré avec succès', feedback: {id, course_id, rating, comment, updated_at}}.
    """

    permission_classes = [IsAuthenticated]
    serializer_class = FeedbackSerializer

    def post(self, request):
        serializer = FeedbackSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user_id = data.get("user_id")
        if user_id not in (None, "") and str(user_id) != str(request.user.pk):
            return error_response(MSG_FEEDBACK_FORBIDDEN, status.HTTP_403_FORBIDDEN)
        try:
            feedback = services.course_feedback_save(
                user=request.user,
                course_id=data.get("course_id"),
                rating=data.get("rating"),
                comment=data.get("comment") or "",
            )
        except services.ReservationError as exc:
            return error_response(exc.message)
        return Response(
            {
                "message": services.MSG_FEEDBACK_SAVED,
                "feedback": {
                    "id": feedback.pk,
                    "course_id": feedback.course_id,
                    "rating": feedback.rating,
                    "comment": feedback.comment,
                    "updated_at": _iso(feedback.updated_at),
                },
            }
        )
