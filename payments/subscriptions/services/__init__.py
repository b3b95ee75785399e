"""Subscription writes, split by concern: the shared names and the periods' dates (common.py), charging
(charging.py), e-mails (emails.py), freezes and the daily run (lifecycle.py), staff actions (staff.py), and PayPal's
subscriptions (paypal.py, paypal_purchase.py, paypal_jobs.py). Callers import each name from its module."""
