"""A large studio for `make bench`: 2,000 sessions over a year, 500 members, 5,000 reservations."""

import random
from datetime import datetime, time, timedelta
from decimal import Decimal

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import Role, User
from bookings.models import Reservation, ReservationStatus
from courses.models import Course, CourseSession

BENCH_STAFF_EMAIL = "bench-admin@example.fr"


class Command(BaseCommand):
    help = "Remplit la base avec un grand studio pour les mesures de performance."

    def add_arguments(self, parser):
        parser.add_argument("--sessions", type=int, default=2000)
        parser.add_argument("--members", type=int, default=500)
        parser.add_argument("--reservations", type=int, default=5000)

    @transaction.atomic
    def handle(self, *args, sessions, members, reservations, **options):
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

        start_day = timezone.localdate() - timedelta(days=180)
        tz = timezone.get_current_timezone()
        existing_sessions = CourseSession.objects.filter(details="bench").count()
        new_sessions = []
        for i in range(existing_sessions, sessions):
            day = start_day + timedelta(days=(i * 365) // sessions)
            start = timezone.make_aware(datetime.combine(day, time(9 + (i % 12), 0)), tz)
            course = courses[i % len(courses)]
            new_sessions.append(
                CourseSession(
                    course=course,
                    start=start,
                    end=start + timedelta(minutes=75),
                    instructor="Camille Laurent",
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
        Reservation.objects.bulk_create(rows, batch_size=1000)
        self.stdout.write(
            f"Bench: {CourseSession.objects.count()} sessions, {User.objects.count()} users, "
            f"{Reservation.objects.count()} reservations; staff {staff.email}"
        )
