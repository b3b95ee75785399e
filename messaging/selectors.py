"""Reads shared by the messaging pages and APIs, with their related rows already fetched."""

from django.db.models import Prefetch, QuerySet

from .models import ContactMessage, ContactReply

# Sort keys the staff lists accept (?ordering=key or -key); anything else falls back to the default.
CONTACT_MESSAGE_ORDERINGS = {"created_at", "last_activity_at", "name", "email", "subject"}


def _with_replies(qs: QuerySet) -> QuerySet:
    return qs.prefetch_related(Prefetch("replies", queryset=ContactReply.objects.order_by("created_at", "id")))


def _ordering(value: str | None, allowed: set[str], default: str) -> list[str]:
    value = (value or "").strip()
    if value.lstrip("-") in allowed:
        return [value, "-id" if value.startswith("-") else "id"]
    return [default, "-id"]


def contact_message_get(*, message_id: int) -> ContactMessage | None:
    return _with_replies(ContactMessage.objects.filter(pk=message_id)).first()


def contact_messages_of_user(*, user_id: int) -> QuerySet:
    """A member's conversations, latest activity first, each with its replies (2 queries)."""
    return _with_replies(ContactMessage.objects.filter(user_id=user_id).order_by("-last_activity_at", "-id"))


def contact_messages_for_staff(*, ordering: str | None = None, unread_only: bool = False) -> QuerySet:
    qs = ContactMessage.objects.all()
    if unread_only:
        qs = qs.filter(staff_unread=True)
    return _with_replies(qs.order_by(*_ordering(ordering, CONTACT_MESSAGE_ORDERINGS, "-last_activity_at")))


def unread_count_for_member(*, user) -> int:
    return ContactMessage.objects.filter(user=user, member_unread=True).count()


def unread_count_for_staff() -> int:
    return ContactMessage.objects.filter(staff_unread=True).count()


def unread_count_for(*, user) -> int:
    """What the account menu shows: for staff the messages waiting for the studio, for a member their own (one
    COUNT)."""
    if not (user and user.is_authenticated):
        return 0
    if user.is_studio_staff:
        return unread_count_for_staff()
    return unread_count_for_member(user=user)
