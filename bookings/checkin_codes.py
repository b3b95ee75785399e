"""QR check-in codes (docs/decisions.md 53 and 56): each confirmed booking carries a code, signed with the site's
secret, that names the booking and its class; the attendance sheet scans it (services/checkin.py) and marks the
member present. Below the services, so that the e-mails and the history draw a code.

The code is `<reservation id>.<session id>.<signature>`: nobody can make one up, and one class's code is refused on
another class's sheet or once the class is over. It opens nothing by itself: only the class's instructor or staff,
on that class's sheet, can turn it into a presence, so a code seen by someone else (a forwarded e-mail) is harmless.
"""

import io

import segno
from django.core import signing

from studio.errors import BAD_REQUEST, CONFLICT, ApplicationError

from .models import ReservationStatus

# The salt keeps these signatures apart from every other use of the secret key (a signed cookie, a reset link).
CHECKIN_SALT = "bookings.checkin"
MAX_CODE_LENGTH = 120

MSG_CHECKIN_FORGED = "Ce code QR n'est pas un code de réservation du studio."
MSG_CHECKIN_OTHER_CLASS = "Ce code QR est celui d'une réservation pour un autre cours : il n'est pas valable ici."
MSG_CHECKIN_CLASS_OVER = "Ce cours est terminé : les codes QR de ses réservations ne sont plus valables."
MSG_CHECKIN_NOT_CONFIRMED = (
    "Cette réservation n'est pas confirmée (annulée ou non payée) : son code QR n'est pas valable."
)
MSG_CHECKIN_PRESENT = "{name} est pointé(e) présent(e)."
MSG_CHECKIN_ALREADY_PRESENT = "{name} était déjà pointé(e) présent(e)."


class CheckinError(ApplicationError):
    """A refused QR code: forged (400), or a real one shown at the wrong class, too late, or for a dead booking."""

    messages = {
        "checkin_forged": MSG_CHECKIN_FORGED,
        "checkin_other_class": MSG_CHECKIN_OTHER_CLASS,
        "checkin_class_over": MSG_CHECKIN_CLASS_OVER,
        "checkin_not_confirmed": MSG_CHECKIN_NOT_CONFIRMED,
    }
    statuses = {
        "checkin_forged": BAD_REQUEST,
        "checkin_other_class": CONFLICT,
        "checkin_class_over": CONFLICT,
        "checkin_not_confirmed": CONFLICT,
    }


def _signer() -> signing.Signer:
    return signing.Signer(salt=CHECKIN_SALT, sep=".")


def checkin_code(*, reservation_id: int, session_id: int) -> str:
    """The booking's code: what its QR holds."""
    return _signer().sign(f"{reservation_id}.{session_id}")


def checkin_code_read(code: str) -> tuple[int, int]:
    """The (reservation id, session id) a code names; CheckinError "checkin_forged" if it is not one of ours."""
    code = (code or "").strip()
    try:
        if len(code) > MAX_CODE_LENGTH:
            raise signing.BadSignature
        reservation_id, session_id = (int(part) for part in _signer().unsign(code).split("."))
    except (signing.BadSignature, ValueError):
        raise CheckinError.of("checkin_forged", field="code") from None
    return reservation_id, session_id


def checkin_qr(code: str):
    """The QR symbol of a code (segno), for an SVG data URI on the page or a PNG in the e-mail."""
    return segno.make_qr(code, error="m")


def checkin_svg_data_uri(code: str) -> str:
    return checkin_qr(code).svg_data_uri(scale=4, border=2, dark="#1a1a1a")


def checkin_png(code: str) -> bytes:
    out = io.BytesIO()
    checkin_qr(code).save(out, kind="png", scale=6, border=2)
    return out.getvalue()


def reservation_checkin_code(reservation, *, now) -> str | None:
    """The code shown to the member: for a confirmed booking whose class is not over, else none."""
    if reservation.status != ReservationStatus.CONFIRMED or reservation.session.end <= now:
        return None
    return checkin_code(reservation_id=reservation.pk, session_id=reservation.session_id)


def reservation_checkin(reservation, *, now) -> dict | None:
    """What "Mes cours" shows (and keeps offline): the code and its QR as an SVG data URI, drawn here so the page
    needs no QR library; none when the booking has no code to show."""
    code = reservation_checkin_code(reservation, now=now)
    return None if code is None else {"code": code, "image": checkin_svg_data_uri(code)}
