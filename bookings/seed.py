"""Demo bookings (idempotent): the demo member's past and upcoming classes, a feedback and a 10-class
card with credits left."""

import os
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from courses.models import CourseSession, Tariff

from .models import (
    CourseFeedback,
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PassOrigin,
    Reservation,
    ReservationStatus,
)
from .services.passes import add_months

DEMO_PASS_REASON = "Carte de démonstration"

DEMO_MEMBER_EMAIL = os.environ.get("DEMO_MEMBER_EMAIL", "membre@studio-pole-danse.fr").lower()


def _confirmed(member, session, participants=1):
    reservation = Reservation.objects.filter(session=session, user=member).first()
    if reservation is None:
        reservation = Reservation.objects.create(
            session=session,
            user=member,
            participants=participants,
            unit_price=session.price_per_participant,
            first_name=member.first_name,
            last_name=member.last_name,
            email=member.email,
            status=ReservationStatus.CONFIRMED,
            confirmed_at=min(session.start - timedelta(days=1), timezone.now()),
        )
    return reservation


@transaction.atomic
def run(*, stdout=None):
    member = User.objects.filter(email=DEMO_MEMBER_EMAIL).first()
    if member is None:
        return
    now = timezone.now()
    past = list(CourseSession.objects.filter(start__lt=now).select_related("course").order_by("-start")[:2])
    upcoming = list(CourseSession.objects.filter(start__gt=now).order_by("start")[:2])
    for session in past + upcoming:
        _confirmed(member, session)
    if past:
        CourseFeedback.objects.get_or_create(
            user=member,
            course=past[0].course,
            defaults={"rating": 5, "comment": "Super ambiance et des conseils précis, j'ai adoré !"},
        )
    _demo_pass(member)
    if stdout:
        stdout.write("Réservations de démonstration prêtes.")


def _demo_pass(member):
    """A 'Carte 10 cours' with 8 credits left, so the demo member can book with it at once."""
    tariff = Tariff.objects.filter(pass_credits__gt=0, pass_unlimited=False).order_by("-pass_credits").first()
    if tariff is None or Pass.objects.filter(member=member).exists():
        return
    today = timezone.localdate()
    credits = tariff.pass_credits
    demo = Pass.objects.create(
        member=member,
        tariff=tariff,
        kind=PassKind.CARD,
        origin=PassOrigin.STAFF,
        title=tariff.title,
        credits_total=credits,
        credits_left=max(credits - 2, 0),
        starts_on=today,
        expires_on=add_months(today, tariff.pass_validity_months),
    )
    PassAdjustment.objects.create(
        pass_ref=demo,
        action=PassAdjustmentAction.GRANT,
        credits_delta=credits,
        expires_on_after=demo.expires_on,
        reason=DEMO_PASS_REASON,
    )
