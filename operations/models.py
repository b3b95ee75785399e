"""What the site knows of its own health: the background processes' heartbeats, the backups' runs, the open alerts."""

from django.db import models


class Heartbeat(models.Model):
    """The last sign of life of a background process: the scheduler's own tick, the worker's periodic task."""

    SCHEDULER = "scheduler"
    WORKER = "worker"

    name = models.CharField("processus", max_length=20, primary_key=True)
    beat_at = models.DateTimeField("dernier signe de vie")

    class Meta:
        verbose_name = "signe de vie"
        verbose_name_plural = "signes de vie"

    def __str__(self):
        return f"{self.name} : {self.beat_at:%Y-%m-%d %H:%M:%S}"


class BackupRun(models.Model):
    """One backup: the database, the uploads and the private uploads, written to the backup storage."""

    started_at = models.DateTimeField("commencée le", db_index=True)
    finished_at = models.DateTimeField("terminée le", null=True, blank=True)
    succeeded = models.BooleanField("réussie", default=False)
    files = models.JSONField("fichiers", default=list, blank=True)
    error = models.TextField("erreur", blank=True)

    class Meta:
        verbose_name = "sauvegarde"
        verbose_name_plural = "sauvegardes"
        ordering = ["-started_at", "-id"]

    def __str__(self):
        return f"Sauvegarde du {self.started_at:%Y-%m-%d %H:%M} ({'réussie' if self.succeeded else 'échouée'})"


class AlertKind(models.TextChoices):
    SCHEDULER = "scheduler", "Planificateur arrêté"
    WORKER = "worker", "Worker arrêté"
    BACKUP = "backup", "Sauvegarde manquante"


class Alert(models.Model):
    """A trouble the admins were told of; open until the trouble is gone. One open alert per kind."""

    kind = models.CharField("type", max_length=20, choices=AlertKind.choices)
    message = models.CharField("message", max_length=255)
    raised_at = models.DateTimeField("levée le")
    resolved_at = models.DateTimeField("résolue le", null=True, blank=True)

    class Meta:
        verbose_name = "alerte"
        verbose_name_plural = "alertes"
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind"], condition=models.Q(resolved_at__isnull=True), name="operations_one_open_alert_per_kind"
            ),
            models.CheckConstraint(condition=models.Q(kind__in=AlertKind.values), name="operations_alert_kind_valid"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.raised_at:%Y-%m-%d %H:%M})"
