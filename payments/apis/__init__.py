"""Payment APIs under /api/paypal/ (docs/decisions.md 1), split by who calls them: the member's checkout, PayPal's
webhook, the staff's order list."""
