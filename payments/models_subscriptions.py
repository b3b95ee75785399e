"""Subscriptions' logs and declarations, kept out of models.py to keep it short (imported there).

- SubscriptionAction: every staff action on a subscription (retry a charge, cancel with or without refund, end a
  reduced plan), with who and why.
- ReducedRateProof / ReducedRateDeclaration: a student or job-seeker rate is bought only with the member's
  confirmation of the status (and, optionally, a proof checked like every upload), kept with the purchase order.
"""

from django.conf import settings
from django.db import models

from media_library.private import private_storage


class SubscriptionActionKind(models.TextChoices):
    RETRY = "retry", "Échéance relancée"
    CANCEL = "cancel", "Annulé sans remboursement"
    CANCEL_REFUND = "cancel_refund", "Annulé avec remboursement de la période en cours"
    END_REDUCED = "end_reduced", "Tarif réduit terminé"


class SubscriptionAction(models.Model):
    subscription = models.ForeignKey(
        "payments.Subscription", on_delete=models.PROTECT, related_name="actions", verbose_name="abonnement"
    )
    kind = models.CharField("action", max_length=20, choices=SubscriptionActionKind.choices)
    reason = models.TextField("raison", blank=True)
    outcome = models.CharField("résultat", max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="par", null=True
    )
    created_at = models.DateTimeField("le", auto_now_add=True)

    class Meta:
        verbose_name = "action sur un abonnement"
        verbose_name_plural = "actions sur les abonnements"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=SubscriptionActionKind.values), name="subscription_action_kind_valid"
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} – {self.subscription_id}"


class ReducedStatus(models.TextChoices):
    STUDENT = "student", "Étudiant(e)"
    JOB_SEEKER = "job_seeker", "Demandeur(se) d'emploi"


class ReducedRateProof(models.Model):
    """A proof (student card, France Travail certificate) the member uploaded before paying: an image checked by its
    content and size (media_library.uploads), stored under a name the server makes. An identity document: kept on
    the private storage (no public address) and read only through the view that lets its member and staff in."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name="membre"
    )
    file = models.FileField("justificatif", max_length=255, upload_to="justificatifs/", storage=private_storage)
    uploaded_at = models.DateTimeField("envoyé le", auto_now_add=True)

    class Meta:
        verbose_name = "justificatif de tarif réduit"
        verbose_name_plural = "justificatifs de tarif réduit"

    def __str__(self):
        return f"Justificatif {self.pk} de {self.member_id}"


class ReducedRateDeclaration(models.Model):
    """The member confirmed, when buying a reduced rate, being a student or a job seeker. Staff may end the reduced
    plan (the member no longer qualifies): who, when and why."""

    order = models.OneToOneField(
        "payments.PaymentOrder",
        on_delete=models.PROTECT,
        related_name="reduced_declaration",
        verbose_name="commande d'achat",
    )
    status = models.CharField("statut déclaré", max_length=20, choices=ReducedStatus.choices)
    proof = models.ForeignKey(
        ReducedRateProof,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="justificatif",
    )
    confirmed_at = models.DateTimeField("confirmé le", auto_now_add=True)
    ended_at = models.DateTimeField("tarif réduit terminé le", null=True, blank=True)

    class Meta:
        verbose_name = "déclaration de tarif réduit"
        verbose_name_plural = "déclarations de tarif réduit"
        constraints = [
            models.CheckConstraint(condition=models.Q(status__in=ReducedStatus.values), name="reduced_status_valid")
        ]

    def __str__(self):
        return f"{self.get_status_display()} – commande {self.order_id}"
