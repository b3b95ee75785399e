"""Writes of the messaging app: contact messages, replies and read state."""

import logging
from typing import ClassVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from studio.emails import send_templated_email
from studio.errors import NOT_FOUND, ApplicationError
from studio.ratelimit import staff_notification_recipients

from .models import ContactMessage, ContactReply, ReplyAuthorRole
from .selectors import contact_message_get

logger = logging.getLogger(__name__)

# Contact form.
MSG_CONTACT_SENT = "Message envoyé avec succès."
MSG_CONTACT_FAILED = "Erreur lors de l'envoi du message."
MSG_CONTACT_REQUIRED = "Le nom, l'email et le message sont obligatoires."

# Replies: a blank reply is refused.
MSG_REPLY_BLANK = "La réponse ne peut pas être vide."

# A conversation that does not exist (or no longer does).
MSG_MESSAGE_NOT_FOUND = "Message introuvable."

MAX_MESSAGE_LENGTH = 5000


class MessagingError(ApplicationError):
    """A refused contact message or reply (`field` may also be given positionally)."""

    default_code = "messaging_invalid"
    messages: ClassVar[dict[str, str]] = {
        "contact_required": MSG_CONTACT_REQUIRED,
        "reply_blank": MSG_REPLY_BLANK,
        "message_not_found": MSG_MESSAGE_NOT_FOUND,
    }
    statuses: ClassVar[dict[str, int]] = {"message_not_found": NOT_FOUND}

    def __init__(self, message: str, field: str | None = None, **kwargs):
        super().__init__(message, field=field, **kwargs)


def _send_safely(**kwargs) -> None:
    """A message is stored even when the mail server is down: log the failure, never lose the message."""
    try:
        send_templated_email(**kwargs)
    except Exception:  # noqa: BLE001 - any transport error
        logger.exception("Could not send messaging e-mail %s", kwargs.get("template"))


def _one_line(value: str) -> str:
    """Names and subjects end up in e-mail headers: no line breaks."""
    return " ".join((value or "").split())


def _staff_recipients() -> list[str]:
    return [settings.STAFF_NOTIFICATION_EMAIL]


def contact_message_create(
    *,
    name: str,
    email: str,
    text: str,
    phone: str = "",
    subject: str = "",
    follow_up: bool = False,
    user=None,
) -> ContactMessage:
    """Store a contact message and tell the studio. `user` is the logged-in member, never taken from the payload."""
    name, email, text = _one_line(name), (email or "").strip(), (text or "").strip()
    if not name or not email or not text:
        raise MessagingError.of("contact_required")
    member = user if user is not None and user.is_authenticated else None
    now = timezone.now()
    message = ContactMessage.objects.create(
        user=member,
        name=name,
        email=email,
        phone=(phone or "").strip(),
        subject=_one_line(subject),
        text=text[:MAX_MESSAGE_LENGTH],
        follow_up=bool(follow_up),
        created_at=now,
        last_activity_at=now,
        staff_unread=True,
    )
    recipients = staff_notification_recipients(_staff_recipients())  # docs/decisions.md 31: capped per hour
    if not recipients:
        return message
    _send_safely(
        to=recipients,
        subject=f"Nouveau message : {message.subject or 'sans sujet'}",
        template="messaging_contact_staff",
        context={"message": message, "staff_url": f"{settings.SITE_URL}/messages/{message.pk}"},
        reply_to=[message.email],
    )
    return message


def contact_reply_add(*, message_id: int, author, text: str) -> ContactMessage:
    """Append a reply to a conversation and tell the other side. The caller has checked owner-or-staff."""
    text = (text or "").strip()
    if not text:
        raise MessagingError.of("reply_blank", field="response_text")
    by_staff = bool(author.is_studio_staff)
    with transaction.atomic():
        message = (
            ContactMessage.objects.select_for_update(of=("self",)).select_related("user").filter(pk=message_id).first()
        )
        if message is None:
            raise MessagingError.of("message_not_found")
        now = timezone.now()
        ContactReply.objects.create(
            message=message,
            author=author,
            author_role=ReplyAuthorRole.STAFF if by_staff else ReplyAuthorRole.MEMBER,
            text=text[:MAX_MESSAGE_LENGTH],
            created_at=now,
        )
        message.last_activity_at = now
        if by_staff:
            message.member_unread = True
            message.staff_unread = False
        else:
            message.staff_unread = True
            message.member_unread = False
        message.save(update_fields=["last_activity_at", "member_unread", "staff_unread"])
    if by_staff:
        recipient = message.user.email if message.user else message.email
        _send_safely(
            to=[recipient],
            subject="Le studio a répondu à votre message",
            template="messaging_reply_member",
            context={
                "message": message,
                "reply_text": text,
                "thread_url": f"{settings.SITE_URL}/user/messages/{message.pk}" if message.user else "",
            },
        )
    else:
        _send_safely(
            to=_staff_recipients(),
            subject=f"Nouvelle réponse de {message.name}",
            template="messaging_reply_staff",
            context={
                "message": message,
                "reply_text": text,
                "staff_url": f"{settings.SITE_URL}/messages/{message.pk}",
            },
            reply_to=[message.email],
        )
    return message


def contact_message_mark_read(*, message: ContactMessage, reader) -> None:
    """Opening a conversation clears the reader's side of the unread flags (one UPDATE, only when needed)."""
    if reader.is_studio_staff:
        if message.staff_unread:
            ContactMessage.objects.filter(pk=message.pk).update(staff_unread=False)
            message.staff_unread = False
    elif message.user_id == reader.pk and message.member_unread:
        ContactMessage.objects.filter(pk=message.pk).update(member_unread=False)
        message.member_unread = False


def contact_message_delete(*, message_id: int) -> None:
    deleted, _ = ContactMessage.objects.filter(pk=message_id).delete()
    if not deleted:
        raise MessagingError.of("message_not_found")


def contact_message_get_or_404(*, message_id: int) -> ContactMessage:
    """The conversation with its replies, or a 404 `MessagingError`."""
    message = contact_message_get(message_id=message_id)
    if message is None:
        raise MessagingError.of("message_not_found")
    return message
