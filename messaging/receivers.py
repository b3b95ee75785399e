"""The cached unread counts of the account menu (messaging.selectors.unread_count_for) are rebuilt when a
conversation is created, changed or deleted: the member's own count and the studio's."""

from studio.auth_cache import bump_member_data

from .selectors import STAFF_UNREAD_OWNER


def unread_counts_changed(message) -> None:
    bump_member_data(STAFF_UNREAD_OWNER)
    bump_member_data(message.user_id)


def contact_message_changed(sender, instance, **_kwargs) -> None:
    unread_counts_changed(instance)
