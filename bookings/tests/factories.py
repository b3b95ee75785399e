from datetime import timedelta
from decimal import Decimal

import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import CourseFeedback, Pass, PassKind, PassOrigin, Reservation, ReservationStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory


class ReservationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Reservation

    session = factory.SubFactory(CourseSessionFactory)
    user = factory.SubFactory(UserFactory)
    participants = 1
    unit_price = Decimal("25.00")
    first_name = factory.LazyAttribute(lambda o: o.user.first_name)
    last_name = factory.LazyAttribute(lambda o: o.user.last_name)
    email = factory.LazyAttribute(lambda o: o.user.email)
    status = ReservationStatus.CONFIRMED
    hold_expires_at = None

    class Params:
        held = factory.Trait(
            status=ReservationStatus.HELD,
            hold_expires_at=factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=15)),
        )


class CourseFeedbackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CourseFeedback

    user = factory.SubFactory(UserFactory)
    course = factory.SubFactory(CourseFactory)
    rating = 4
    comment = "Très bien."


class PassFactory(factory.django.DjangoModelFactory):
    """A 10-class card valid from today for 6 months (trait `subscription` for an unlimited one)."""

    class Meta:
        model = Pass

    member = factory.SubFactory(UserFactory)
    kind = PassKind.CARD
    origin = PassOrigin.STAFF
    title = "Carte 10 cours"
    credits_total = 10
    credits_left = factory.LazyAttribute(lambda o: o.credits_total)
    starts_on = factory.LazyFunction(timezone.localdate)
    expires_on = factory.LazyFunction(lambda: timezone.localdate() + timedelta(days=180))

    class Params:
        subscription = factory.Trait(
            kind=PassKind.SUBSCRIPTION, title="Abonnement annuel illimité", credits_total=None, credits_left=None
        )
