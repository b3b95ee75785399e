"""Contact-message and room-rental APIs (docs/decisions.md 17, 21). Thin: parse, call a service, shape.

An invalid payload answers 400 with the form's French message (`MSG_CONTACT_FAILED`, `MSG_REPLY_BLANK`,
`MSG_RENTAL_REQUIRED`) and the messages per field; a refused write is a `MessagingError` answered by the shared
exception handler (404 for a message that does not exist): no view catches it.

Split by domain: `serializers` (inputs and answers), `common` (what the views share), `contact` and
`rental` (the views). The old names stay importable from `messaging.apis`.
"""

from .common import PAGE_NOT_FOUND, IsUrlUserOrStaff
from .contact import (
    ContactMessageDetailApi,
    ContactMessageListCreateApi,
    ContactMessageReplyApi,
    ContactMessagesOfUserApi,
    UnreadCountApi,
)
from .rental import RentalRequestListCreateApi
from .serializers import (
    PHONE_PATTERN,
    ContactMessageInput,
    ContactMessageListQuery,
    ContactMessageOutput,
    ContactMessagePageOutput,
    ContactSentOutput,
    RentalRequestInput,
    RentalRequestOutput,
    RentalRequestPageOutput,
    RepliesOutput,
    ReplyInput,
    ReplyOutput,
    StaffListQuery,
    TextField,
    UnreadCountOutput,
    message_data,
    rental_data,
    reply_data,
)

__all__ = [
    "PAGE_NOT_FOUND",
    "PHONE_PATTERN",
    "ContactMessageDetailApi",
    "ContactMessageInput",
    "ContactMessageListCreateApi",
    "ContactMessageListQuery",
    "ContactMessageOutput",
    "ContactMessagePageOutput",
    "ContactMessageReplyApi",
    "ContactMessagesOfUserApi",
    "ContactSentOutput",
    "IsUrlUserOrStaff",
    "RentalRequestInput",
    "RentalRequestListCreateApi",
    "RentalRequestOutput",
    "RentalRequestPageOutput",
    "RepliesOutput",
    "ReplyInput",
    "ReplyOutput",
    "StaffListQuery",
    "TextField",
    "UnreadCountApi",
    "UnreadCountOutput",
    "message_data",
    "rental_data",
    "reply_data",
]
