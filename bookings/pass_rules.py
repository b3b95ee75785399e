"""What limits booking with a pass beyond its dates and credits (docs/decisions.md 25–26), on the bookings side.

Payments sets these through `bookings.services.pass_rules` (bookings never imports payments): a weekly cap of classes
(Monday–Sunday, Europe/Paris; 0 = unlimited), and the day from which the pass books nothing new because a period of
its subscription is unpaid for 7 days. Both are read by the booking-with-pass path under the pass's row lock.

The model lives in its own module (imported by BookingsConfig.ready) so that this feature stays additive.
"""

from django.db import models


class PassRule(models.Model):
    pass_ref = models.OneToOneField(
        "bookings.Pass", on_delete=models.CASCADE, related_name="rule", verbose_name="carte ou abonnement"
    )
    weekly_cap = models.PositiveSmallIntegerField(
        "cours par semaine", default=0, help_text="Nombre de cours par semaine (lundi–dimanche), 0 = illimité."
    )
    blocked_from = models.DateField(
        "ne réserve plus rien à partir du", null=True, blank=True, help_text="Échéance impayée depuis 7 jours."
    )
    # A freeze (injury…): no session on these days can be booked with the pass (its end moved by as much).
    frozen_from = models.DateField("gelé du", null=True, blank=True)
    frozen_until = models.DateField("gelé jusqu'au (inclus)", null=True, blank=True)
    updated_at = models.DateTimeField("modifiée le", auto_now=True)

    class Meta:
        app_label = "bookings"
        verbose_name = "règle de réservation d'un abonnement"
        verbose_name_plural = "règles de réservation des abonnements"

    def __str__(self):
        return f"Règles de {self.pass_ref_id} (cap {self.weekly_cap}, bloqué {self.blocked_from})"
