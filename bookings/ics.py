"""iCalendar files of bookings, built with the `icalendar` library (escaping, folding and time zones are its job, not
hand-written text): the confirmation's invitation, its cancellation, the "add to my calendar" download and the
member's personal feed, all from `reservation_event`.

Times are Europe/Paris with their VTIMEZONE, so a calendar app shows the class at the studio's hour wherever the phone
is. An event's UID is `reservation-<id>@<host>` everywhere (confirmation, feed, cancellations), so apps update the
same event. Every event names the studio as ORGANIZER (RFC 5546 requires it for PUBLISH, REQUEST and CANCEL); the
e-mailed files (REQUEST, CANCEL) also name the member as ATTENDEE, and a cancellation carries a higher SEQUENCE than
the confirmation, so the app that imported the confirmation removes the event. E-mails attach them as
`text/calendar; method=<METHOD>` (RFC 6047), with `ics_attachment`.
"""

from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event, vCalAddress, vDuration, vText

from studio.templatetags.formatting import euros

PARIS = ZoneInfo("Europe/Paris")

PUBLISH, REQUEST, CANCEL = "PUBLISH", "REQUEST", "CANCEL"
CONFIRMED_SEQUENCE = 0
CANCELLED_SEQUENCE = 1  # higher than the confirmation's: the cancellation supersedes it
# How often an app subscribed to the personal feed fetches it again (RFC 7986 and Outlook's X-PUBLISHED-TTL).
FEED_REFRESH = timedelta(hours=1)
# The feed's text as this code writes it: part of the key under which a built feed is kept in the cache
# (bookings/apis/calendar_feed.py), with the library's version. Change it with what an event says or how, so that a
# release serves the new text at once, not the one kept from before.
FEED_FORMAT = 1


def feed_cache_key(user_id: int) -> str:
    """Where a member's built calendar feed is kept (bookings/apis/calendar_feed.py), with the digest of what it shows;
    dropped when the member's calendar preferences go, with the account (bookings/receivers.py)."""
    return f"calendar-feed:{user_id}"


def _host() -> str:
    return settings.SITE_URL.split("://")[-1].split("/")[0]


def studio_location() -> str:
    studio = settings.STUDIO
    return f"{studio['name']}, {studio['address']}, {studio['postal_code']} {studio['city']}"


def _calendar(*, name: str | None = None, method: str | None = PUBLISH) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.STUDIO['name']}//Réservations//FR")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    if method:
        calendar.add("method", method)
    if name:
        calendar.add("x-wr-calname", name)
        calendar.add("x-wr-timezone", "Europe/Paris")
        calendar.add("refresh-interval", FEED_REFRESH, parameters={"VALUE": "DURATION"})
        calendar.add("x-published-ttl", vDuration(FEED_REFRESH))
    return calendar


def _organizer() -> vCalAddress:
    organizer = vCalAddress(f"mailto:{settings.STUDIO['email']}")
    organizer.params["CN"] = vText(settings.STUDIO["name"])
    return organizer


def _attendee(reservation, *, cancelled: bool) -> vCalAddress:
    email = reservation.email or reservation.user.email
    attendee = vCalAddress(f"mailto:{email}")
    name = f"{reservation.first_name} {reservation.last_name}".strip()
    if name:
        attendee.params["CN"] = vText(name)
    attendee.params["CUTYPE"] = vText("INDIVIDUAL")
    attendee.params["ROLE"] = vText("REQ-PARTICIPANT")
    # The member booked it: there is nothing to answer (RSVP=FALSE), and the studio reads no reply.
    if not cancelled:
        attendee.params["PARTSTAT"] = vText("ACCEPTED")
    attendee.params["RSVP"] = vText("FALSE")
    return attendee


def reservation_event(reservation, *, cancelled: bool = False, with_attendee: bool = False, reason: str = "") -> Event:
    session = reservation.session
    event = Event()
    event.add("uid", f"reservation-{reservation.pk}@{_host()}")
    event.add("dtstamp", timezone.now().astimezone(UTC))
    event.add("dtstart", session.start.astimezone(PARIS))
    event.add("dtend", session.end.astimezone(PARIS))
    event.add("sequence", CANCELLED_SEQUENCE if cancelled else CONFIRMED_SEQUENCE)
    title = session.course.title
    event.add("summary", f"Annulé : {title}" if cancelled else title)
    description = (
        f"{reservation.participants} participant(s) – {euros(reservation.total_amount)} – "
        f"professeur : {session.instructor_name}\n{settings.SITE_URL}/my-courses"
    )
    if reason:
        description = f"{reason}\n{description}"
    event.add("description", description)
    event.add("location", studio_location())
    event.add("url", f"{settings.SITE_URL}/my-courses")
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    event.add("organizer", _organizer())
    if with_attendee:
        event.add("attendee", _attendee(reservation, cancelled=cancelled))
    return event


def _finish(calendar: Calendar) -> str:
    calendar.add_missing_timezones()
    return calendar.to_ical().decode("utf-8")


def reservation_ics(reservation) -> str:
    """A one-event file of a confirmed reservation to add to a calendar (PUBLISH: no attendee, nothing to answer)."""
    calendar = _calendar()
    calendar.add_component(reservation_event(reservation))
    return _finish(calendar)


def reservation_request_ics(reservation) -> str:
    """The confirmation e-mail's file: the studio (ORGANIZER) books the member (ATTENDEE) on the class."""
    calendar = _calendar(method=REQUEST)
    calendar.add_component(reservation_event(reservation, with_attendee=True))
    return _finish(calendar)


def reservation_cancel_ics(reservation, *, reason: str = "") -> str:
    """The CANCEL of the event `reservation_request_ics` sent (same UID, a higher SEQUENCE): a member's own
    cancellation or the studio's cancellation of the class (`reason` then says why)."""
    calendar = _calendar(method=CANCEL)
    calendar.add_component(reservation_event(reservation, cancelled=True, with_attendee=True, reason=reason))
    return _finish(calendar)


def ics_attachment(filename: str, ics: str, *, method: str) -> tuple[str, str, str]:
    """An e-mail attachment of an iCalendar file whose METHOD is `method`: its content type says so (RFC 6047)."""
    return filename, ics, f"text/calendar; method={method}"


def member_feed_ics(reservations) -> str:
    """The member's personal feed: their bookings (a class the studio cancelled stays, marked CANCELLED)."""
    calendar = _calendar(name=f"Mes cours – {settings.STUDIO['name']}")
    for reservation in reservations:
        calendar.add_component(
            reservation_event(reservation, cancelled=getattr(reservation.session, "status", "") == "cancelled")
        )
    return _finish(calendar)
