"""The gallery page and local serving of uploads."""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.views.static import serve

from studio.cache import cache_public_page

from .private import is_private_upload
from .selectors import gallery_columns

# What an empty column of the gallery says.
MSG_NO_PHOTOS = "Aucune photo disponible."
MSG_NO_VIDEOS = "Aucune vidéo disponible."
MSG_IMAGE_NOT_FOUND = "Image non trouvée"


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
            "no_photos": MSG_NO_PHOTOS,
            "no_videos": MSG_NO_VIDEOS,
            "image_not_found": MSG_IMAGE_NOT_FOUND,
        },
    )


def serve_upload(request, path):
    """Uploads on local disk, from the MEDIA_ROOT in force now (tests point it at a temporary folder). Identity
    documents once stored there are refused, as if absent, should a file have been left behind."""
    if is_private_upload(path):
        raise Http404
    return serve(request, path, document_root=settings.MEDIA_ROOT)
