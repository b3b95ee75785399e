"""Signals of the core. Higher apps connect receivers that call their own services
(docs/architecture.md, "Apps and layers")."""

from django.dispatch import Signal

# Sent by the e-mail worker once an OutgoingEmail has really left, with `email` (the row). Receivers filter on
# `email.topic`; payments records an order's receipt as sent.
email_delivered = Signal()
