from django.conf import settings
from django.db import models
from django.utils import timezone


class ContactMessage(models.Model):
    """A message written through /contact, by a visitor or a member, and the conversation that follows it.

    Read state is kept per side: `staff_unread` is set when the visitor or member writes, cleared when staff open
    the message; `member_unread` is set when staff reply, cleared when the member opens it.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="contact_messages",
        verbose_name="membre",
    )
    name = models.CharField("nom", max_length=150)
    email = models.EmailField("email")
    phone = models.CharField("téléphone", max_length=30, blank=True)
    subject = models.CharField("sujet", max_length=200, blank=True)
    text = models.TextField("message")
    follow_up = models.BooleanField("souhaite être recontacté", default=False)
    created_at = models.DateTimeField("envoyé le", default=timezone.now, db_index=True)
    last_activity_at = models.DateTimeField("dernière activité", default=timezone.now, db_index=True)
    staff_unread = models.BooleanField("non lu par le studio", default=True)
    member_unread = models.BooleanField("non lu par le membre", default=False)

    class Meta:
        verbose_name = "message de contact"
        verbose_name_plural = "messages de contact"
        ordering = ["-last_activity_at", "-id"]
        indexes = [
            models.Index(fields=["user", "member_unread"], name="messaging_member_unread_idx"),
            models.Index(fields=["staff_unread"], name="messaging_staff_unread_idx"),
        ]

    def __str__(self):
        return f"{self.subject or 'Sans sujet'} – {self.name}"


class ReplyAuthorRole(models.TextChoices):
    STAFF = "staff", "Studio"
    MEMBER = "member", "Membre"


STAFF_AUTHOR_LABEL = "Admin"  # staff replies are signed 'Admin' in the member's messages


class ContactReply(models.Model):
    """One reply in a conversation, stored as its own row (docs/decisions.md 21)."""

    message = models.ForeignKey(
        ContactMessage, on_delete=models.CASCADE, related_name="replies", verbose_name="message"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="contact_replies",
        verbose_name="auteur",
    )
    author_role = models.CharField("rôle de l'auteur", max_length=10, choices=ReplyAuthorRole.choices)
    text = models.TextField("réponse")
    created_at = models.DateTimeField("envoyée le", default=timezone.now)

    class Meta:
        verbose_name = "réponse"
        verbose_name_plural = "réponses"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(author_role__in=ReplyAuthorRole.values), name="messaging_reply_role_valid"
            ),
        ]

    def __str__(self):
        return f"Réponse à {self.message_id} ({self.get_author_role_display()})"

    @property
    def author_label(self) -> str:
        if self.author_role == ReplyAuthorRole.STAFF:
            return STAFF_AUTHOR_LABEL
        return self.message.name
