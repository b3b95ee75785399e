"""The staff's users list with the no-shows on each member's record (docs/decisions.md 38): served by bookings, which
sees both the accounts and the attendance, as one query per page whatever its size."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from accounts.apis.clients import ClientCreateApi
from accounts.apis.outputs import UserOutput
from accounts.apis.user_inputs import UserListQuery
from accounts.selectors import user_list
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..selectors.attendance import user_no_shows_annotation


class StaffUserOutput(UserOutput):
    """A row of the staff's users list: the account and the no-shows on the member's record (docs/decisions.md 38)."""

    no_shows = serializers.IntegerField(
        read_only=True, default=0, help_text="Absences marquées à ses cours (docs/decisions.md 38)."
    )

    class Meta(UserOutput.Meta):
        fields = [*UserOutput.Meta.fields, "no_shows"]


class UserPageOutput(serializers.Serializer):
    count = serializers.IntegerField(min_value=0)
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StaffUserOutput(many=True)


class UserListApi(ClientCreateApi):
    """Staff list: ?search= (name or e-mail), ?ordering= (e.g. -date_joined,last_name), ?page=, ?page_size=. The
    same path's `POST` creates a client at the desk: accounts' view, whose `post` this one inherits."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="users_list",
        parameters=[UserListQuery],
        responses={200: UserPageOutput, 404: OpenApiResponse(ErrorOutput, description="Page au-delà de la liste.")},
    )
    def get(self, request):
        query = UserListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        users = user_list(search=query.validated_data["search"], ordering=query.validated_data["ordering"]).annotate(
            no_shows=user_no_shows_annotation()  # a subquery of the page's own query
        )
        paginator = StandardPagination()
        page = paginator.paginate_queryset(users, request, view=self)  # the count, then the page
        return Response(UserPageOutput(paginator.page_body(page), context={"actor": request.user}).data)
