"""iCalendar files of bookings (issue 21), built with the `icalendar` library (escaping, folding and time zones are
its job, not hand-written text): the one-event file attached to a confirmation, and the member's personal feed.

Times are Europe/Paris with their VTIMEZONE, so a calendar app shows the class at the studio's hour wherever the phone
is. An event's UID is `reservation-<id>@<host>` everywhere (confirmation, feed, the studio's CANCEL), so apps update
the same event.
"""

from datetime import UTC
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

PARIS = ZoneInfo("Europe/Paris")


def _host() -> str:
    return settings.SITE_URL.split("://")[-1].split("/")[0]


def studio_location() -> str:
    studio = settings.STUDIO
    return f"{studio['name']}, {studio['address']}, {studio['postal_code']} {studio['city']}"


def _calendar(*, name: str | None = None, method: str | None = "PUBLISH") -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.STUDIO['name']}//Réservations//FR")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    if method:
        calendar.add("method", method)
    if name:
        calendar.add("x-wr-calname", name)
        calendar.add("x-wr-timezone", "Europe/Paris")
    return calendar


def reservation_event(reservation, *, cancelled: bool = False) -> Event:
    session = reservation.session
    event = Event()
    event.add("uid", f"reservation-{reservation.pk}@{_host()}")
    event.add("dtstamp", timezone.now().astimezone(UTC))
    event.add("dtstart", session.start.astimezone(PARIS))
    event.add("dtend", session.end.astimezone(PARIS))
    title = session.course.title
    event.add("summary", f"Annulé : {title}" if cancelled else title)
    event.add(
        "description",
        f"{reservation.participants} participant(s) – {reservation.total_amount} € – "
        f"professeur : {session.instructor_name}\n{settings.SITE_URL}/my-courses",
    )
    event.add("location", studio_location())
    event.add("url", f"{settings.SITE_URL}/my-courses")
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    if cancelled:
        event.add("sequence", 1)
    return event


def _finish(calendar: Calendar) -> str:
    calendar.add_missing_timezones()
    return calendar.to_ical().decode("utf-8")


def reservation_ics(reservation) -> str:
    """A one-event iCalendar file for a confirmed reservation (the confirmation e-mail's attachment)."""
    calendar = _calendar()
    calendar.add_component(reservation_event(reservation))
    return _finish(calendar)


def member_feed_ics(reservations) -> str:
    """The member's personal feed: their bookings (a class the studio cancelled stays, marked CANCELLED)."""
    calendar = _calendar(name=f"Mes cours – {settings.STUDIO['name']}")
    for reservation in reservations:
        calendar.add_component(
            reservation_event(reservation, cancelled=getattr(reservation.session, "status", "") == "cancelled")
        )
    return _finish(calendar)
