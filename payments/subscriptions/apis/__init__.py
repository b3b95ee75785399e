"""Subscription APIs: the member's and the staff's lists, "Payer maintenant" and the freeze (subscriptions.py),
buying one with PayPal and the reduced rate's proof (purchase.py), the staff's actions (actions.py)."""
