"""The permission classes every API declares on its view: staff, and owner-or-staff."""

from rest_framework.permissions import BasePermission


def is_studio_staff(user) -> bool:
    return bool(user and user.is_authenticated and user.is_studio_staff)


class IsStudioStaff(BasePermission):
    """Admins and supervisors (docs/decisions.md 11)."""

    message = "Accès réservé à l'équipe du studio."

    def has_permission(self, request, view):
        return is_studio_staff(request.user)


class IsOwnerOrStaff(BasePermission):
    """The object's member, or staff. Views name the owner with `owner_field` (default "user")."""

    message = "Vous n'avez pas accès à cette ressource."

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        if is_studio_staff(request.user):
            return True
        owner_field = getattr(view, "owner_field", "user")
        owner_id = obj.pk if owner_field == "self" else getattr(obj, f"{owner_field}_id", None)
        return owner_id == request.user.pk


class IsStudioStaffOrInstructor(IsStudioStaff):
    """Staff, or an instructor account (docs/decisions.md 11). The view then checks the object: an instructor reaches
    only the classes they teach (bookings.selectors.instructor). A kind of IsStudioStaff: every check that walks the
    staff APIs walks these too."""

    message = "Accès réservé à l'équipe du studio et aux professeurs."

    def has_permission(self, request, view):
        user = request.user
        return is_studio_staff(user) or bool(user and user.is_authenticated and getattr(user, "is_instructor", False))
