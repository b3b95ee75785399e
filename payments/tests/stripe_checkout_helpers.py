"""What the tests of Stripe's one-off payments share (the fixtures `fake_stripe` and `stripe_settings` are in
conftest.py): an order opened for a held reservation, and webhook deliveries signed as Stripe signs them."""

import json
import time

from . import fake_stripe as fs
from .conftest import open_reservation_order

COMPLETE = "/api/stripe/complete-payment"
WEBHOOK = "/api/stripe/webhook"
CREATE = "/api/paypal/create-order"


def open_stripe_order(member, reservation):
    return open_reservation_order(member, reservation, provider="stripe")


def signed(event: dict, *, secret: str = fs.WEBHOOK_SECRET, timestamp: int | None = None) -> tuple[bytes, str]:
    payload = json.dumps(event)
    return payload.encode(), fs.sign(payload, secret=secret, timestamp=timestamp)


def post_event(client, event: dict, **signing):
    payload, signature = signed(event, **signing)
    return client.post(WEBHOOK, data=payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature)


def last_event(fake, event_type: str, intent_id: str) -> dict:
    """The newest event of that type Stripe sent about this PaymentIntent."""
    for event in reversed(fake.events):
        obj = event["data"]["object"]
        if event["type"] == event_type and intent_id in (obj.get("id"), obj.get("payment_intent")):
            return event
    raise AssertionError(f"no {event_type} for {intent_id}")


def old_timestamp() -> int:
    return int(time.time()) - 3600
