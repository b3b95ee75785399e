"""Course feedback by members who followed the course."""

from django.db import transaction
from django.utils import timezone

from ..models import (
    CourseFeedback,
    Reservation,
    ReservationStatus,
)
from .common import FeedbackError
from .sessions import MSG_COURSE_NOT_FOUND

# --- Feedback (SPEC.md 2.19, 5, 8) ---
MSG_FEEDBACK_REQUIRED = "Veuillez remplir tous les champs pour le feedback"
MSG_FEEDBACK_RATING_RANGE = "La note doit être comprise entre 1 et 5."
MSG_FEEDBACK_NOT_FOLLOWED = "Vous ne pouvez donner votre avis que sur un cours que vous avez suivi."
MSG_FEEDBACK_SAVED = "Feedback enregistré avec succès"


@transaction.atomic
def course_feedback_save(*, user, course_id, rating, comment: str) -> CourseFeedback:
    """Create or change the member's feedback on a course they followed (a confirmed reservation on a past session)."""
    comment = (comment or "").strip()
    if rating in (None, "") or not comment or not course_id:
        raise FeedbackError(MSG_FEEDBACK_REQUIRED)
    try:
        rating = int(rating)
    except (TypeError, ValueError):
        raise FeedbackError(MSG_FEEDBACK_RATING_RANGE) from None
    if not 1 <= rating <= 5:
        raise FeedbackError(MSG_FEEDBACK_RATING_RANGE)
    try:
        course_id = int(course_id)
    except (TypeError, ValueError):
        raise FeedbackError(MSG_COURSE_NOT_FOUND) from None
    followed = Reservation.objects.filter(
        user=user,
        session__course_id=course_id,
        status=ReservationStatus.CONFIRMED,
        session__start__lte=timezone.now(),
    ).exists()
    if not followed:
        raise FeedbackError(MSG_FEEDBACK_NOT_FOLLOWED)
    # update_or_create locks the row and, on a concurrent insert, retries the read (one row per member and course).
    feedback, _ = CourseFeedback.objects.update_or_create(
        user=user, course_id=course_id, defaults={"rating": rating, "comment": comment}
    )
    return feedback
