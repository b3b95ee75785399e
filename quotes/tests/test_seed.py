import pytest

from accounts.tests.factories import UserFactory
from quotes import seed
from quotes.models import PartyReservation, RoomRentalRequest


@pytest.mark.django_db
def test_demo_requests_are_seeded_once():
    UserFactory(email=seed.DEMO_MEMBER_EMAIL)
    seed.run()
    seed.run()
    assert PartyReservation.objects.count() == 1
    assert RoomRentalRequest.objects.count() == 1
