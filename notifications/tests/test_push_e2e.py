"""Push on a 390 px phone (docs/decisions.md 53). Chromium cannot reach a push service in the tests, so the page's
`PushManager.subscribe` is stubbed to hand back a subscription of the local push service (its endpoint and keys):
everything after it is real. The member turns push on from the profile, keeps reminders off, a seat frees on a
waiting list, the worker pushes the offer (VAPID checked, aes128gcm decrypted by the local push service), and the
"Accepter" action's request (what sw/push.js posts, its own vitest) books the seat with the member's pass."""

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
    answer = page.evaluate(
        """async (accept) => {
          const response = await fetch(accept.url, {
            method: "POST", headers: {"Content-Type": "application/json"}, credentials: "omit",
            body: JSON.stringify({token: accept.token}),
          });
          return response.json();
        }""",
        offer["accept"],
    )
    assert answer["booked"] is True
    page.goto(live_server.url + answer["url"])
    expect(page.get_by_text("Pole Flow").first).to_be_visible()
    booked = Reservation.objects.get(session=session, user=member)
    assert (booked.status, booked.paid_with_pass_id) == (ReservationStatus.CONFIRMED, card.pk)
    assert Pass.objects.get(pk=card.pk).credits_left == 2
