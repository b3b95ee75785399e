"""Account reads shared by pages and APIs."""

from django.db.models import Q, QuerySet
from django.templatetags.static import static

from .models import User

DEFAULT_AVATAR = "accounts/avatar-default.svg"
USER_ORDERINGS = {"last_name", "first_name", "email", "role", "date_joined", "city", "id"}
DEFAULT_USER_ORDERING = ("last_name", "first_name", "id")


def avatar_url(user: User) -> str:
    """The uploaded avatar, or the studio's default picture."""
    if user.avatar:
        try:
            return user.avatar.url
        except ValueError:
            pass
    return static(DEFAULT_AVATAR)


def user_list(*, search: str = "", ordering: str = "") -> QuerySet[User]:
    """Every account for the staff list: searched by name or e-mail, sorted by the server.

    `ordering` is a comma-separated list of fields, each optionally prefixed with '-'; unknown fields are ignored."""
    queryset = User.objects.all()
    for word in (search or "").split()[:5]:
        queryset = queryset.filter(
            Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(email__icontains=word)
        )
    fields = []
    for part in (ordering or "").split(","):
        part = part.strip()
        if part.lstrip("-") in USER_ORDERINGS:
            fields.append(part)
    if not fields:
        fields = list(DEFAULT_USER_ORDERING)
    elif fields[-1].lstrip("-") != "id":
        fields.append("id")  # a stable order across pages
    return queryset.order_by(*fields)


def user_get(*, user_id: int) -> User | None:
    return User.objects.filter(pk=user_id).first()
