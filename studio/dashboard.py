"""The staff back office page (/admin/dashboard and its sections): one island, the address selects the section."""

from django.shortcuts import render
from django.urls import reverse

from .decorators import staff_required_page

PAGE_TITLE = "Tableau de bord"


def dashboard_props(user) -> dict:
    """What the island needs to know about the viewer: its role decides what the browser offers
    (the APIs enforce docs/decisions.md 11 on their own)."""
    return {
        "user": {"id": user.pk, "role": user.role, "name": user.get_full_name()},
        # The Django admin stays available to admins (operators).
        "djangoAdminUrl": reverse("admin:index") if user.is_admin else "",
    }


@staff_required_page
def dashboard(request, section="overview"):
    return render(
        request,
        "dashboard/dashboard.html",
        {"page_title": PAGE_TITLE, "section": section, "dashboard_props": dashboard_props(request.user)},
    )
