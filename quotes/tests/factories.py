import datetime

import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from quotes.models import PartyReservation, RentalEventType, RoomRentalRequest


class PartyReservationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PartyReservation

    user = factory.SubFactory(UserFactory)
    event_type = "EVJF"
    date = factory.LazyFunction(lambda: timezone.localdate() + datetime.timedelta(days=20))
    time = "15:00"
    participants = 8
    email = factory.LazyAttribute(lambda o: o.user.email)


class RoomRentalRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RoomRentalRequest

    name = factory.Faker("name", locale="fr_FR")
    email = factory.Sequence(lambda n: f"location{n}@example.fr")
    phone = "0612345678"
    event_type = RentalEventType.BIRTHDAY
    date = factory.LazyFunction(lambda: timezone.localdate() + datetime.timedelta(days=14))
    time = datetime.time(18, 30)
