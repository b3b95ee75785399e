"""The profile and a user's account (docs/decisions.md 4, 11 and 32). A member reaches only their own account; staff
reach everyone, and the services say who may change what. The staff's users list, with each member's no-shows, is
bookings' (bookings/apis/users.py)."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import JSON_OR_MULTIPART
from studio.schema import StudioAutoSchema

from .. import selectors
from ..models import User
from ..services.errors import AccountError
from ..services.profile import MSG_EMAIL_CHANGE_PENDING, MSG_PROFILE_UPDATED, user_update
from ..services.staff import MSG_USER_DELETED, user_delete
from .outputs import (
    MessageOutput,
    UserOutput,
    UserUpdateOutput,
)
from .user_inputs import ProfileInput


class ChangeNeedsBodySchema(StudioAutoSchema):
    """A profile change needs a body with one field at least (ProfileInput's `minProperties`): say it is required."""

    def _get_request_body(self, direction="request"):
        body = super()._get_request_body(direction)
        if body and self.method in ("PUT", "PATCH"):
            body["required"] = True
        return body


def _profile_update(request, user: User) -> Response:
    data = ProfileInput(data=request.data)
    data.is_valid(raise_exception=True)
    changes = data.changes()
    updated = user_update(
        actor=request.user,
        user=user,
        data=changes,
        avatar=data.validated_data.get("avatar"),
        remove_avatar=data.validated_data["remove_avatar"],
    )
    message = MSG_PROFILE_UPDATED
    if "email" in changes and updated.pending_email and updated.pending_email != user.pending_email:
        message = MSG_EMAIL_CHANGE_PENDING
    return Response(UserUpdateOutput(updated, context={"actor": request.user, "message": message}).data)


class ProfileApi(APIView):
    parser_classes = JSON_OR_MULTIPART  # multipart when an avatar is sent
    permission_classes = [IsAuthenticated]
    schema = ChangeNeedsBodySchema()

    @extend_schema(responses=UserOutput)
    def get(self, request):
        return Response(UserOutput(request.user).data)

    @extend_schema(request=ProfileInput, responses=UserUpdateOutput)
    def put(self, request):
        return _profile_update(request, request.user)

    @extend_schema(request=ProfileInput, responses=UserUpdateOutput)
    def patch(self, request):
        return _profile_update(request, request.user)


class UserDetailApi(APIView):
    """A member reaches only their own id; staff reach everyone (docs/decisions.md 4 and 11)."""

    parser_classes = JSON_OR_MULTIPART  # multipart when an avatar is sent

    permission_classes = [IsAuthenticated]
    schema = ChangeNeedsBodySchema()

    def _target(self, request, user_id: int) -> User:
        if request.user.pk == user_id:
            return request.user
        if not request.user.is_studio_staff:
            raise AccountError.of("profile_forbidden")
        target = selectors.user_get(user_id=user_id)
        if target is None:
            raise AccountError.of("user_not_found")
        return target

    @extend_schema(responses=UserOutput)
    def get(self, request, user_id):
        return Response(UserOutput(self._target(request, user_id), context={"actor": request.user}).data)

    @extend_schema(request=ProfileInput, responses=UserUpdateOutput)
    def put(self, request, user_id):
        return _profile_update(request, self._target(request, user_id))

    @extend_schema(request=ProfileInput, responses=UserUpdateOutput)
    def patch(self, request, user_id):
        return _profile_update(request, self._target(request, user_id))

    @extend_schema(responses={200: MessageOutput})
    def delete(self, request, user_id):
        if not request.user.is_studio_staff:
            raise AccountError.of("profile_forbidden")
        user_delete(actor=request.user, user=self._target(request, user_id))
        return Response(MessageOutput({"message": MSG_USER_DELETED}).data)
