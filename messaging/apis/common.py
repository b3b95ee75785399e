"""What the messaging views share: reading a query or a payload, the paginated answer, who may read a member's
list."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework.permissions import BasePermission

from studio.pagination import StandardPagination
from studio.permissions import is_studio_staff
from studio.schema import ErrorOutput

from .. import services


def _query(serializer_class, request) -> dict:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data


def _valid(serializer, *, message: str, code: str) -> dict:
    """The validated payload, or a 400 with the form's French message and the messages per field."""
    if not serializer.is_valid():
        raise services.MessagingError(message, code=code, extra={"errors": serializer.errors})
    return serializer.validated_data


# --- Permissions ------------------------------------------------------------------------------------------


class IsUrlUserOrStaff(BasePermission):
    """`/user/<userId>` lists: the member themself, or staff."""

    message = "Vous n'avez pas accès à ces messages."

    def has_permission(self, request, view):
        user = request.user
        if not (user and user.is_authenticated):
            return False
        return is_studio_staff(user) or view.kwargs.get("user_id") == user.pk


def _paginated(request, view, queryset, shape):
    paginator = StandardPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.page_body([shape(item) for item in page])


PAGE_NOT_FOUND = {404: OpenApiResponse(ErrorOutput, description="Page au-delà de la dernière.")}
