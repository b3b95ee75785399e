"""The core's one table: the e-mail outbox (docs/decisions.md 41). Every e-mail is a row before it is a message."""

from django.db import models


class EmailStatus(models.TextChoices):
    PENDING = "PENDING", "À envoyer"
    SENDING = "SENDING", "En cours d'envoi"
    SENT = "SENT", "Envoyé"
    FAILED = "FAILED", "Non remis"


class OutgoingEmail(models.Model):
    """One rendered e-mail, recorded in the transaction of what it reports on and sent by a worker after the commit.

    `topic` and `topic_id` say what the mail is about (e.g. "payments.receipt" and an order's id), so that the app
    that sent it hears of the delivery through `studio.signals.email_delivered` without the core importing it.
    """

    template = models.CharField("modèle", max_length=100)
    subject = models.CharField("objet", max_length=255)
    from_email = models.CharField("expéditeur", max_length=255)
    to = models.JSONField("destinataires", default=list)
    reply_to = models.JSONField("répondre à", default=list, blank=True)
    body_text = models.TextField("texte")
    body_html = models.TextField("HTML", blank=True)
    attachments = models.JSONField("pièces jointes", default=list, blank=True)
    # Extra headers the mail carries, e.g. List-Unsubscribe (RFC 2369, RFC 8058): {"name": "value"}.
    headers = models.JSONField("en-têtes", default=dict, blank=True)
    topic = models.CharField("sujet technique", max_length=50, blank=True)
    topic_id = models.CharField("objet concerné", max_length=64, blank=True)

    status = models.CharField(
        "statut", max_length=10, choices=EmailStatus.choices, default=EmailStatus.PENDING, db_index=True
    )
    attempts = models.PositiveSmallIntegerField("tentatives", default=0)
    next_attempt_at = models.DateTimeField("prochaine tentative", null=True, blank=True)
    claimed_at = models.DateTimeField("pris en charge le", null=True, blank=True)
    sent_at = models.DateTimeField("envoyé le", null=True, blank=True)
    last_error = models.TextField("dernière erreur", blank=True)
    created_at = models.DateTimeField("créé le", auto_now_add=True)

    class Meta:
        verbose_name = "e-mail sortant"
        verbose_name_plural = "e-mails sortants"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outgoing_email_due")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=EmailStatus.values), name="outgoing_email_status_valid"
            ),
        ]

    def __str__(self):
        return f"{self.subject} → {', '.join(self.to)} ({self.get_status_display()})"
