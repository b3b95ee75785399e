"""The gallery page (SPEC.md 2.13) and local serving of uploads."""

from django.conf import settings
from django.shortcuts import render
from django.views.static import serve

from studio.cache import cache_public_page

from .selectors import gallery_columns


@cache_public_page
def gallery_page(request):
    columns = gallery_columns()
    return render(
        request,
        "media_library/gallery.html",
        {
            "page_title": "Galerie photos et vidéos",
            "page_description": "Photos et vidéos des cours de pole dance, cerceau aérien et cabaret du studio.",
            "photos": columns["photos"],
            "videos": columns["videos"],
        },
    )


def serve_upload(request, path):
    """Uploads on local disk, from the MEDIA_ROOT in force now (tests point it at a temporary folder)."""
    return serve(request, path, document_root=settings.MEDIA_ROOT)
