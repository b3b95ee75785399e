"""The pushes that go beside two e-mails (docs/decisions.md 53): a class the studio cancels at the last minute, and
the reminders. Each goes only to a member who turned that kind on, outside quiet hours (notifications decides);
the e-mail goes in any case."""

from datetime import timedelta

from django.utils import timezone

from notifications.models import PushKind
from notifications.services import push_notify

# A cancellation is "last minute" when the class starts within this time: a push is worth it, an e-mail may be read
# too late. An earlier cancellation is e-mailed only.
LAST_MINUTE_HOURS = 48
MY_COURSES_URL = "/my-courses"
PUSH_CLASS_CANCELLED_TITLE = "Cours annulé par le studio"
PUSH_CLASS_CANCELLED_BODY = "{course}, {day} à {time}, est annulé : {reason}"
PUSH_REMINDER_TITLE = "Rappel de cours"


def class_cancelled_push(*, session, user_ids, reason: str, now) -> None:
    if session.start - now > timedelta(hours=LAST_MINUTE_HOURS):
        return
    start = timezone.localtime(session.start)
    body = PUSH_CLASS_CANCELLED_BODY.format(
        course=session.course, day=f"{start:%d/%m}", time=f"{start:%H:%M}", reason=reason
    )
    for user_id in sorted(set(user_ids)):
        push_notify(
            user_id=user_id,
            kind=PushKind.CLASS_CANCELLED,
            title=PUSH_CLASS_CANCELLED_TITLE,
            body=body,
            url=MY_COURSES_URL,
        )


def reminder_push(*, user_id: int, text: str) -> None:
    """The reminder e-mail's subject, pushed."""
    push_notify(user_id=user_id, kind=PushKind.REMINDER, title=PUSH_REMINDER_TITLE, body=text, url=MY_COURSES_URL)
