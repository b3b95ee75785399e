from django.conf import settings


def studio(request):
    """The studio's identity (docs/decisions.md 20) and the shell's needs, on every page."""
    user = getattr(request, "user", None)
    return {
        "STUDIO": settings.STUDIO,
        "is_studio_staff": bool(user and user.is_authenticated and user.is_studio_staff),
    }
