"""Idempotent demo data: running it twice leaves the same data."""

import importlib
import os
from datetime import date, datetime, time, timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from accounts.models import Role, User
from courses.models import ClosurePeriod, Course, CourseSession, Instructor, Tariff, Testimonial
from courses.seed_data import CHRISTMAS_CLOSURE_LABEL, COURSES, INSTRUCTORS, TARIFFS, TESTIMONIALS, WEEKLY_SLOTS

DEFAULT_ADMIN_EMAIL = "admin@studio-pole-danse.fr"
DEFAULT_ADMIN_PASSWORD = "DemoAdmin2026!"
DEFAULT_MEMBER_EMAIL = "membre@studio-pole-danse.fr"
DEFAULT_MEMBER_PASSWORD = "DemoMembre2026!"
# One of the demo instructors (courses.seed_data.INSTRUCTORS) signs in to see their classes.
DEFAULT_INSTRUCTOR_EMAIL = "lea.garnier@studio-pole-danse.fr"
DEFAULT_INSTRUCTOR_PASSWORD = "DemoProf2026!"

# Apps that add their own demo data provide `<app>.seed.run(*, stdout)`.
APP_SEEDERS = [
    "courses",
    "accounts",
    "bookings",
    "quotes",
    "payments",
    "invoices",
    "media_library",
    "messaging",
    "waivers",
    "offers",
]


def demo_accounts():
    return {
        "admin": (
            os.environ.get("DEMO_ADMIN_EMAIL", DEFAULT_ADMIN_EMAIL),
            os.environ.get("DEMO_ADMIN_PASSWORD", DEFAULT_ADMIN_PASSWORD),
        ),
        "member": (
            os.environ.get("DEMO_MEMBER_EMAIL", DEFAULT_MEMBER_EMAIL),
            os.environ.get("DEMO_MEMBER_PASSWORD", DEFAULT_MEMBER_PASSWORD),
        ),
        "instructor": (
            DEFAULT_INSTRUCTOR_EMAIL,
            os.environ.get("DEMO_INSTRUCTOR_PASSWORD", DEFAULT_INSTRUCTOR_PASSWORD),
        ),
    }


def _upsert_user(email, password, **fields):
    """The demo account exists and signs in with the printed password; details a person changed since are kept."""
    user = User.objects.filter(email=email.lower()).first()
    if user is None:
        user = User(email=email.lower(), **fields)
        user.set_password(password)
        user.save()
        return user
    if "role" in fields and user.role != fields["role"]:
        user.role = fields["role"]
        user.save(update_fields=["role"])
    if not user.check_password(password):
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def seed_accounts():
    accounts = demo_accounts()
    confirmed = timezone.now().replace(microsecond=0)
    admin_email, admin_password = accounts["admin"]
    member_email, member_password = accounts["member"]
    admin = User.objects.filter(email=admin_email.lower()).first()
    _upsert_user(
        admin_email,
        admin_password,
        first_name="Camille",
        last_name="Laurent",
        role=Role.ADMIN,
        phone="0478000000",
        city="Lyon",
        postal_code="69002",
        email_confirmed_at=admin.email_confirmed_at if admin and admin.email_confirmed_at else confirmed,
    )
    member = User.objects.filter(email=member_email.lower()).first()
    _upsert_user(
        member_email,
        member_password,
        first_name="Emma",
        last_name="Petit",
        role=Role.USER,
        phone="0612345678",
        address="5 place Bellecour",
        postal_code="69002",
        city="Lyon",
        email_confirmed_at=member.email_confirmed_at if member and member.email_confirmed_at else confirmed,
    )
    return accounts


def christmas_closure_days(first_day: date) -> tuple[date, date]:
    """The Christmas closure (24 December to 1 January) the demo schedule meets first: the one still running or
    coming on `first_day`."""
    year = first_day.year - 1 if first_day <= date(first_day.year, 1, 1) else first_day.year
    return date(year, 12, 24), date(year + 1, 1, 1)


def seed_christmas_closure(first_day: date) -> ClosurePeriod:
    """docs/decisions.md 51: the demo studio closes for Christmas. Kept as staff left it: a closure already over
    those days (renamed, moved) is not added again."""
    starts_on, ends_on = christmas_closure_days(first_day)
    existing = ClosurePeriod.objects.filter(starts_on__lte=ends_on, ends_on__gte=starts_on).first()
    return existing or ClosurePeriod.objects.create(label=CHRISTMAS_CLOSURE_LABEL, starts_on=starts_on, ends_on=ends_on)


def _closed(start, closures) -> bool:
    return any(closure.bounds[0] <= start < closure.bounds[1] for closure in closures)


def _demo_sessions_inside_removed(closures, courses) -> None:
    """A database seeded before the closure existed holds demo classes on its days: each one of the demo timetable
    (WEEKLY_SLOTS) nobody ever booked is removed; a booked one is the studio's to cancel with its refunds ("Annuler
    les cours de la fermeture"), and a class staff planned themselves is theirs."""
    slots = {(courses[key][0].pk, weekday, hhmm) for weekday, hhmm, key in WEEKLY_SLOTS if key in courses}
    for closure in closures:
        start, end = closure.bounds
        inside = CourseSession.objects.filter(
            course_id__in={course_id for course_id, _w, _t in slots},
            series__isnull=True,
            start__gte=start,
            start__lt=end,
        )
        for session in inside:
            local = timezone.localtime(session.start)
            if (session.course_id, local.weekday(), local.strftime("%H:%M")) not in slots:
                continue
            try:
                with transaction.atomic():
                    session.delete()
            except ProtectedError:
                continue


def seed_catalogue(today=None):
    """The demo catalogue is created once, on an empty studio: after that, courses, tariffs and instructors are the
    studio's, which staff may rename, edit or remove, and seeding again neither overwrites nor duplicates them. Only
    the demo weeks' sessions are added, for the demo courses still there."""
    first_time = not Course.objects.exists()
    courses = {}
    for position, data in enumerate(COURSES):
        course = Course.objects.filter(title=data["title"]).first()
        if course is None and first_time:
            course = Course.objects.create(
                title=data["title"],
                description=data["description"],
                level=data["level"],
                duration=data["duration"],
                position=position,
            )
        if course is not None:
            courses[data["key"]] = (course, data)

    instructors = {}
    for data in INSTRUCTORS:
        name = f"{data['first_name']} {data['last_name']}"
        user = User.objects.filter(email=data["email"]).first()
        if user is None:
            user = User(
                email=data["email"],
                role=Role.INSTRUCTOR,
                email_confirmed_at=timezone.now(),
                first_name=data["first_name"],
                last_name=data["last_name"],
            )
            user.set_unusable_password()
            user.save()
        instructor = (
            Instructor.objects.filter(user=user).first() or Instructor.objects.filter(name__iexact=name).first()
        )
        if instructor is None:
            instructor = Instructor.objects.create(
                name=name, user=user, active=True, bio=data["bio"], specialties=data["specialties"]
            )
        elif instructor.user_id is None:
            instructor.user = user
            instructor.save(update_fields=["user"])
        instructors[name] = instructor

    if not Tariff.objects.exists():
        for position, data in enumerate(TARIFFS):
            course_key = data.get("course_key")
            Tariff.objects.create(
                title=data["title"],
                type=data["type"],
                price=data["price"],
                frequency=data["frequency"],
                validity=data["validity"],
                description=data["description"],
                conditions=data.get("conditions", ""),
                course=courses[course_key][0] if course_key in courses else None,
                position=position,
                pass_credits=data.get("pass_credits", 0),
                pass_validity_months=data.get("pass_validity_months", 0),
                pass_unlimited=data.get("pass_unlimited", False),
                pass_weekly_cap=data.get("pass_weekly_cap", 0),
            )

    if first_time:
        for name, message in TESTIMONIALS:
            Testimonial.objects.get_or_create(name=name, message=message)

    # Weekly sessions for the past 2 and the next 8 weeks, in Paris time, none on a day the studio is closed.
    today = today or timezone.localdate()
    monday = today - timedelta(days=today.weekday())
    tz = timezone.get_current_timezone()
    seed_christmas_closure(monday - timedelta(weeks=2))
    closures = list(
        ClosurePeriod.objects.filter(
            starts_on__lte=monday + timedelta(weeks=8), ends_on__gte=monday - timedelta(weeks=2)
        )
    )
    _demo_sessions_inside_removed(closures, courses)
    for week in range(-2, 8):
        week_start = monday + timedelta(weeks=week)
        for weekday, hhmm, key in WEEKLY_SLOTS:
            if key not in courses:
                continue
            course, data = courses[key]
            hour, minute = map(int, hhmm.split(":"))
            start = timezone.make_aware(datetime.combine(week_start + timedelta(days=weekday), time(hour, minute)), tz)
            if _closed(start, closures):
                continue
            CourseSession.objects.get_or_create(
                course=course,
                start=start,
                defaults={
                    "end": start + timedelta(minutes=data["duration"]),
                    "instructor": instructors[data["instructor"]],
                    "level": data["level"],
                    "max_attendees": 10,
                },
            )
    return courses


class Command(BaseCommand):
    help = "Remplit la base avec un studio de démonstration (idempotent)."

    def handle(self, *args, **options):
        with transaction.atomic():
            accounts = seed_accounts()
            seed_catalogue()
            teacher_email, teacher_password = accounts["instructor"]
            _upsert_user(teacher_email, teacher_password, role=Role.INSTRUCTOR)  # created by seed_catalogue
        for app in APP_SEEDERS:
            try:
                module = importlib.import_module(f"{app}.seed")
            except ModuleNotFoundError as exc:
                if exc.name != f"{app}.seed":
                    raise
                continue
            module.run(stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Données de démonstration prêtes."))
        self.stdout.write(f"  Admin  : {accounts['admin'][0]} / {accounts['admin'][1]}")
        self.stdout.write(f"  Membre : {accounts['member'][0]} / {accounts['member'][1]}")
        self.stdout.write(f"  Professeur : {accounts['instructor'][0]} / {accounts['instructor'][1]}")
