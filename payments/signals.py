"""Signals of payments. Higher apps (invoices) connect receivers that call their own services: payments never
imports them (README, "Layers"). Each is sent inside the transaction that made the change, under the changed row's
lock, so that what a receiver writes (an invoice and its number) commits or rolls back with the payment itself."""

from django.dispatch import Signal

# An order's money is kept: it became COMPLETED (capture, webhook, reconciliation, or staff recording a payment).
# Sent with `order_id` (the PaymentOrder's primary key). Sent again by a redelivery only if the order was not
# completed already; a receiver must still be idempotent. Also sent for a capture refused because the studio had
# just cancelled the class: that order is REFUND_PENDING with its `completed_at` set (paid, then refunded at once).
# `receipt=True` when the member's payment was captured: the receipt is owed, and the receiver that issues the invoice
# (invoices) sends it with the invoice attached, after the commit (payments/services/receipts.py renders it).
payment_completed = Signal()

# A completed order's money went back, or staff voided a completed payment (docs/decisions.md 33): sent with `order_id`
# (primary key) and `reason`. Also sent for a refund of money that bought nothing (never completed): a receiver
# ignores the orders it issued nothing for.
payment_refunded = Signal()

# A later period of a subscription was paid (the first one is paid by the purchase order): sent with `charge_id`. Its
# receipt is owed: the receiver that issues the invoice (invoices) sends it with the invoice attached, after the commit.
subscription_charge_paid = Signal()

# Staff cancelled a subscription with the refund of a paid period (the charge became REFUNDED): `charge_id`, `reason`.
subscription_charge_refunded = Signal()

# A verified Stripe webhook event that the one-off payments do not apply (setup_intent.*, mandate.updated, and
# payment_intent.* of a subscription's charge, whose metadata `purpose` is "subscription_charge"): sent once per event
# id, by the task that applies Stripe's events, outside any transaction, with `event` the typed record of
# payments/stripe_events.py. The subscriptions' receiver applies it.
stripe_event_received = Signal()
