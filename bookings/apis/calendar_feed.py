"""Reminder switches and the personal calendar feed (docs/decisions.md 29).

`GET|PATCH /api/booking-preferences` (member): the two reminder switches and the member's secret feed URL (null until
asked for). `POST /api/booking-preferences/calendar-link` (member): a new secret URL; the old one answers 404 from
then on. `GET|HEAD /calendar/<token>.ics` (anyone holding the secret): the member's bookings from FEED_HISTORY_DAYS
back (a calendar keeps the member's history) and every upcoming one, Europe/Paris times. Each request reads what the
feed shows, so it follows every booking, cancellation and class the studio cancels at once; the iCalendar text is
built again only when that changed (see `_feed_body`).
"""

import hashlib
from datetime import timedelta

import icalendar
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import StrictBooleanField

from .. import ics
from ..ics import member_feed_ics, reservation_ics
from ..models import Reservation, ReservationStatus
from ..models_operations import BookingPreferences
from ..services.reminders import (
    MSG_PREFERENCES_SAVED,
    MSG_REMINDERS_UNSUBSCRIBED,
    ReminderError,
    booking_preferences_get,
    booking_preferences_update,
    calendar_token_regenerate,
    reminders_unsubscribe,
)
from .common import _messages

MSG_SWITCH_INVALID = "Chaque rappel s'active ou se désactive par vrai ou faux."
MSG_CALENDAR_LINK_RENEWED = "Nouveau lien créé : l'ancien ne fonctionne plus."
# A subscribed calendar drops what the feed no longer lists: classes stay this long after they end.
FEED_HISTORY_DAYS = 90
# Everything an event of the feed shows (bookings/ics.py `reservation_event`), read in one light query: the key of the
# built feed, so that any change to one of them builds it again.
FEED_FIELDS = (
    "pk",
    "participants",
    "unit_price",
    "status",
    "session__start",
    "session__end",
    "session__status",
    "session__course__title",
    "session__instructor__name",
)
# A built feed is kept a day: longer than the hour between two fetches of a calendar app, so an unchanged feed is
# not serialised again (for a long history that is most of the request's time).
FEED_CACHE_SECONDS = 24 * 60 * 60


def _switch(help_text: str):
    return StrictBooleanField(
        required=False, help_text=help_text, error_messages=_messages(MSG_SWITCH_INVALID, "invalid", "null")
    )


class BookingPreferencesInput(serializers.Serializer):
    remind_day_before = _switch("E-mail de rappel 24 heures avant chaque cours réservé.")
    remind_cancellation_deadline = _switch("E-mail avant la fin de l'annulation gratuite.")


class BookingPreferencesOutput(serializers.Serializer):
    remind_day_before = serializers.BooleanField()
    remind_cancellation_deadline = serializers.BooleanField()
    calendar_url = serializers.URLField(allow_null=True, help_text="Lien secret de votre calendrier (iCalendar).")
    message = serializers.CharField(required=False)


def preferences_data(prefs: BookingPreferences, message: str | None = None) -> dict:
    data = {
        "remind_day_before": prefs.remind_day_before,
        "remind_cancellation_deadline": prefs.remind_cancellation_deadline,
        "calendar_url": f"{settings.SITE_URL}/calendar/{prefs.calendar_token}.ics" if prefs.calendar_token else None,
    }
    if message:
        data["message"] = message
    return data


class BookingPreferencesApi(APIView):
    permission_classes = [IsAuthenticated]
    serializer_class = BookingPreferencesInput

    @extend_schema(operation_id="booking_preferences_get", responses=BookingPreferencesOutput)
    def get(self, request):
        return Response(BookingPreferencesOutput(preferences_data(booking_preferences_get(user=request.user))).data)

    @extend_schema(
        operation_id="booking_preferences_update", request=BookingPreferencesInput, responses=BookingPreferencesOutput
    )
    def patch(self, request):
        serializer = BookingPreferencesInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        prefs = booking_preferences_update(user=request.user, **serializer.validated_data)
        return Response(BookingPreferencesOutput(preferences_data(prefs, MSG_PREFERENCES_SAVED)).data)


class CalendarLinkApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="booking_preferences_calendar_link", request=None, responses=BookingPreferencesOutput)
    def post(self, request):
        prefs = calendar_token_regenerate(user=request.user)
        return Response(BookingPreferencesOutput(preferences_data(prefs, MSG_CALENDAR_LINK_RENEWED)).data)


def member_feed_reservations(*, user_id: int, now):
    """The member's bookings for the feed, upcoming and ended less than FEED_HISTORY_DAYS ago, and those of classes
    the studio cancelled (shown cancelled)."""
    return (
        Reservation.objects.filter(user_id=user_id, session__end__gt=now - timedelta(days=FEED_HISTORY_DAYS))
        .filter(
            Q(status=ReservationStatus.CONFIRMED) | Q(status=ReservationStatus.CANCELLED, session__status="cancelled")
        )
        .select_related("session__course", "session__instructor")
        .order_by("session__start", "pk")
    )


def _feed_body(*, user_id: int, now) -> str:
    """The feed's iCalendar text, kept in the cache under a digest of everything it shows (and of the studio's
    settings it names, and of the code that writes it): a change to a booking, a session, a course title or an
    instructor gives another key, so the answer is never stale; only its DTSTAMPs say when it was built."""
    reservations = member_feed_reservations(user_id=user_id, now=now)
    written_by = (ics.FEED_FORMAT, icalendar.__version__)
    shown = repr((written_by, settings.SITE_URL, settings.STUDIO, list(reservations.values_list(*FEED_FIELDS))))
    digest = hashlib.sha256(shown.encode()).hexdigest()
    key = ics.feed_cache_key(user_id)  # one entry a member, replaced when what it shows changes
    stored = cache.get(key)
    if stored is not None and stored[0] == digest:
        return stored[1]
    body = member_feed_ics(reservations)
    cache.set(key, (digest, body), FEED_CACHE_SECONDS)
    return body


def _without_body_for_head(request, response: HttpResponse) -> HttpResponse:
    """HEAD answers as GET does, headers and length included, without the body (RFC 9110)."""
    if request.method == "HEAD":
        length = len(response.content)
        response.content = b""
        response["Content-Length"] = str(length)
    return response


@require_safe
def calendar_feed(request, token: str):
    """The personal feed behind its secret: 404 for a token that is not (or no longer) a member's."""
    user_id = BookingPreferences.objects.filter(calendar_token=token).values_list("user_id", flat=True).first()
    if user_id is None or not token:
        raise Http404
    body = _feed_body(user_id=user_id, now=timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="mes-cours.ics"'
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    return _without_body_for_head(request, response)


@require_safe
def reservation_ics_download(request, reservation_id: int):
    """'Ajouter à mon agenda' (Apple, Outlook…): the .ics of one of the member's own confirmed bookings; 404 else."""
    if not request.user.is_authenticated:
        raise Http404
    reservation = (
        Reservation.objects.filter(pk=reservation_id, user=request.user, status=ReservationStatus.CONFIRMED)
        .select_related("session__course", "session__instructor")
        .first()
    )
    if reservation is None:
        raise Http404
    response = HttpResponse(reservation_ics(reservation), content_type="text/calendar; charset=utf-8")
    start = timezone.localtime(reservation.session.start)
    response["Content-Disposition"] = f'attachment; filename="cours-{start:%Y-%m-%d}.ics"'
    response["Cache-Control"] = "private, no-store"
    return _without_body_for_head(request, response)


@require_POST
def booking_preferences_form(request):
    """The profile's reminder form (no JavaScript needed): a checked box is on, an unchecked one is off."""
    if not request.user.is_authenticated:
        raise Http404
    booking_preferences_update(
        user=request.user,
        remind_day_before=request.POST.get("remind_day_before") == "on",
        remind_cancellation_deadline=request.POST.get("remind_cancellation_deadline") == "on",
    )
    messages.success(request, MSG_PREFERENCES_SAVED)
    return redirect("/user/profile")


MSG_UNSUBSCRIBE_CONFIRM = "Ne plus recevoir les rappels de cours par e-mail ?"


# The link in a reminder's List-Unsubscribe header and its text: the signed token is the proof, so no login and no
# CSRF cookie (a mail provider's one-click POST carries neither, RFC 8058). GET only asks, so that a link scanner
# that opens it changes nothing; POST turns the reminders off.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def reminders_unsubscribe_page(request, token: str):
    context = {"page_title": "Rappels de cours", "token": token, "state": "confirm", "message": MSG_UNSUBSCRIBE_CONFIRM}
    status = 200
    if request.method == "POST":
        try:
            reminders_unsubscribe(token=token)
        except ReminderError as error:
            context.update(state="error", message=error.message)
            status = error.status
        else:
            context.update(state="done", message=MSG_REMINDERS_UNSUBSCRIBED)
    response = render(request, "bookings/reminders_unsubscribe.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    return response
