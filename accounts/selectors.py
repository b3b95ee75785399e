"""Account reads shared by pages and APIs."""

from django.db.models import Q, QuerySet
from django.templatetags.static import static

from .models import StaffAction, User

DEFAULT_AVATAR = "accounts/avatar-default.svg"
USER_ORDERINGS = {"last_name", "first_name", "email", "role", "date_joined", "city", "id"}
DEFAULT_USER_ORDERING = ("last_name", "first_name", "id")
MAX_SEARCH_WORDS = 5


def avatar_url(user: User) -> str:
    """The uploaded avatar, or the studio's default picture."""
    return avatar_url_of(user.avatar.name)


def avatar_url_of(name: str, *, default: str | None = None) -> str:
    """`avatar_url` from the stored file name (a list reads names, not users); `default`: the default picture's URL
    when the caller already has it."""
    if name:
        try:
            return User._meta.get_field("avatar").storage.url(name)
        except ValueError:
            pass
    return default if default is not None else static(DEFAULT_AVATAR)


def user_search_words(search: str = "") -> tuple[str, ...]:
    """The words the staff list searches for (each in the name or the e-mail), five at most."""
    return tuple((search or "").split()[:MAX_SEARCH_WORDS])


def user_ordering(ordering: str = "") -> tuple[str, ...]:
    """`ordering` is a comma-separated list of fields, each optionally prefixed with '-'; unknown fields are ignored,
    and the id ends the order so that it is stable across pages."""
    fields = []
    for part in (ordering or "").split(","):
        part = part.strip()
        if part.lstrip("-") in USER_ORDERINGS:
            fields.append(part)
    if not fields:
        return DEFAULT_USER_ORDERING
    if fields[-1].lstrip("-") != "id":
        fields.append("id")
    return tuple(fields)


def users_matching(words: tuple[str, ...] = (), order: tuple[str, ...] = DEFAULT_USER_ORDERING) -> QuerySet[User]:
    """Every account whose name or e-mail holds each of `words`, in `order` (user_search_words, user_ordering)."""
    queryset = User.objects.all()
    for word in words:
        queryset = queryset.filter(
            Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(email__icontains=word)
        )
    return queryset.order_by(*order)


def user_list(*, search: str = "", ordering: str = "") -> QuerySet[User]:
    """Every account for the staff list: searched by name or e-mail, sorted by the server."""
    return users_matching(user_search_words(search), user_ordering(ordering))


def user_get(*, user_id: int) -> User | None:
    return User.objects.filter(pk=user_id).first()


def staff_actions_of(*, member_id: int, limit: int = 50):
    """The newest lines of what staff did on this client's behalf, one query."""
    return list(StaffAction.objects.filter(member_id=member_id).order_by("-created_at", "-id")[:limit])
