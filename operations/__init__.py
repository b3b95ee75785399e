"""Running the site: backups and their restore, health checks for a monitor, error reports, alerts to the admins.

It sits just above the core (studio): it reads the outbox and the task queue, never another app's models; the staff
dashboard shows its banner through a template tag, so the core never imports it (docs/operations.md, "Health checks
and alerts")."""
