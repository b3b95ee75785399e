"""Subscriptions billed per period (docs/decisions.md 24–26), in one package: their models (models.py), writes
(services/), reads (selectors.py), scheduled jobs (tasks.py), APIs (apis/) and URLs (urls.py), and PayPal's
Subscriptions API client (paypal_client.py). Callers import each name from the module that defines it."""
