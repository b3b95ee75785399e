"""Seat holds, reservations, passes (class cards, subscriptions), cancellations, sessions, feedback.

One module per domain; callers import each name from the module that defines it. The lock order every write follows
is documented in `locking.py`, with the helpers every writer uses to take its locks. Errors carry their code and HTTP
status (common.py's tables).
"""
