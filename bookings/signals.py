"""Signals of bookings. Higher apps (payments) connect receivers that call their own services: bookings never imports
them (README, "Layers")."""

from django.dispatch import Signal

# Sent once the studio cancelled a class (services/class_cancellation.py), after the commit, with `session_id` and
# `reservation_ids`: the reservations the cancellation itself cancelled (held or confirmed at the time). payments
# refunds in full, through the provider, the card payments that had confirmed them.
session_cancelled = Signal()
