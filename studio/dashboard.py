"""The staff back office page (SPEC.md 2.21): one island, the address selects the section."""

from django.shortcuts import render

from .decorators import staff_required_page


@staff_required_page
def dashboard(request, section="users"):
    return render(
        request,
        "dashboard/dashboard.html",
        {"page_title": "Tableau de bord", "section": section},
    )
