"""QR check-in (docs/decisions.md 58): the attendance sheet scans a booking's code (checkin_codes.py) and marks the
member present, under the attendance rules and locks (attendance.py)."""

from django.db import transaction
from django.utils import timezone

from courses.services.locking import lock_session

from ..checkin_codes import CheckinError, checkin_code_read
from ..models import Reservation, ReservationStatus
from ..models_operations import AttendanceStatus
from .attendance import AttendanceError, attendance_mark


@transaction.atomic
def checkin_scan(*, session_id: int, code: str, by) -> tuple[Reservation, bool]:
    """Mark present the booking a scanned code names, on the sheet of `session_id` (the caller checked that `by`
    reaches that sheet). Returns the reservation and whether it was already marked present.

    The code's class must be this one and not over; the booking must still be confirmed. The mark itself is
    `attendance_mark`'s, under its locks and its rules (sheet open, class not cancelled)."""
    reservation_id, code_session_id = checkin_code_read(code)
    if code_session_id != session_id:
        raise CheckinError.of("checkin_other_class", field="code")
    # The session's lock first, as every mark takes it: two phones scanning the same code at once are told in turn
    # "pointé(e)" then "déjà pointé(e)", from the mark the other one made.
    if lock_session(session_id) is None:
        raise AttendanceError.of("session_not_found")
    reservation = Reservation.objects.select_related("session", "attendance").filter(pk=reservation_id).first()
    if reservation is None or reservation.session_id != session_id:
        # A signed code names a booking of this class; only a booking deleted since (an erased account) is missing.
        raise CheckinError.of("checkin_not_confirmed", field="code")
    if reservation.session.end <= timezone.now():
        raise CheckinError.of("checkin_class_over", field="code")
    if reservation.status != ReservationStatus.CONFIRMED:
        raise CheckinError.of("checkin_not_confirmed", field="code")
    attendance = getattr(reservation, "attendance", None)
    already = attendance is not None and attendance.status == AttendanceStatus.PRESENT
    attendance_mark(session_id=session_id, reservation_id=reservation_id, present=True, by=by)
    return reservation, already
