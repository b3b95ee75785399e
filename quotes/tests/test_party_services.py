from datetime import date, time, timedelta

import pytest
from django.utils import timezone

from bookings.services.common import MSG_PARTICIPANTS_MIN
from quotes.models import PartyReservation
from quotes.services.parties import (
    MSG_PARTY_DATE_PAST,
    MSG_PARTY_EVENT_TYPE_INVALID,
    MSG_PARTY_REQUIRED,
    PartyError,
    party_reservation_create,
)

pytestmark = pytest.mark.django_db


def test_party_request_is_stored_and_mailed_to_studio_and_member(
    member, mailoutbox, settings, django_capture_on_commit_callbacks
):
    settings.STAFF_NOTIFICATION_EMAIL = "studio@example.fr"
    day = timezone.localdate() + timedelta(days=10)
    with django_capture_on_commit_callbacks(execute=True):
        party = party_reservation_create(
            user=member, event_type="EVG", date=day, time=time(15, 0), participants=8, email=member.email
        )
    assert party.event_type == "EVG" and party.participants == 8
    assert sorted(m.to[0] for m in mailoutbox) == sorted(["studio@example.fr", member.email])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"date": None}, MSG_PARTY_REQUIRED),
        ({"time": None}, MSG_PARTY_REQUIRED),
        ({"email": " "}, MSG_PARTY_REQUIRED),
        ({"participants": None}, MSG_PARTY_REQUIRED),
        ({"participants": 0}, MSG_PARTICIPANTS_MIN),
        ({"event_type": "ANNIV"}, MSG_PARTY_EVENT_TYPE_INVALID),
        ({"date": date(2001, 1, 1)}, MSG_PARTY_DATE_PAST),
    ],
)
def test_party_request_refusals(member, kwargs, message):
    base = {
        "user": member,
        "date": timezone.localdate() + timedelta(days=5),
        "time": time(14, 0),
        "participants": 6,
        "email": member.email,
    }
    with pytest.raises(PartyError) as exc:
        party_reservation_create(**{**base, **kwargs})
    assert exc.value.message == message
    assert not PartyReservation.objects.exists()
