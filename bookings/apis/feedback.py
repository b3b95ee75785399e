"""Course feedback: a member's history and their feedback on one course. Typed input and output serializers; a
refused feedback propagates as a CourseFeedbackError (its code and status) to studio.api's exception handler."""

from django.contrib.auth import get_user_model
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.services.common import MSG_COURSE_NOT_FOUND
from studio.errors import FORBIDDEN, NOT_FOUND
from studio.fields import DateTimeOutputField
from studio.pagination import page_output
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import is_studio_staff

from ..member_history import followed_course, member_followed_reservations
from ..models import ReservationStatus
from ..services.feedback import (
    MSG_FEEDBACK_RATING_RANGE,
    MSG_FEEDBACK_REQUIRED,
    MSG_FEEDBACK_SAVED,
    CourseFeedbackError,
    course_feedback_save,
)
from .common import FILLED, MSG_FEEDBACK_FORBIDDEN
from .pages import MAX_ID, PAGE_PARAMETERS, CheckedPagination

MSG_MEMBER_UNKNOWN = "Utilisateur introuvable."
MAX_FEEDBACK_COMMENT = 5000


class FeedbackHistoryPagination(CheckedPagination):
    page_size = 20


class FollowedPaidWithPassOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    kind = serializers.CharField()


class FollowedCheckinOutput(serializers.Serializer):
    code = serializers.CharField(help_text="le texte signé que le QR contient")
    image = serializers.CharField(help_text="le QR en image SVG (URI data:), affichable hors connexion")


class FollowedCourseOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="l'id du cours")
    course_id = serializers.IntegerField()
    session_id = serializers.IntegerField()
    reservation_id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    level = serializers.CharField(allow_blank=True)
    date = DateTimeOutputField()
    end_date = DateTimeOutputField()
    instructor = serializers.CharField(allow_blank=True)
    participants = serializers.IntegerField()
    status = serializers.CharField(help_text=" | ".join(ReservationStatus.values))
    status_label = serializers.CharField()
    is_past = serializers.BooleanField()
    can_give_feedback = serializers.BooleanField()
    rating = serializers.IntegerField(allow_null=True, min_value=1, max_value=5)
    comment = serializers.CharField(allow_blank=True)
    paid_with_pass = FollowedPaidWithPassOutput(allow_null=True)
    credits_spent = serializers.IntegerField()
    desk_payment = serializers.CharField(
        help_text="Réservée par l'accueil : « due » à régler à l'accueil, « paid » payée à l'accueil, vide sinon."
    )
    cancel_deadline = DateTimeOutputField()
    free_cancellation_text = serializers.CharField(help_text="« Annulation gratuite jusqu'au … » (heure de Paris)")
    can_cancel = serializers.BooleanField(help_text="annulable (confirmée, cours à venir) ou places retenues à libérer")
    cancel_is_late = serializers.BooleanField(help_text="une annulation maintenant serait tardive")
    total_amount = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="prix de la réservation, €")
    hold_expires_at = DateTimeOutputField(allow_null=True, help_text="places retenues jusqu'à (non payée)")
    can_pay = serializers.BooleanField(help_text="places retenues à payer (commande /api/paypal/create-order)")
    checkin = FollowedCheckinOutput(
        allow_null=True, help_text="le QR à présenter à l'accueil : réservation confirmée d'un cours pas encore fini"
    )


FollowedCoursePageOutput = page_output("FollowedCoursePageOutput", FollowedCourseOutput)


class CourseFeedbackUserApi(APIView):
    """GET /api/course-feedback/user/<id>?page=&page_size=: that member's followed sessions with their course
    feedback (self or staff), upcoming first then the most recent past, 20 a page."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=PAGE_PARAMETERS, responses={200: FollowedCoursePageOutput})
    def get(self, request, user_id: int):
        if user_id != request.user.pk and not is_studio_staff(request.user):
            raise CourseFeedbackError(MSG_FEEDBACK_FORBIDDEN, code="feedback_forbidden", status=FORBIDDEN)
        member = request.user if user_id == request.user.pk else None
        if member is None and user_id <= MAX_ID:
            member = get_user_model().objects.filter(pk=user_id).first()
        if member is None:
            raise CourseFeedbackError(MSG_MEMBER_UNKNOWN, code="member_not_found", status=NOT_FOUND)
        now = timezone.now()
        paginator = FeedbackHistoryPagination()
        page = paginator.paginate_queryset(
            member_followed_reservations(member_id=member.pk, now=now), request, view=self
        )
        rows = [followed_course(reservation, now=now) for reservation in page]
        return Response(FollowedCoursePageOutput(paginator.page_body(rows)).data)


def _id_field(message: str, *, missing: str | None = None, **kwargs):
    """A positive database id; `message` when it is not one, `missing` when it is absent or null."""
    messages = {k: message for k in ("invalid", "min_value", "max_value", "max_string_length")}
    if missing:
        messages.update(required=missing, null=missing)
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, error_messages=messages, **kwargs)


class FeedbackInput(serializers.Serializer):
    user_id = _id_field(MSG_FEEDBACK_FORBIDDEN, required=False, allow_null=True, help_text="le membre connecté")
    course_id = _id_field(MSG_COURSE_NOT_FOUND, missing=MSG_FEEDBACK_REQUIRED)
    rating = serializers.IntegerField(
        min_value=1,
        max_value=5,
        error_messages={
            "required": MSG_FEEDBACK_REQUIRED,
            "null": MSG_FEEDBACK_REQUIRED,
            "invalid": MSG_FEEDBACK_RATING_RANGE,
            "min_value": MSG_FEEDBACK_RATING_RANGE,
            "max_value": MSG_FEEDBACK_RATING_RANGE,
            "max_string_length": MSG_FEEDBACK_RATING_RANGE,
        },
    )
    # Something to say: at least one character that is not a space.
    comment = serializers.RegexField(
        FILLED,
        max_length=MAX_FEEDBACK_COMMENT,
        error_messages={
            "required": MSG_FEEDBACK_REQUIRED,
            "null": MSG_FEEDBACK_REQUIRED,
            "blank": MSG_FEEDBACK_REQUIRED,
            "invalid": MSG_FEEDBACK_REQUIRED,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )


class FeedbackOutput(serializers.Serializer):
    id = serializers.IntegerField()
    course_id = serializers.IntegerField()
    rating = serializers.IntegerField(min_value=1, max_value=5)
    comment = serializers.CharField()
    updated_at = DateTimeOutputField(allow_null=True)


class FeedbackSavedOutput(serializers.Serializer):
    message = serializers.CharField()
    feedback = FeedbackOutput()


class CourseFeedbackApi(APIView):
    """POST /api/course-feedback {user_id, course_id, rating, comment}: create or change the member's own feedback.

    200 → {message: 'Feedback enregistré avec succès', feedback: {id, course_id, rating, comment, updated_at}}.
    """

    permission_classes = [IsAuthenticated]
    serializer_class = FeedbackInput

    @extend_schema(request=FeedbackInput, responses=FeedbackSavedOutput)
    def post(self, request):
        serializer = FeedbackInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user_id = data.get("user_id")
        if user_id is not None and user_id != request.user.pk:
            raise CourseFeedbackError(MSG_FEEDBACK_FORBIDDEN, code="feedback_forbidden", status=FORBIDDEN)
        feedback = course_feedback_save(
            user=request.user, course_id=data["course_id"], rating=data["rating"], comment=data["comment"]
        )
        return Response(FeedbackSavedOutput({"message": MSG_FEEDBACK_SAVED, "feedback": feedback}).data)
