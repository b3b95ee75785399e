"""The member's push data (the browsers they subscribed and their switches, docs/decisions.md 59) is theirs: in their
data export, and gone with the account."""

import pytest

from accounts.tests.factories import DEFAULT_PASSWORD
from notifications.models import PushPreferences, PushSubscription

from .test_personal_data import EXPORT, ME

pytestmark = pytest.mark.django_db


def _browser(member, endpoint: str) -> PushSubscription:
    return PushSubscription.objects.create(
        user=member, endpoint=endpoint, p256dh="clé-publique", auth="secret-du-navigateur", user_agent="Firefox Android"
    )


def test_the_export_holds_the_members_push_browsers_and_switches_and_no_one_elses(api_client, member, other_member):
    _browser(member, "https://updates.push.services.mozilla.com/wpush/v2/abc")
    _browser(other_member, "https://fcm.googleapis.com/fcm/send/xyz")
    PushPreferences.objects.create(user=member, waitlist_offer=False)
    api_client.force_authenticate(member)

    push = api_client.get(EXPORT).json()["push_notifications"]

    assert push["preferences"] == {"waitlist_offer": False, "class_cancelled": True, "reminder": True}
    [browser] = push["devices"]
    assert browser["push_service"] == "updates.push.services.mozilla.com"
    assert browser["device"] == "Firefox Android"
    assert browser["subscribed_at"] and browser["last_sent_at"] is None
    # The browser's keys are secrets of the browser, shown to no one (it holds them itself).
    assert "secret-du-navigateur" not in str(push) and "clé-publique" not in str(push)


def test_without_push_the_export_says_every_kind_is_on_and_no_device(api_client, member):
    api_client.force_authenticate(member)

    push = api_client.get(EXPORT).json()["push_notifications"]

    assert push == {"preferences": {"waitlist_offer": True, "class_cancelled": True, "reminder": True}, "devices": []}


def test_deleting_the_account_deletes_its_push_browsers_and_switches_only(
    api_client, member, other_member, django_capture_on_commit_callbacks
):
    _browser(member, "https://updates.push.services.mozilla.com/wpush/v2/abc")
    kept = _browser(other_member, "https://fcm.googleapis.com/fcm/send/xyz")
    PushPreferences.objects.create(user=member, reminder=False)
    PushPreferences.objects.create(user=other_member, reminder=False)
    api_client.force_authenticate(member)

    with django_capture_on_commit_callbacks(execute=True):
        done = api_client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json")

    assert done.status_code == 200
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.pk]
    assert list(PushPreferences.objects.values_list("user_id", flat=True)) == [other_member.pk]
