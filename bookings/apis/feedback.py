"""Course feedback: a member's history and their feedback on one course."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.pagination import StandardPagination
from studio.permissions import is_studio_staff

from .. import selectors, services
from .common import MSG_FEEDBACK_FORBIDDEN, _iso, _text


class FeedbackHistoryPagination(StandardPagination):
    page_size = 20


class CourseFeedbackUserApi(APIView):
    """GET /api/course-feedback/user/<id>?page=&page_size=: that member's followed sessions with their course
    feedback (self or staff), upcoming first then the most recent past, 20 a page.

    {count, next, previous, results: [{id (course id), course_id, session_id, reservation_id, title, description,
    level, date, end_date, instructor, participants, status, status_label, is_past, can_give_feedback, rating,
    comment, paid_with_pass, credits_spent, cancel_deadline, can_cancel}]}.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, user_id: int):
        if user_id != request.user.pk and not is_studio_staff(request.user):
            return error_response(MSG_FEEDBACK_FORBIDDEN, status.HTTP_403_FORBIDDEN)
        from accounts.models import User

        member = request.user if user_id == request.user.pk else User.objects.filter(pk=user_id).first()
        if member is None:
            return error_response("Utilisateur introuvable.", status.HTTP_404_NOT_FOUND)
        now = timezone.now()
        paginator = FeedbackHistoryPagination()
        page = paginator.paginate_queryset(selectors.member_followed_courses(user=member, now=now), request, view=self)
        return paginator.get_paginated_response(selectors.followed_course_rows(page, user=member, now=now))


class FeedbackSerializer(serializers.Serializer):
    user_id = serializers.JSONField(required=False, allow_null=True)
    course_id = serializers.JSONField(required=False, allow_null=True)
    rating = serializers.JSONField(required=False, allow_null=True)
    comment = _text()


class CourseFeedbackApi(APIView):
    """POST /api/course-feedback {user_id, course_id, rating, comment}: create or change the member's own feedback.

    200 → {message: 'Feedback enregistré avec succès', feedback: {id, course_id, rating, comment, updated_at}}.
    """

    permission_classes = [IsAuthenticated]
    serializer_class = FeedbackSerializer

    def post(self, request):
        serializer = FeedbackSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user_id = data.get("user_id")
        if user_id not in (None, "") and str(user_id) != str(request.user.pk):
            return error_response(MSG_FEEDBACK_FORBIDDEN, status.HTTP_403_FORBIDDEN)
        try:
            feedback = services.course_feedback_save(
                user=request.user,
                course_id=data.get("course_id"),
                rating=data.get("rating"),
                comment=data.get("comment") or "",
            )
        except services.ReservationError as exc:
            return error_response(exc.message)
        return Response(
            {
                "message": services.MSG_FEEDBACK_SAVED,
                "feedback": {
                    "id": feedback.pk,
                    "course_id": feedback.course_id,
                    "rating": feedback.rating,
                    "comment": feedback.comment,
                    "updated_at": _iso(feedback.updated_at),
                },
            }
        )
