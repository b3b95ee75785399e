"""Subscriptions, switches and the worker's pushes, received by the local push service (docs/decisions.md 53)."""

import json
import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from freezegun import freeze_time
from py_vapid import Vapid

from notifications import services
from notifications.apis import MSG_SWITCH_INVALID
from notifications.models import PushKind, PushSubscription

from .push_service import PushRejected, vapid_key_pair

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
AFTERNOON = datetime(2026, 12, 1, 15, 0, tzinfo=PARIS)
NIGHT = datetime(2026, 12, 1, 23, 0, tzinfo=PARIS)


def _subscribe(client, browser):
    return client.post("/api/push/subscriptions", browser.subscription_json(), format="json")


@pytest.fixture
def member_client(api_client, member):
    api_client.force_authenticate(member)
    return api_client


def test_subscribing_records_the_browser_and_a_push_reaches_it_encrypted_and_signed(
    member_client, member, push_service, django_capture_on_commit_callbacks
):
    browser = push_service.subscribe()
    response = _subscribe(member_client, browser)
    assert response.status_code == 201
    assert response.json()["message"] == services.MSG_SUBSCRIBED
    with freeze_time(AFTERNOON, tick=True), django_capture_on_commit_callbacks(execute=True):
        queued = services.push_notify(
            user_id=member.pk, kind=PushKind.WAITLIST_OFFER, title="Une place pour vous", body="Pole débutant", url="/x"
        )
    assert queued
    assert push_service.rejected == []
    assert push_service.messages(browser) == [
        {"kind": "waitlist_offer", "title": "Une place pour vous", "body": "Pole débutant", "url": "/x"}
    ]
    assert PushSubscription.objects.get(endpoint=browser.endpoint).last_sent_at is not None


def test_a_forged_vapid_key_is_refused_by_the_push_service(member, push_service, settings):
    browser = push_service.subscribe()
    services.push_subscribe(user=member, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid_key_pair()[0]  # signs with a key that is not the announced one
    with freeze_time(AFTERNOON, tick=True):
        assert services.push_deliver.call(user_id=member.pk, payload="{}") == 0
    assert push_service.rejected and push_service.rejected[0][0] == 403
    assert browser.received == []


def test_a_subscription_the_push_service_says_is_gone_is_deleted(member, push_service):
    browser = push_service.subscribe()
    services.push_subscribe(user=member, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    browser.gone = True
    with freeze_time(AFTERNOON, tick=True):
        assert services.push_deliver.call(user_id=member.pk, payload=json.dumps({"title": "x"})) == 0
    assert not PushSubscription.objects.filter(endpoint=browser.endpoint).exists()


def test_nothing_is_pushed_in_quiet_hours(member, push_service, settings):
    settings.QUIET_HOURS = ((22, 0), (8, 0))
    browser = push_service.subscribe()
    services.push_subscribe(user=member, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    with freeze_time(NIGHT, tick=True):
        assert not services.push_notify(user_id=member.pk, kind=PushKind.REMINDER, title="t", body="b", url="/")
        assert services.push_deliver.call(user_id=member.pk, payload="{}") == 0  # a late queue wakes nobody either
    assert browser.received == []


def test_a_kind_turned_off_is_not_pushed_and_the_others_are(
    member_client, member, push_service, django_capture_on_commit_callbacks
):
    browser = push_service.subscribe()
    _subscribe(member_client, browser)
    response = member_client.put("/api/push/preferences", {"reminder": False}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["message"] == services.MSG_PREFERENCES_SAVED
    assert (body["reminder"], body["waitlist_offer"], body["class_cancelled"], body["devices"]) == (
        False,
        True,
        True,
        1,
    )
    with freeze_time(AFTERNOON, tick=True), django_capture_on_commit_callbacks(execute=True):
        assert not services.push_notify(user_id=member.pk, kind=PushKind.REMINDER, title="t", body="b", url="/")
        assert services.push_notify(user_id=member.pk, kind=PushKind.CLASS_CANCELLED, title="t", body="b", url="/")
    assert [m["kind"] for m in push_service.messages(browser)] == ["class_cancelled"]


def test_preferences_say_whether_push_is_offered_and_the_public_key(member_client, vapid):
    body = member_client.get("/api/push/preferences").json()
    assert body == {
        "enabled": True,
        "public_key": vapid,
        "devices": 0,
        "waitlist_offer": True,
        "class_cancelled": True,
        "reminder": True,
    }


def test_without_vapid_keys_subscribing_is_refused_in_french(member_client, push_service, settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    response = _subscribe(member_client, push_service.subscribe())
    assert response.status_code == 409
    assert response.json()["message"] == services.MSG_PUSH_NOT_CONFIGURED
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"endpoint": "ftp://push.example/x", "keys": {"p256dh": "x", "auth": "y"}}, services.MSG_ENDPOINT_INVALID),
        ({"endpoint": "https://push.example/x", "keys": {"p256dh": "abc", "auth": "abc"}}, services.MSG_KEYS_INVALID),
        ({"endpoint": "https://push.example/x"}, services.MSG_KEYS_INVALID),
        ({"keys": {"p256dh": "abc", "auth": "abc"}}, services.MSG_ENDPOINT_INVALID),
    ],
)
def test_a_bad_subscription_is_refused_in_french_and_changes_nothing(member_client, vapid, payload, message):
    response = member_client.post("/api/push/subscriptions", payload, format="json")
    assert response.status_code == 400
    assert message in json.dumps(response.json(), ensure_ascii=False)
    assert not PushSubscription.objects.exists()


def test_plain_http_endpoints_are_refused_outside_the_tests(member_client, push_service, settings):
    settings.WEBPUSH_ALLOW_HTTP_ENDPOINTS = False
    response = _subscribe(member_client, push_service.subscribe())
    assert response.status_code == 400
    assert response.json()["message"] == services.MSG_ENDPOINT_INVALID


def test_a_switch_must_be_a_boolean(member_client):
    response = member_client.put("/api/push/preferences", {"reminder": "peut-être"}, format="json")
    assert response.status_code == 400
    assert MSG_SWITCH_INVALID in json.dumps(response.json(), ensure_ascii=False)


def test_unsubscribing_removes_only_the_members_own_browser(member_client, member, other_member, push_service):
    mine, theirs = push_service.subscribe(), push_service.subscribe()
    services.push_subscribe(user=member, endpoint=mine.endpoint, p256dh=mine.p256dh, auth=mine.auth)
    services.push_subscribe(user=other_member, endpoint=theirs.endpoint, p256dh=theirs.p256dh, auth=theirs.auth)
    response = member_client.post("/api/push/subscriptions/delete", {"endpoint": theirs.endpoint}, format="json")
    assert response.status_code == 404
    assert response.json()["message"] == services.MSG_SUBSCRIPTION_NOT_FOUND
    assert PushSubscription.objects.filter(endpoint=theirs.endpoint).exists()
    response = member_client.post("/api/push/subscriptions/delete", {"endpoint": mine.endpoint}, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == services.MSG_UNSUBSCRIBED
    assert not PushSubscription.objects.filter(endpoint=mine.endpoint).exists()


def test_anonymous_visitors_cannot_use_push(api_client):
    assert api_client.get("/api/push/preferences").status_code in (401, 403)
    assert api_client.post("/api/push/subscriptions", {}, format="json").status_code in (401, 403)


def test_an_erased_account_keeps_no_browser_nor_switch_and_is_pushed_nothing(
    api_client, member, staff, push_service, django_capture_on_commit_callbacks
):
    browser = push_service.subscribe()
    services.push_subscribe(user=member, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    services.push_preferences_set(user=member, reminder=False)
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(f"/api/users/{member.pk}/erase").status_code == 200
    assert not PushSubscription.objects.filter(user=member).exists()
    assert not services.PushPreferences.objects.filter(user=member).exists()
    with freeze_time(AFTERNOON, tick=True):
        assert services.push_deliver.call(user_id=member.pk, payload="{}") == 0


def test_a_tampered_vapid_signature_is_refused_by_the_push_service(push_service, settings):
    """The local push service is a true check: the same request with one signature byte changed is refused."""
    with freeze_time(AFTERNOON, tick=True):
        claims = {"sub": settings.WEBPUSH_VAPID_SUBJECT, "aud": push_service.origin, "exp": int(time.time()) + 3600}
        header = Vapid.from_string(private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY).sign(claims)["Authorization"]
        push_service.check_vapid(header)  # as signed: accepted
        token, key = header.split(",")
        tampered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
        with pytest.raises(PushRejected) as refused:
            push_service.check_vapid(f"{tampered},{key}")
    assert refused.value.status == 401


def test_the_profile_offers_push_settings_to_its_own_member_only(client, member, staff):
    client.force_login(member)
    assert 'data-island="push-settings"' in client.get("/user/profile").content.decode()
    client.force_login(staff)
    assert 'data-island="push-settings"' not in client.get(f"/user/profile/{member.pk}").content.decode()
