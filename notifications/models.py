"""A member's Web Push subscriptions and which kinds of push they want (docs/decisions.md 53).

E-mail stays for every kind: these switches only add or remove the push beside it."""

from django.conf import settings
from django.db import models


class PushKind(models.TextChoices):
    WAITLIST_OFFER = "waitlist_offer", "Place libérée sur une liste d'attente"
    CLASS_CANCELLED = "class_cancelled", "Cours annulé par le studio à la dernière minute"
    REMINDER = "reminder", "Rappel de cours"


class PushSubscription(models.Model):
    """One browser's subscription (the push service's endpoint and the keys RFC 8291 encrypts for)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Abonnement push de {self.user_id}"


class PushPreferences(models.Model):
    """Which kinds a member gets pushed; every kind is on until they turn it off (no row: the defaults)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preferences")
    waitlist_offer = models.BooleanField(default=True)
    class_cancelled = models.BooleanField(default=True)
    reminder = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"Préférences push de {self.user_id}"
