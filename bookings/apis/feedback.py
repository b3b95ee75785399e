"""Course feedback: a member's history and their feedback on one course. Typed input and output serializers; a
refused feedback propagates as a CourseFeedbackError (its code and status) to studio.api's exception handler."""

import json

from django.core.paginator import InvalidPage, Paginator
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import MSG_TEXT_TOO_LONG
from studio.errors import FORBIDDEN, NOT_FOUND
from studio.fields import DateTimeOutputField
from studio.permissions import is_studio_staff

from ..member_history import FollowedCourses, WrittenRow
from ..models import ReservationStatus
from ..services.feedback import (
    MSG_FEEDBACK_RATING_RANGE,
    MSG_FEEDBACK_REQUIRED,
    MSG_FEEDBACK_SAVED,
    CourseFeedbackError,
    course_feedback_save,
)
from ..services.sessions import MSG_COURSE_NOT_FOUND
from .common import FILLED, MSG_FEEDBACK_FORBIDDEN, _iso
from .pages import MAX_ID, PAGE_PARAMETERS, CheckedPagination, page_output

MSG_MEMBER_UNKNOWN = "Utilisateur introuvable."
MAX_FEEDBACK_COMMENT = 5000


class FeedbackHistoryPagination(CheckedPagination):
    page_size = 20

    def paginate_queryset(self, queryset, request, view=None):
        if isinstance(queryset, FollowedCourses):  # the count comes with the page's rows: one query
            queryset.expect_page(self.get_page_size(request), request.query_params.get(self.page_query_param) or 1)
        return super().paginate_queryset(queryset, request, view=view)


class HistoryPageRenderer(JSONRenderer):
    """JSONRenderer for a page whose rows come already written (member_history.WrittenRow): the page's
    bytes are the ones JSONRenderer writes for the same dicts (compact: the wrapper written with no rows, the rows'
    bytes joined by commas in its list). Asked indented (Accept: application/json; indent=N), or anything else, it
    is JSONRenderer itself."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        results = data.get("results") if isinstance(data, dict) else None
        if results and isinstance(results, list) and all(type(row) is WrittenRow for row in results):
            if self.get_indent(accepted_media_type, renderer_context or {}) is None and list(data)[-1] == "results":
                head = super().render({**data, "results": []}, accepted_media_type, renderer_context)
                return b"".join((head[:-3], b"[", b",".join(results), b"]}"))  # head ends with b'[]}'
            data = {**data, "results": [json.loads(row) for row in results]}
        return super().render(data, accepted_media_type, renderer_context)


class FollowedPaidWithPassOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    kind = serializers.CharField()


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
    cancel_deadline = DateTimeOutputField()
    can_cancel = serializers.BooleanField(help_text="annulable (confirmée, dans le délai) ou places retenues à libérer")
    total_amount = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="prix de la réservation, €")
    hold_expires_at = DateTimeOutputField(allow_null=True, help_text="places retenues jusqu'à (non payée)")
    can_pay = serializers.BooleanField(help_text="places retenues à payer (commande /api/paypal/create-order)")


FollowedCoursePageOutput = page_output("FollowedCoursePageOutput", FollowedCourseOutput)


# The query parameters the lean answer takes: the page, its size, and `t`, the cache-buster the island adds to every
# request (frontend/src/components/useApi.js `fresh`), which DRF ignores but keeps in the next and previous links.
_OWN_PAGE_PARAMETERS = frozenset(("page", "page_size", "t"))

# The Accept headers for which DRF's negotiation picks the JSON renderer with nothing to add (no indent).
_PLAIN_ACCEPT = frozenset(("", "*/*", "application/json"))


def _whole(text: str | None, default: int) -> int | None:
    """A query parameter that is a plain whole number (ASCII digits only), or `default` when absent; else None."""
    if text is None:
        return default
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


class CourseFeedbackUserApi(APIView):
    """GET /api/course-feedback/user/<id>?page=&page_size=: that member's followed sessions with their course
    feedback (self or staff), upcoming first then the most recent past, 20 a page.

    A member reading their own history through their session (/my-courses' island, the bench's request) is
    answered by `own_page` without DRF's request wrapper, authentication and negotiation (~0.17 ms of the
    request's ~0.58 ms in the view): the same bytes and headers, which tests compare with DRF's answer for the same
    requests. Anything else (a token, staff reading a member's, a page past the last, an odd parameter or Accept
    header, another method) goes through DRF's full path."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [HistoryPageRenderer]  # JSON as the default renderer writes it, rows already written
    lean = True  # whether `own_page` may answer (tests turn it off to compare with DRF)

    def dispatch(self, request, *args, **kwargs):
        if self.lean and request.method == "GET":
            response = self.own_page(request, kwargs.get("user_id"))
            if response is not None:
                return response
        return super().dispatch(request, *args, **kwargs)

    def own_page(self, request, user_id) -> HttpResponse | None:
        """The answer DRF would give to a member asking for a page of their own history through their session, or
        None when the request is not that simple case (DRF then answers it)."""
        meta = request.META
        if "HTTP_AUTHORIZATION" in meta or meta.get("HTTP_ACCEPT", "") not in _PLAIN_ACCEPT:
            return None  # a token (JWTAuthentication comes first), or a negotiation DRF should do
        query = request.GET
        if any(name not in _OWN_PAGE_PARAMETERS for name in query) or any(len(query.getlist(n)) > 1 for n in query):
            return None
        user = request.user  # SessionAuthentication's user: the session's, if active
        if not user.is_authenticated or not user.is_active or user.pk != user_id:
            return None
        pagination = FeedbackHistoryPagination()
        number = _whole(query.get(pagination.page_query_param), 1)
        size = _whole(query.get(pagination.page_size_query_param), pagination.page_size)
        if not number or not size or size > pagination.max_page_size:
            return None
        history = FollowedCourses(member_id=user.pk, now=timezone.now(), written=True)
        history.expect_page(size, number)
        try:  # Django's paginator, as DRF's pagination uses it: one query for the count and the page
            pagination.page = Paginator(history, size).page(number)
        except InvalidPage:
            return None  # past the last page: DRF's 404
        pagination.request = request  # its links read build_absolute_uri(), which Django's request has
        body = {
            "count": pagination.page.paginator.count,
            "next": pagination.get_next_link(),
            "previous": pagination.get_previous_link(),
            "results": list(pagination.page),
        }
        response = HttpResponse(HistoryPageRenderer().render(body), content_type="application/json")
        for name, value in self.default_response_headers.items():  # Allow, as DRF's finalize_response sets it
            response[name] = value
        return response

    @extend_schema(parameters=PAGE_PARAMETERS, responses=FollowedCoursePageOutput)
    def get(self, request, user_id: int):
        if user_id != request.user.pk and not is_studio_staff(request.user):
            raise CourseFeedbackError(MSG_FEEDBACK_FORBIDDEN, code="feedback_forbidden", status=FORBIDDEN)
        from accounts.models import User

        member = request.user if user_id == request.user.pk else None
        if member is None and user_id <= MAX_ID:
            member = User.objects.filter(pk=user_id).first()
        if member is None:
            raise CourseFeedbackError(MSG_MEMBER_UNKNOWN, code="member_not_found", status=NOT_FOUND)
        paginator = FeedbackHistoryPagination()
        # The rows are built as FollowedCourseOutput states them (tests compare every field): no serializer pass;
        # they come written as JSON (WrittenRow), which HistoryPageRenderer puts in the page as they are.
        history = FollowedCourses(member_id=member.pk, now=timezone.now(), written=True)
        rows = paginator.paginate_queryset(history, request, view=self)
        return paginator.get_paginated_response(rows)


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
    updated_at = serializers.DateTimeField(allow_null=True)


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
        body = {
            "message": MSG_FEEDBACK_SAVED,
            "feedback": {
                "id": feedback.pk,
                "course_id": feedback.course_id,
                "rating": feedback.rating,
                "comment": feedback.comment,
                "updated_at": _iso(feedback.updated_at),
            },
        }
        return Response(FeedbackSavedOutput(body).data)


FeedbackSerializer = FeedbackInput  # the old name, re-exported by bookings.apis
