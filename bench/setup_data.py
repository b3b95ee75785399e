"""Run by `make bench` inside `manage.py shell` of the measured checkout, after `seed_bench`: the class opening's
12-place class and its 300 members, logged in; the session cookies and object ids the measured pages need; the
static copies of the public pages (the ceiling of row 3). Prints one JSON line.

It is a script for `manage.py shell`, not a management command, so that `BENCH_PROJECT` can point at another
checkout (one without this file) and be measured the same way. It reads its arguments from the BENCH_SETUP
environment variable (JSON: members, places, warm_members, public_pages, where "{course}" stands for the first
course's id) and uses only models and fields that the
checkouts compared share.
"""

import json
import os
from datetime import datetime, time, timedelta
from decimal import Decimal
from importlib import import_module
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db.models import Count
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.models import Pass, Reservation, ReservationStatus
from courses.models import Course, CourseSession, Instructor, SessionStatus
from invoices.models import Invoice
from messaging.models import ContactMessage
from payments.subscriptions.models import Subscription
from quotes.models import PartyReservation, RoomRentalRequest
from waivers.seed import declarations_seed

ARGS = json.loads(os.environ["BENCH_SETUP"])
STAFF_EMAIL = "bench-admin@example.fr"  # made by seed_bench
MEMBER_EMAIL = "bench-member-0@example.fr"  # seed_bench's member with a long history
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


def cookie(user) -> str:
    """A logged-in session, as Django's login() leaves it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key


def members(prefix: str, count: int) -> list[User]:
    now = timezone.now()
    User.objects.bulk_create(
        [
            User(
                email=f"{prefix}-{i}@example.fr",
                first_name=f"Membre{i}",
                last_name="Ouverture",
                password="!",
                email_confirmed_at=now,
            )
            for i in range(count)
        ],
        ignore_conflicts=True,
    )
    declarations_seed(User.objects.filter(email__startswith=f"{prefix}-"))  # else every booking asks it first
    return list(User.objects.filter(email__startswith=f"{prefix}-").order_by("pk")[:count])


def new_class(details: str, places: int, days_ahead: int) -> CourseSession:
    tz = timezone.get_current_timezone()
    day = timezone.localdate() + timedelta(days=days_ahead)
    start = timezone.make_aware(datetime.combine(day, time(19, 30)), tz)
    return CourseSession.objects.create(
        course=Course.objects.order_by("pk").first(),
        start=start,
        end=start + timedelta(minutes=75),
        instructor=Instructor.objects.order_by("pk").first(),
        max_attendees=places,
        details=details,
        price_per_participant=Decimal("25.00"),
    )


def identity(user) -> dict:
    return {"first_name": user.first_name, "last_name": user.last_name, "email": user.email}


def owned(model, owner_field: str):
    """The object of `model` whose owner has the most of them (a page with rows), and its owner."""
    top = (
        model.objects.exclude(**{f"{owner_field}__isnull": True})
        .values(owner_field)
        .annotate(n=Count("pk"))
        .order_by("-n", owner_field)
        .first()
    )
    if top is None:
        return None, None
    owner = User.objects.get(pk=top[owner_field])
    return model.objects.filter(**{owner_field: owner}).order_by("-pk").first(), owner


now = timezone.now()
rush_members = members("rush-member", ARGS["members"])
warm_members = members("rush-warm", ARGS["warm_members"])
rush_classes = [new_class("bench-rush", ARGS["places"], days_ahead=4) for _ in range(ARGS.get("openings", 1))]
warm_class = new_class("bench-rush-warm", len(warm_members) + 5, days_ahead=5)

staff = User.objects.get(email=STAFF_EMAIL)
member = User.objects.get(email=MEMBER_EMAIL)
upcoming = (
    Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED, session__start__gt=now)
    .order_by("session__start")
    .first()
)


def busiest_session(*, upcoming: bool):
    """The class with the most bookings, the soonest upcoming one or the latest past one."""
    sessions = CourseSession.objects.filter(**{"start__gt" if upcoming else "start__lt": now})
    by_date = "start" if upcoming else "-start"
    return sessions.annotate(n=Count("reservations")).order_by("-n", by_date).values_list("pk", flat=True).first()


# The staff's session pages: the upcoming class with the most bookings, and a past one for the attendance pages.
busy_session = busiest_session(upcoming=True)
past_session = busiest_session(upcoming=False)
cancelled_session = (
    CourseSession.objects.filter(status=SessionStatus.CANCELLED).order_by("-start").values_list("pk", flat=True).first()
)
subscribed_tariff = Subscription.objects.order_by("pk").values_list("tariff_id", flat=True).first()
teacher = Instructor.objects.filter(user__isnull=False).select_related("user").order_by("pk").first()
teacher_classes = CourseSession.objects.filter(instructor=teacher, start__gt=now).order_by("start")
teacher_session = teacher_classes.values_list("pk", flat=True).first() if teacher else None
message, message_owner = owned(ContactMessage, "user")
party, party_owner = owned(PartyReservation, "user")
rental, rental_owner = owned(RoomRentalRequest, "user")
invoice, invoice_owner = owned(Invoice, "member")
a_pass = Pass.objects.filter(member=member).order_by("-pk").first() or Pass.objects.order_by("-pk").first()

# The public pages' bytes as a visitor gets them, written as static files of the same size (served by whitenoise
# from STATIC_ROOT, found when gunicorn starts).
ceiling_dir = Path(settings.STATIC_ROOT) / "bench"
ceiling_dir.mkdir(parents=True, exist_ok=True)
ceilings = {}
visitor = Client(HTTP_HOST="127.0.0.1")
course_id = Course.objects.order_by("pk").values_list("pk", flat=True).first()
for index, page in enumerate(ARGS["public_pages"]):
    path = page.replace("{course}", str(course_id))
    response = visitor.get(path)
    name = f"ceiling-{index}.html"
    (ceiling_dir / name).write_bytes(response.content)
    ceilings[path] = {"static": f"{settings.STATIC_URL.rstrip('/')}/bench/{name}", "bytes": len(response.content)}


def owner_cookie(owner):
    return cookie(owner) if owner is not None else None


print(
    json.dumps(
        {
            "rush_sessions": [rush_class.pk for rush_class in rush_classes],
            "rush_places": ARGS["places"],
            "rush": [{"id": u.pk, "cookie": cookie(u), **identity(u)} for u in rush_members],
            "warm_session": warm_class.pk,
            "warm": [{"id": u.pk, "cookie": cookie(u), **identity(u)} for u in warm_members],
            "staff": cookie(staff),
            "member": cookie(member),
            "member_id": member.pk,
            "member_reservation": upcoming.pk if upcoming else None,
            "session": busy_session,
            "past_session": past_session,
            "course": course_id,
            "cancelled_session": cancelled_session,
            "subscribed_tariff": subscribed_tariff,
            "instructor": cookie(teacher.user) if teacher else None,
            "instructor_session": teacher_session,
            "message": message.pk if message else None,
            "message_owner": owner_cookie(message_owner),
            "message_owner_id": message_owner.pk if message_owner else None,
            "party": party.pk if party else None,
            "party_owner": owner_cookie(party_owner),
            "rental": rental.pk if rental else None,
            "rental_owner": owner_cookie(rental_owner),
            "invoice": invoice.pk if invoice else None,
            "invoice_order": invoice.payment_order.order_id if invoice and invoice.payment_order_id else None,
            "invoice_owner": owner_cookie(invoice_owner),
            "pass": a_pass.pk if a_pass else None,
            "ceilings": ceilings,
        }
    )
)
