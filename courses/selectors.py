"""Reads shared by the public pages and the API: each runs a fixed number of queries."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from urllib.parse import parse_qs, quote, urlencode, urlparse

from django.conf import settings
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import TruncWeek
from django.utils import timezone

from .models import ClosurePeriod, Course, CourseSession, Instructor, SessionStatus, Tariff, Testimonial

MSG_NO_UPCOMING_SESSION = "Aucune session prévue"
MSG_NO_COURSE_THAT_DAY = "Aucun cours prévu"

WEEKDAY_NAMES = ["Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi"]
# How far ahead /weekly looks for a week with sessions when the current one has none.
WEEKLY_LOOKAHEAD_WEEKS = 4
UPCOMING_SESSIONS_ON_DETAIL = 5

# The video a course shows when it has none of its own: a first-party file, so it needs no consent.
DEFAULT_COURSE_VIDEO = "video/cours-par-defaut.webm"
DEFAULT_COURSE_VIDEO_POSTER = "img/cours-par-defaut.svg"


# --- Courses ---------------------------------------------------------------------------------------------------


def course_list() -> QuerySet[Course]:
    return Course.objects.all()


def course_get(*, course_id: int) -> Course | None:
    return Course.objects.filter(pk=course_id).first()


def course_list_with_next_session(*, now: datetime | None = None) -> list[Course]:
    """Every course with `next_session_start`: its earliest session starting after `now`, or None. One query."""
    now = now or timezone.now()
    next_start = (
        CourseSession.objects.filter(course=OuterRef("pk"), start__gt=now).order_by("start", "id").values("start")[:1]
    )
    return list(Course.objects.annotate(next_session_start=Subquery(next_start)))


def course_upcoming_sessions(
    *, course: Course, now: datetime | None = None, limit: int = UPCOMING_SESSIONS_ON_DETAIL
) -> list[CourseSession]:
    now = now or timezone.now()
    return list(course.sessions.filter(start__gt=now).select_related("instructor").order_by("start", "id")[:limit])


@dataclass
class CourseVideo:
    kind: str  # "embed" (YouTube/Vimeo, behind consent), "file" (a <video> element)
    src: str
    provider: str = ""


def course_video(*, video_url: str) -> CourseVideo | None:
    """How a course's video is shown: YouTube and Vimeo as consent-gated embeds, other URLs as a video file.

    None means the course has no video: the page shows the default video."""
    url = (video_url or "").strip()
    if not url:
        return None
    parsed = urlparse(url)
    host = (parsed.hostname or "").lower().removeprefix("www.").removeprefix("m.")
    video_id = ""
    if host in ("youtube.com", "youtube-nocookie.com"):
        if parsed.path == "/watch":
            video_id = parse_qs(parsed.query).get("v", [""])[0]
        elif parsed.path.startswith(("/embed/", "/shorts/", "/live/")):
            video_id = parsed.path.split("/")[2]
    elif host == "youtu.be":
        video_id = parsed.path.lstrip("/").split("/")[0]
    if video_id:
        return CourseVideo("embed", f"https://www.youtube-nocookie.com/embed/{quote(video_id)}", "YouTube")
    if host in ("vimeo.com", "player.vimeo.com"):
        digits = [part for part in parsed.path.split("/") if part.isdigit()]
        if digits:
            return CourseVideo("embed", f"https://player.vimeo.com/video/{digits[0]}", "Vimeo")
    return CourseVideo("file", url)


# --- Weekly timetable --------------------------------------------------------------------------------------------


@dataclass
class TimetableDay:
    name: str
    day: date
    sessions: list = field(default_factory=list)


@dataclass
class Timetable:
    monday: date
    saturday: date
    days: list[TimetableDay]

    @property
    def is_empty(self) -> bool:
        return not any(day.sessions for day in self.days)


def weekly_timetable(*, today: date | None = None) -> Timetable:
    """Monday to Saturday of the week to come, from the sessions in the database: the current week from Monday to
    Friday, the next one from Saturday (the last day of the studio's week, whose classes the planning shows) and on
    Sunday, so the page is never titled with the week that is ending.

    When that week has no session, the first of the following weeks that has some is shown. One query: the week is
    found in the database (that of the first Monday-to-Saturday session of the window), and only its sessions are read
    with their course and instructor, not the whole window's."""
    today = today or timezone.localdate()
    monday = today - timedelta(days=today.weekday())
    if today.weekday() >= 5:
        monday += timedelta(weeks=1)
    tz = timezone.get_current_timezone()
    window_start = timezone.make_aware(datetime.combine(monday, datetime.min.time()), tz)
    window_end = window_start + timedelta(weeks=WEEKLY_LOOKAHEAD_WEEKS)
    # Sundays are not shown (iso_week_day in the current time zone, Paris).
    shown = (
        CourseSession.objects.filter(start__gte=window_start, start__lt=window_end)
        .exclude(start__iso_week_day=7)
        .annotate(week=TruncWeek("start", tzinfo=tz))
    )
    first_week = shown.order_by("start", "id").values("week")[:1]
    sessions = list(
        shown.filter(week=Subquery(first_week)).select_related("course", "instructor").order_by("start", "id")
    )
    if sessions:
        first_day = timezone.localtime(sessions[0].start, tz).date()
        monday = first_day - timedelta(days=first_day.weekday())
    days = [TimetableDay(name, monday + timedelta(days=i)) for i, name in enumerate(WEEKDAY_NAMES)]
    for session in sessions:
        days[timezone.localtime(session.start, tz).weekday()].sessions.append(session)
    return Timetable(monday=monday, saturday=monday + timedelta(days=5), days=days)


# --- Tariffs, testimonials, instructors ------------------------------------------------------------------------


def tariff_list() -> QuerySet[Tariff]:
    return Tariff.objects.select_related("course").prefetch_related("covered_courses")


def testimonial_list() -> QuerySet[Testimonial]:
    return Testimonial.objects.all()


def instructor_list() -> QuerySet[Instructor]:
    return Instructor.objects.select_related("user")


# --- The studio's location (docs/decisions.md 20) --------------------------------------------------------------


def studio_map_embed_url() -> str:
    lat, lon = settings.STUDIO["latitude"], settings.STUDIO["longitude"]
    bbox = f"{lon - 0.006:.5f},{lat - 0.003:.5f},{lon + 0.006:.5f},{lat + 0.003:.5f}"
    query = urlencode({"bbox": bbox, "layer": "mapnik", "marker": f"{lat:.5f},{lon:.5f}"})
    return f"https://www.openstreetmap.org/export/embed.html?{query}"


def studio_reviews_embed_url() -> str:
    """The reviews widget: the studio's listing on Google Maps, with its reviews."""
    studio = settings.STUDIO
    place = f"{studio['name']}, {studio['address']}, {studio['postal_code']} {studio['city']}"
    return "https://www.google.com/maps?" + urlencode({"q": place, "output": "embed", "hl": "fr"})


# --- The fixed price list of /tarifs-page ---------------------------------------------------------------------


@dataclass
class PriceListOffer:
    title: str
    label: str
    price: Decimal
    unit: str
    tariff_id: int | None = None


# (tariff title in the database, label shown, price, unit). The title links a row to its orderable tariff.
PRICE_LIST = [
    ("Cours à l'unité", "Cours à l'unité", Decimal("25.00"), ""),
    ("Carte 10 cours", "Carte 10 cours", Decimal("190.00"), ""),
    ("Abonnement annuel illimité", "Abonnement annuel illimité", Decimal("55.00"), "par mois"),
    (
        "Abonnement annuel étudiant / demandeur d'emploi",
        "Abonnement annuel étudiant ou demandeur d'emploi",
        Decimal("44.00"),
        "par mois",
    ),
    ("Abonnement 6 mois illimité", "Abonnement 6 mois illimité", Decimal("85.00"), "par mois"),
    ("Abonnement 6 mois étudiant", "Abonnement 6 mois étudiant", Decimal("65.00"), "par mois"),
    ("Abonnement trimestriel", "Abonnement trimestriel", Decimal("120.00"), "par trimestre"),
    ("Abonnement trimestriel étudiant", "Abonnement trimestriel étudiant", Decimal("100.00"), "par trimestre"),
]


def price_list() -> list[PriceListOffer]:
    """The eight offers, each with the id (and the price) of the tariff of the same title when staff keep one."""
    titles = [title for title, *_ in PRICE_LIST]
    tariffs = {t.title: t for t in Tariff.objects.filter(title__in=titles).only("id", "title", "price")}
    offers = []
    for title, label, price, unit in PRICE_LIST:
        tariff = tariffs.get(title)
        offers.append(
            PriceListOffer(title, label, tariff.price if tariff else price, unit, tariff.pk if tariff else None)
        )
    return offers


# --- Closures (docs/decisions.md 51) ---------------------------------------------------------------------------


def closure_list() -> list:
    """Every closure, each with `sessions_planned`: its classes neither cancelled nor over (those "Annuler les cours
    de la fermeture" would cancel). Two queries whatever the data."""
    closures = list(ClosurePeriod.objects.all())
    if not closures:
        return closures
    first = min(closures, key=lambda c: c.starts_on).bounds[0]
    last = max(closures, key=lambda c: c.ends_on).bounds[1]
    starts = list(
        CourseSession.objects.filter(start__gte=first, start__lt=last, end__gt=timezone.now())
        .exclude(status=SessionStatus.CANCELLED)
        .values_list("start", flat=True)
    )
    for closure in closures:
        start, end = closure.bounds
        closure.sessions_planned = sum(1 for s in starts if start <= s < end)
    return closures


def closures_between(*, first_day: date, last_day: date) -> list:
    """The closures with a day from `first_day` to `last_day` (both included), for the public calendar. One query."""
    return list(ClosurePeriod.objects.filter(starts_on__lte=last_day, ends_on__gte=first_day))
