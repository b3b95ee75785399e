"""A member starts a conversation with the studio from /user/messages: a subject and a message, sent as
the logged-in member (their name and e-mail from the account, never from the payload). It is a contact message like
any other: the studio is told (capped per hour, docs/decisions.md 31), staff reply from the dashboard and the member is
e-mailed through the outbox."""

from typing import ClassVar

from .models import ContactMessage
from .services import MAX_MESSAGE_LENGTH, MessagingError, contact_message_create

MSG_CONVERSATION_SUBJECT_REQUIRED = "Indiquez le sujet de votre message."
MSG_CONVERSATION_TEXT_REQUIRED = "Écrivez votre message."
MSG_CONVERSATION_STARTED = "Message envoyé au studio. Vous recevrez un e-mail dès sa réponse."
MAX_SUBJECT_LENGTH = 200


class ConversationError(MessagingError):
    messages: ClassVar[dict[str, str]] = {
        **MessagingError.messages,
        "subject_required": MSG_CONVERSATION_SUBJECT_REQUIRED,
        "text_required": MSG_CONVERSATION_TEXT_REQUIRED,
    }


def conversation_start(*, member, subject: str, text: str) -> ContactMessage:
    subject, text = " ".join((subject or "").split()), (text or "").strip()
    if not subject:
        raise ConversationError.of("subject_required", field="subject")
    if not text:
        raise ConversationError.of("text_required", field="message")
    return contact_message_create(
        name=member.get_full_name() or member.email,
        email=member.email,
        phone=getattr(member, "phone", "") or "",
        subject=subject[:MAX_SUBJECT_LENGTH],
        text=text[:MAX_MESSAGE_LENGTH],
        user=member,
    )
