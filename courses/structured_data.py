"""Upcoming classes as schema.org Events for search engines (JSON-LD), and a course's preview image: built from
sessions read with their course and instructor (select_related), so a page adds no query."""

from django.utils import timezone

from studio import structured_data

from .models import Course, CourseSession, SessionStatus

SCHEDULED = "https://schema.org/EventScheduled"
CANCELLED = "https://schema.org/EventCancelled"
OFFLINE = "https://schema.org/OfflineEventAttendanceMode"
BOOKING_PATH = "/courses/calendar"


def course_share_image(request, course: Course) -> dict | None:
    """The course's own picture (its largest JPEG rendition, at that size) for link previews, or None."""
    picture = course.picture
    if picture is None:
        return None
    jpeg = (course.image_renditions or {}).get("jpeg") or []
    width, height = course.image_width, course.image_height
    if jpeg and width:
        width, height = jpeg[-1][0], round(course.image_height * jpeg[-1][0] / course.image_width)
    return {
        "url": request.build_absolute_uri(picture["src"]),
        "width": width,
        "height": height,
        "type": "image/jpeg" if jpeg else "",
        "alt": course.picture_alt,
    }


def session_events(request, sessions, *, now=None) -> list[dict]:
    """One Event per session still to start, in the order given: dates in Paris time with their offset, the
    studio's address, whether it is cancelled, its price in euros, the instructor."""
    now = now or timezone.now()
    tz = timezone.get_default_timezone()
    place = structured_data.studio_place()
    organizer = structured_data.studio_reference(request)
    default_image = structured_data.share_image(request)["url"]
    booking_url = request.build_absolute_uri(BOOKING_PATH)
    events = []
    images = {}  # a course's preview, made once however many of its sessions are listed
    for session in sessions:
        if session.start <= now:
            continue
        course = session.course
        if course.pk not in images:
            images[course.pk] = course_share_image(request, course)
        image = images[course.pk]
        event = {
            "@context": "https://schema.org",
            "@type": "Event",
            "name": course.title,
            "description": course.description,
            "startDate": timezone.localtime(session.start, tz).isoformat(),
            "endDate": timezone.localtime(session.end, tz).isoformat(),
            "eventStatus": CANCELLED if session.status == SessionStatus.CANCELLED else SCHEDULED,
            "eventAttendanceMode": OFFLINE,
            "location": place,
            "image": image["url"] if image else default_image,
            "url": request.build_absolute_uri(f"/courses/{session.course_id}"),
            "organizer": organizer,
            "offers": {
                "@type": "Offer",
                "price": f"{session.price_per_participant:.2f}",
                "priceCurrency": "EUR",
                "url": booking_url,
            },
        }
        if session.instructor_id:
            event["performer"] = {"@type": "Person", "name": session.instructor_name}
        events.append(event)
    return events


def timetable_sessions(timetable) -> list[CourseSession]:
    return [session for day in timetable.days for session in day.sessions]
