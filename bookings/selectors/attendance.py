"""The attendance sheet of a session (docs/decisions.md 38): its confirmed bookings with participants, how each
was paid, the mark, and each member's no-shows; 2 queries whatever the number of bookings."""

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from courses.models import CourseSession

from ..models import PassKind, Reservation, ReservationStatus
from ..models_operations import Attendance, AttendanceStatus


def _payment_label(reservation: Reservation) -> str:
    attendance = getattr(reservation, "attendance", None)
    if reservation.paid_with_pass_id:
        pass_obj = reservation.paid_with_pass
        if pass_obj.kind == PassKind.SUBSCRIPTION:
            return f"Abonnement ({pass_obj.title})"
        return f"Carte de cours ({pass_obj.title}) : {reservation.credits_spent} crédit(s)"
    if reservation.desk_payment:  # booked by staff, paid at the desk or still to settle there
        return reservation.get_desk_payment_display()
    if attendance is not None and attendance.paid_at_desk:
        return "Payé à l'accueil"
    if reservation.total_amount == 0:
        return "Gratuit"
    return "Carte bancaire"


def _no_shows_of(member) -> Coalesce:
    """The absences ever marked for `member` (an OuterRef to the outer query's member): the no-shows on their
    record, 0 when none."""
    return Coalesce(
        Subquery(
            Attendance.objects.filter(reservation__user=member, status=AttendanceStatus.ABSENT)
            .values("reservation__user")
            .annotate(n=Count("pk"))
            .values("n")[:1]
        ),
        0,
    )


def no_shows_subquery():
    """Per member of the outer reservation (OuterRef user), their no-shows."""
    return _no_shows_of(OuterRef("user"))


def attendance_sheet(*, session: CourseSession) -> list[dict]:
    reservations = (
        Reservation.objects.filter(session=session, status=ReservationStatus.CONFIRMED)
        .select_related("paid_with_pass", "attendance")
        .annotate(no_shows=no_shows_subquery())
        .order_by("last_name", "first_name", "pk")
    )
    rows = []
    for reservation in reservations:
        attendance = getattr(reservation, "attendance", None)
        rows.append(
            {
                "reservation_id": reservation.pk,
                "user_id": reservation.user_id,
                "first_name": reservation.first_name,
                "last_name": reservation.last_name,
                "email": reservation.email,
                "participants": reservation.participants,
                "payment": _payment_label(reservation),
                "desk_payment": reservation.desk_payment,
                "status": reservation.status,
                "status_label": reservation.get_status_display(),
                "attendance": attendance.status if attendance else None,
                "walk_in": bool(attendance and attendance.walk_in),
                "no_shows": reservation.no_shows,
            }
        )
    return rows


def member_no_shows(*, user_id: int) -> int:
    return Attendance.objects.filter(reservation__user_id=user_id, status=AttendanceStatus.ABSENT).count()


def user_no_shows_annotation():
    """Per user (the outer query's row of accounts_user), their no-shows, as an annotation of the users list (its
    page stays one query whatever its size): bookings/apis/users.py."""
    return _no_shows_of(OuterRef("pk"))
