"""Substitute requests (docs/decisions.md 52): an instructor asks another to teach one of their classes."""

from django.db import models


class SubstituteStatus(models.TextChoices):
    OPEN = "open", "En attente d'un remplaçant"
    ACCEPTED = "accepted", "Remplacement accepté"
    WITHDRAWN = "withdrawn", "Demande retirée"


class SubstituteRequest(models.Model):
    """One ask for a substitute on a class. Changed only under its session's row lock (docs/architecture.md, lock 5),
    so that of two instructors accepting at once the first wins and the other hears it is taken."""

    session = models.ForeignKey(
        "courses.CourseSession", on_delete=models.CASCADE, related_name="substitute_requests", verbose_name="cours"
    )
    requested_by = models.ForeignKey(
        "courses.Instructor", on_delete=models.PROTECT, related_name="+", verbose_name="demandé par"
    )
    message = models.TextField("message", blank=True)
    status = models.CharField(
        "statut", max_length=20, choices=SubstituteStatus.choices, default=SubstituteStatus.OPEN, db_index=True
    )
    accepted_by = models.ForeignKey(
        "courses.Instructor",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="remplacé par",
    )
    created_at = models.DateTimeField("demandé le", auto_now_add=True)
    closed_at = models.DateTimeField("clos le", null=True, blank=True)
    # Set when the booked members and staff were told of the acceptance: the task tells them once.
    notified_at = models.DateTimeField("inscrits prévenus le", null=True, blank=True)
    # Set when staff were told nobody had accepted 48 h before the class: they are told once.
    staff_alerted_at = models.DateTimeField("équipe alertée le", null=True, blank=True)

    class Meta:
        verbose_name = "demande de remplacement"
        verbose_name_plural = "demandes de remplacement"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(status="open"),
                name="substitute_one_open_request_per_session",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=SubstituteStatus.values), name="substitute_status_valid"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="accepted") | models.Q(accepted_by__isnull=False),
                name="substitute_accepted_names_who",
            ),
        ]

    def __str__(self):
        return f"Remplacement {self.session_id} ({self.get_status_display()})"
