from django.conf import settings
from django.db import models
from django.utils import timezone

from studio.quotes import QuotedRequest, QuotedRequestEvent, quoted_request_constraints


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


class RentalEventType(models.TextChoices):
    PRIVATE_EVENT = "Événement Privé", "Événement Privé"
    MEETING = "Réunion", "Réunion"
    BIRTHDAY = "Anniversaire", "Anniversaire"
    CLASS = "Cours", "Cours"


class RoomRentalRequest(QuotedRequest):
    """A room-rental request, stored and e-mailed to the studio (docs/decisions.md 17).

    A member's request has a status they follow (studio.quotes), a quote staff set (no price rule exists
    for the room), a deposit paid online and a history; a visitor's request (no account) is answered by e-mail.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rental_requests",
        verbose_name="membre",
    )
    name = models.CharField("nom", max_length=150)
    email = models.EmailField("email")
    phone = models.CharField("téléphone", max_length=10)
    event_type = models.CharField(
        "type d'événement", max_length=20, choices=RentalEventType.choices, default=RentalEventType.PRIVATE_EVENT
    )
    date = models.DateField("date")
    time = models.TimeField("heure")
    message = models.TextField("message", blank=True)
    created_at = models.DateTimeField("reçue le", default=timezone.now, db_index=True)

    class Meta:
        verbose_name = "demande de location"
        verbose_name_plural = "demandes de location"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(event_type__in=RentalEventType.values), name="messaging_rental_event_type_valid"
            ),
            *quoted_request_constraints("messaging_rental"),
        ]

    def __str__(self):
        return f"{self.event_type} – {self.name} ({self.date:%d/%m/%Y})"


class RentalRequestEvent(QuotedRequestEvent):
    """A line of a room-rental request's history."""

    rental = models.ForeignKey(
        RoomRentalRequest, on_delete=models.CASCADE, related_name="events", verbose_name="demande"
    )

    class Meta(QuotedRequestEvent.Meta):
        verbose_name = "étape d'une demande de location"
        verbose_name_plural = "étapes des demandes de location"
