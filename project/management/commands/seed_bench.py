"""A large studio for `make bench`: 2,000 sessions over a year, 500 members, 5,000 reservations, 2,000 payment
orders and 500 passes; the bench's member (BENCH_MEMBER_EMAIL) has a long history (a reservation on every
tenth session) and a password, for the login measure."""

import random
from datetime import datetime, time, timedelta
from decimal import Decimal

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from accounts.models import Role, User
from bookings.models import Pass, PassKind, PassOrigin, Reservation, ReservationStatus
from courses.models import Course, CourseSession, Instructor
from invoices.services import invoices_issue_missing
from payments.models import PaymentOrder, PaymentStatus
from project.bench_activity import seed_activity
from waivers.models import HealthDeclaration
from waivers.selectors import current_set

BENCH_STAFF_EMAIL = "bench-admin@example.fr"
BENCH_MEMBER_EMAIL = "bench-member-0@example.fr"
BENCH_PASSWORD = "bench-mot-de-passe-2026"


class Command(BaseCommand):
    help = "Remplit la base avec un grand studio pour les mesures de performance."

    def add_arguments(self, parser):
        parser.add_argument("--sessions", type=int, default=2000)
        parser.add_argument("--members", type=int, default=500)
        parser.add_argument("--reservations", type=int, default=5000)

    def handle(self, *args, sessions, members, reservations, **options):
        self._studio(sessions=sessions, members=members, reservations=reservations)
        # A studio in service issued its invoices as the payments came in, and a worker rendered their PDFs then:
        # issue them here, PDFs included (tasks run at once in this process, after each invoice's commit), so that
        # the measures do not run beside the scheduler's catch-up of a year of invoices, which no studio in service
        # has.
        with override_settings(TASKS={"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}):
            self.stdout.write(f"Bench invoices: {invoices_issue_missing()}")

    @staticmethod
    def _health_declarations(member_ids):
        """The bench's members book: each has declared against the demo's questionnaire and documents, all "no"
        (docs/decisions.md 48), else every booking would be asked for it first."""
        current = current_set()
        questions = len(current.questionnaire.questions) if current.questionnaire else 0
        versions = {
            "questionnaire": current.questionnaire,
            "waiver": current.waiver,
            "house_rules": current.house_rules,
        }
        HealthDeclaration.objects.bulk_create(
            [
                HealthDeclaration(member_id=pk, answers=[False] * questions, signed_at=timezone.now(), **versions)
                for pk in member_ids
            ],
            ignore_conflicts=True,
        )

    @transaction.atomic
    def _studio(self, *, sessions, members, reservations):
        call_command("seed_demo", stdout=self.stdout)
        rng = random.Random(2026)
        courses = list(Course.objects.all())
        staff, _ = User.objects.get_or_create(
            email=BENCH_STAFF_EMAIL,
            defaults={
                "first_name": "Bench",
                "last_name": "Admin",
                "role": Role.ADMIN,
                "email_confirmed_at": timezone.now(),
            },
        )

        existing_members = User.objects.filter(email__startswith="bench-member-").count()
        User.objects.bulk_create(
            [
                User(
                    email=f"bench-member-{i}@example.fr",
                    first_name=f"Membre{i}",
                    last_name="Bench",
                    password="!",
                    email_confirmed_at=timezone.now(),
                )
                for i in range(existing_members, members)
            ]
        )
        member_ids = list(User.objects.filter(email__startswith="bench-member-").values_list("pk", flat=True))
        self._health_declarations(member_ids)

        start_day = timezone.localdate() - timedelta(days=180)
        tz = timezone.get_current_timezone()
        existing_sessions = CourseSession.objects.filter(details="bench").count()
        new_sessions = []
        instructor = Instructor.objects.filter(name__iexact="Camille Laurent").first()
        instructor = instructor or Instructor.objects.create(name="Camille Laurent")
        for i in range(existing_sessions, sessions):
            day = start_day + timedelta(days=(i * 365) // sessions)
            start = timezone.make_aware(datetime.combine(day, time(9 + (i % 12), 0)), tz)
            course = courses[i % len(courses)]
            new_sessions.append(
                CourseSession(
                    course=course,
                    start=start,
                    end=start + timedelta(minutes=75),
                    instructor=instructor,
                    max_attendees=20,
                    details="bench",
                    price_per_participant=Decimal("25.00"),
                )
            )
        CourseSession.objects.bulk_create(new_sessions)
        session_ids = list(CourseSession.objects.filter(details="bench").values_list("pk", flat=True))

        existing = Reservation.objects.filter(message="bench").count()
        taken = set(Reservation.objects.filter(message="bench").values_list("session_id", "user_id"))
        rows = []
        while existing + len(rows) < reservations:
            pair = (rng.choice(session_ids), rng.choice(member_ids))
            if pair in taken:
                continue
            taken.add(pair)
            rows.append(
                Reservation(
                    session_id=pair[0],
                    user_id=pair[1],
                    participants=1,
                    unit_price=Decimal("25.00"),
                    first_name="Membre",
                    last_name="Bench",
                    email="bench@example.fr",
                    message="bench",
                    status=ReservationStatus.CONFIRMED,
                    confirmed_at=timezone.now(),
                )
            )
        # The bench's member follows every tenth session: a history of ~200 rows, past and upcoming.
        bench_member = User.objects.get(email=BENCH_MEMBER_EMAIL)
        for session_id in session_ids[::10]:
            if (session_id, bench_member.pk) not in taken:
                taken.add((session_id, bench_member.pk))
                rows.append(
                    Reservation(
                        session_id=session_id,
                        user_id=bench_member.pk,
                        participants=1,
                        unit_price=Decimal("25.00"),
                        first_name="Membre",
                        last_name="Bench",
                        email=BENCH_MEMBER_EMAIL,
                        message="bench",
                        status=ReservationStatus.CONFIRMED,
                        confirmed_at=timezone.now(),
                    )
                )
        Reservation.objects.bulk_create(rows, batch_size=1000)
        bench_member.set_password(BENCH_PASSWORD)
        bench_member.save(update_fields=["password"])
        self._orders_and_passes(member_ids, rng)
        # A year of payments, refunds, passes, subscriptions, waiting lists and attendance, for the owner's
        # view to show.
        activity = seed_activity(member_ids=member_ids, session_ids=session_ids, rng=rng)
        self.stdout.write(f"Bench activity: {activity or 'already there'}")
        self.stdout.write(
            f"Bench: {CourseSession.objects.count()} sessions, {User.objects.count()} users, "
            f"{Reservation.objects.count()} reservations, {PaymentOrder.objects.count()} orders, "
            f"{Pass.objects.count()} passes; staff {staff.email}"
        )

    def _orders_and_passes(self, member_ids, rng, orders=2000, passes=500):
        if PaymentOrder.objects.filter(order_id__startswith="BENCH-").exists():
            return
        today = timezone.localdate()
        PaymentOrder.objects.bulk_create(
            [
                PaymentOrder(
                    order_id=f"BENCH-{i:06d}",
                    email=f"bench-member-{i % 500}@example.fr",
                    first_name=f"Membre{i % 500}",
                    last_name="Bench",
                    title="Carte 10 cours",
                    amount=Decimal("190.00"),
                    date=(today - timedelta(days=i % 365)).isoformat(),
                    type="forfait",
                    status=PaymentStatus.COMPLETED,
                    user_id=rng.choice(member_ids),
                )
                for i in range(orders)
            ],
            batch_size=1000,
        )
        Pass.objects.bulk_create(
            [
                Pass(
                    member_id=rng.choice(member_ids),
                    kind=PassKind.CARD,
                    origin=PassOrigin.STAFF,
                    title="Carte 10 cours",
                    credits_total=10,
                    credits_left=rng.randint(0, 10),
                    starts_on=today - timedelta(days=i % 200),
                    expires_on=today + timedelta(days=365 - i % 300),
                )
                for i in range(passes)
            ],
            batch_size=1000,
        )
