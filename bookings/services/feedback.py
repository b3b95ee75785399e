"""Course feedback by members who followed the course; typed values from the API's serializer."""

from django.db import transaction
from django.utils import timezone

from studio.errors import FORBIDDEN

from ..models import (
    CourseFeedback,
    Reservation,
    ReservationStatus,
)
from .common import FeedbackError

# --- Feedback on a followed class: rating (1-5) and comment both required, French messages ---
MSG_FEEDBACK_REQUIRED = "Veuillez remplir tous les champs pour le feedback"
MSG_FEEDBACK_RATING_RANGE = "La note doit être comprise entre 1 et 5."
MSG_FEEDBACK_NOT_FOLLOWED = "Vous ne pouvez donner votre avis que sur un cours que vous avez suivi."
MSG_FEEDBACK_SAVED = "Feedback enregistré avec succès"


class CourseFeedbackError(FeedbackError):
    """A refused feedback: `CourseFeedbackError.of(code)` reads its French text and HTTP status from the tables."""

    default_code = "feedback_invalid"
    messages = {
        "feedback_required": MSG_FEEDBACK_REQUIRED,
        "feedback_rating_range": MSG_FEEDBACK_RATING_RANGE,
        # Only who followed the course may rate it: a right the member does not have (403), not a malformed request.
        "feedback_not_followed": MSG_FEEDBACK_NOT_FOLLOWED,
    }
    statuses = {"feedback_not_followed": FORBIDDEN}


@transaction.atomic
def course_feedback_save(*, user, course_id: int, rating: int | None, comment: str) -> CourseFeedback:
    """Create or change the member's feedback on a course they followed (a confirmed reservation on a past session)."""
    comment = (comment or "").strip()
    if rating is None or not comment or not course_id:
        raise CourseFeedbackError.of("feedback_required")
    if not 1 <= rating <= 5:
        raise CourseFeedbackError.of("feedback_rating_range", field="rating")
    followed = Reservation.objects.filter(
        user=user,
        session__course_id=course_id,
        status=ReservationStatus.CONFIRMED,
        session__start__lte=timezone.now(),
    ).exists()
    if not followed:
        raise CourseFeedbackError.of("feedback_not_followed")
    # update_or_create locks the row and, on a concurrent insert, retries the read (one row per member and course).
    feedback, _ = CourseFeedback.objects.update_or_create(
        user=user, course_id=course_id, defaults={"rating": rating, "comment": comment}
    )
    return feedback
