"""Rules of the messaging services: stored, e-mailed, read state, blank replies, rental checks."""

import datetime

import pytest
from django.conf import settings
from django.utils import timezone

from quotes.models import RoomRentalRequest
from quotes.services import rentals

pytestmark = pytest.mark.django_db


def _rental(**overrides):
    data = {
        "name": "Léa Moreau",
        "email": "lea@example.fr",
        "phone": "06 12 34 56 78",
        "event_type": "Anniversaire",
        "date": timezone.localdate() + datetime.timedelta(days=10),
        "time": datetime.time(15, 0),
        "message": "",
    }
    data.update(overrides)
    return data


def test_rental_request_is_stored_and_emailed(mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        rental = rentals.room_rental_request_create(**_rental())
    assert rental.phone == "0612345678"
    assert mailoutbox[0].to == [settings.STAFF_NOTIFICATION_EMAIL]
    assert "Anniversaire" in mailoutbox[0].subject


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"name": ""}, rentals.MSG_RENTAL_REQUIRED),
        ({"email": ""}, rentals.MSG_RENTAL_REQUIRED),
        ({"phone": ""}, rentals.MSG_RENTAL_REQUIRED),
        ({"date": None}, rentals.MSG_RENTAL_REQUIRED),
        ({"time": None}, rentals.MSG_RENTAL_REQUIRED),
        ({"phone": "06123"}, rentals.MSG_RENTAL_PHONE),
        ({"event_type": "Mariage"}, rentals.MSG_RENTAL_EVENT_TYPE),
        ({"date": datetime.date(2020, 1, 1)}, rentals.MSG_RENTAL_DATE_PAST),
    ],
)
def test_rental_request_rules(overrides, expected, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(rentals.RentalError) as exc:
        rentals.room_rental_request_create(**_rental(**overrides))
    assert exc.value.message == expected
    assert not RoomRentalRequest.objects.exists() and not mailoutbox
