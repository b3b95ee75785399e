"""The e-mail of a late cancellation made good (docs/decisions.md 44): the member's seat was taken again before the
class, or the studio cancelled the class, and what they had paid comes back."""

from django.utils import timezone

from studio.emails import send_templated_email

from .models_operations import LateCancellation

SUBJECT_LATE_CANCELLATION_RETURNED = "Place reprise : votre crédit pour {title} du {date} vous est rendu"


def send_late_cancellation_returned(*, late_cancellation_id: int, outcome: str, class_cancelled: bool = False) -> None:
    late = LateCancellation.objects.select_related("reservation__user", "session__course").get(pk=late_cancellation_id)
    reservation, session = late.reservation, late.session
    if not reservation.user.is_active:
        return
    start = timezone.localtime(session.start)
    send_templated_email(
        to=reservation.email or reservation.user.email,
        subject=SUBJECT_LATE_CANCELLATION_RETURNED.format(title=session.course.title, date=f"{start:%d/%m/%Y}"),
        template="bookings_late_cancellation_returned",
        context={
            "reservation": reservation,
            "session": session,
            "start": start,
            "outcome": outcome,
            "class_cancelled": class_cancelled,
        },
    )
