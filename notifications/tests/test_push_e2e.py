"""Push on a 390 px phone (docs/decisions.md 53). Chromium cannot reach a push service in the tests, so the page's
`PushManager.subscribe` is stubbed to hand back a subscription of the local push service (its endpoint and keys):
everything after it is real. The member turns push on from the profile, keeps reminders off, a seat frees on a
waiting list, the worker pushes the offer (VAPID checked, aes128gcm decrypted by the local push service), and the
offer reaches the page's service worker, which shows it, and its "Accepter" action books the seat with the member's
pass."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.services import waitlist as wl
from bookings.services.cancellation import reservation_cancel
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory
from notifications.models import PushPreferences, PushSubscription
from notifications.services import MSG_PREFERENCES_SAVED, MSG_SUBSCRIBED

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STUB = """
(() => {
  const sub = %s;
  const subscription = { endpoint: sub.endpoint, toJSON: () => sub, unsubscribe: async () => true };
  let current = null;
  const pushManager = {
    getSubscription: async () => current,
    subscribe: async (options) => {
      const key = new Uint8Array(options.applicationServerKey);
      window.__applicationServerKey = btoa(String.fromCharCode(...key))
        .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
      current = subscription;
      return subscription;
    },
  };
  Object.defineProperty(navigator.serviceWorker, "getRegistration", { value: async () => ({ pushManager }) });
})();
"""


TAP_ACCEPT = """async () => {
  const [notification] = await self.registration.getNotifications();
  self.dispatchEvent(new NotificationEvent("notificationclick", { notification, action: "accept" }));
}"""

SHOWN = """() => self.registration.getNotifications().then((shown) => shown.map((n) => (
  { title: n.title, body: n.body, actions: n.actions.map((a) => a.action), data: n.data }
)))"""


def wait_for(page, read, tries=100):
    """`read()`'s first truthy answer, within 10 s; the page's own waits let Playwright hear the browser's events."""
    for _ in range(tries):
        found = read()
        if found:
            return found
        page.wait_for_timeout(100)
    raise AssertionError("not there after 10 s")


def worker_of(page, context):
    return wait_for(page, lambda: context.service_workers)[0]


def deliver_push(page, context, origin, payload):
    """Push `payload` to the page's service worker; returns the notification it showed."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    registrations = {}
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.update({r["scopeURL"]: r["registrationId"] for r in event["registrations"]}),
    )
    cdp.send("ServiceWorker.enable")
    registration = wait_for(page, lambda: registrations.get(origin + "/"))
    data = json.dumps(payload)
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": registration, "data": data})
    worker = worker_of(page, context)
    return wait_for(page, lambda: worker.evaluate(SHOWN))[0]


def test_push_on_a_phone_from_the_profile_to_a_seat_booked_from_the_offer(
    page, context, live_server, login_as, member, push_service
):
    page.set_viewport_size({"width": 390, "height": 844})
    context.grant_permissions(["notifications"], origin=live_server.url)
    browser = push_service.subscribe()
    page.add_init_script(STUB % json.dumps(browser.subscription_json()))
    login_as(member)

    page.goto(live_server.url + "/user/profile")
    settings_box = page.locator(".push-settings")
    expect(settings_box.get_by_role("heading", name="Notifications sur ce téléphone")).to_be_visible()
    settings_box.get_by_role("button", name="Activer les notifications sur cet appareil").click()
    expect(settings_box.get_by_role("status")).to_have_text(MSG_SUBSCRIBED)
    expect(settings_box.get_by_role("button", name="Désactiver les notifications sur cet appareil")).to_be_visible()
    assert page.evaluate("window.__applicationServerKey") == push_service.vapid_public_key
    assert PushSubscription.objects.get(user=member).endpoint == browser.endpoint
    settings_box.get_by_label("Rappels de mes cours").uncheck()
    expect(settings_box.get_by_role("status")).to_have_text(MSG_PREFERENCES_SAVED)
    assert PushPreferences.objects.get(user=member).reminder is False
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390

    start = timezone.localtime(timezone.now() + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=1)
    taken = ReservationFactory(session=session, user=UserFactory())
    card = PassFactory(member=member, credits_left=3)
    wl.waitlist_join(user=member, session_id=session.pk)
    reservation_cancel(user=taken.user, reservation_id=taken.pk)  # the worker pushes the offer

    assert push_service.rejected == []
    [offer] = push_service.messages(browser)
    assert offer["title"] == "Une place s'est libérée" and "Pole Flow" in offer["body"]
    # The offer reaches the page's real service worker (Chromium's DevTools protocol delivers it as the push
    # service would, after decryption), which shows it with its "Accepter" action; Chromium cannot tap a
    # notification, so the tap is the worker's own notificationclick event, with the notification it showed.
    shown = deliver_push(page, context, live_server.url, offer)
    assert shown["title"] == "Une place s'est libérée" and "Pole Flow" in shown["body"]
    assert shown["actions"] == ["accept"] and shown["data"]["accept"] == offer["accept"]
    worker_of(page, context).evaluate(TAP_ACCEPT)
    # The offer held the seat for her; the tap confirms it.
    confirmed = Reservation.objects.filter(session=session, user=member, status=ReservationStatus.CONFIRMED)
    booked = wait_for(page, confirmed.first)
    page.goto(live_server.url + "/my-courses")
    expect(page.get_by_text("Pole Flow").first).to_be_visible()
    assert (booked.status, booked.paid_with_pass_id) == (ReservationStatus.CONFIRMED, card.pk)
    assert Pass.objects.get(pk=card.pk).credits_left == 2
