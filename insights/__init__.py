"""The owner's figures: money, classes, members and the next 7 days, for the dashboard's "Vue
d'ensemble" and `GET /api/dashboard/stats`.

Read-only and without models (so not in INSTALLED_APPS: nothing for Django to load). It reads payments, bookings,
courses and accounts, so it sits above them all, just under `project` (.importlinter); nothing imports it but the
root URLs."""
