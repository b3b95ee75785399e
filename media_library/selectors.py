"""Reads of the media library shared by pages, inclusion tags and APIs.

Lists are plain dicts, cached until public data changes (studio.cache); each list is one query when the cache is
cold and none when warm, whatever the number of items.
"""

from django.core.files.storage import default_storage

from studio.cache import cached_public

from .embeds import embed_url_for
from .models import Media, SliderImage, SlideshowImage


def _url(name: str) -> str:
    return default_storage.url(name) if name else ""


def _srcset(entries) -> str:
    return ", ".join(f"{_url(name)} {width}w" for width, name in entries)


def picture_of(*, name: str, width: int, height: int, renditions: dict) -> dict | None:
    """What a template needs for a responsive <picture>: fallback src, WebP/JPEG srcsets, intrinsic size."""
    if not name:
        return None
    jpeg = (renditions or {}).get("jpeg") or []
    webp = (renditions or {}).get("webp") or []
    largest_jpeg = jpeg[-1][1] if jpeg else name
    return {
        "src": _url(largest_jpeg),
        "original": _url(name),
        "width": width,
        "height": height,
        "srcset_jpeg": _srcset(jpeg),
        "srcset_webp": _srcset(webp),
    }


HERO_WIDTH = 960


def _rendition_url(renditions: dict | None, fmt: str, max_width: int) -> str:
    """The widest rendition of `fmt` no wider than `max_width`, or "" without one."""
    fitting = [name for width, name in (renditions or {}).get(fmt) or [] if width <= max_width]
    return _url(fitting[-1]) if fitting else ""


def slideshow_image_to_dict(slide: SlideshowImage) -> dict:
    return {
        "id": slide.pk,
        "image_url": _url(slide.image.name),
        "image_path": slide.image.name,
        "text_overlay": slide.text_overlay,
        "order": slide.order,
        "picture": picture_of(
            name=slide.image.name, width=slide.width, height=slide.height, renditions=slide.renditions
        ),
    }


def slider_image_to_dict(slider_image: SliderImage) -> dict:
    return {
        "id": slider_image.pk,
        "url": _url(slider_image.image.name),
        "image_path": slider_image.image.name,
        "alt_text": slider_image.alt_text,
        "description": slider_image.description,
        "picture": picture_of(
            name=slider_image.image.name,
            width=slider_image.width,
            height=slider_image.height,
            renditions=slider_image.renditions,
        ),
    }


def media_to_dict(media: Media) -> dict:
    is_photo_file = media.media_type == Media.MediaType.PHOTO and bool(media.file)
    picture_name = media.file.name if is_photo_file else media.poster.name
    return {
        "id": media.pk,
        "title": media.title,
        "description": media.description,
        "media_type": media.media_type,
        "file_path": media.file.name or None,
        "file_url": _url(media.file.name),
        "file_type": _video_content_type(media.file.name) if media.media_type == Media.MediaType.VIDEO else "",
        "external_url": media.external_url or None,
        "embed_url": embed_url_for(media.external_url),
        "poster_url": _url(media.poster.name),
        # The home page's hero shows the poster at most 960 px wide: its WebP rendition, a fifth of the original's
        # bytes, is what a phone waits for before its largest paint (docs/decisions.md 53).
        "poster_hero_url": _rendition_url(media.renditions, "webp", HERO_WIDTH) if media.poster else "",
        "home_background": media.home_background,
        "created_at": media.created_at.isoformat() if media.created_at else None,
        "picture": picture_of(name=picture_name, width=media.width, height=media.height, renditions=media.renditions),
    }


def _video_content_type(name: str) -> str:
    extension = name.rsplit(".", 1)[-1].lower() if name else ""
    return {"mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm"}.get(extension, "")


def slideshow_image_list() -> list[dict]:
    return cached_public(
        "media:slideshow", lambda: [slideshow_image_to_dict(slide) for slide in SlideshowImage.objects.all()]
    )


def slider_image_list() -> list[dict]:
    return cached_public("media:slider", lambda: [slider_image_to_dict(item) for item in SliderImage.objects.all()])


def media_list() -> list[dict]:
    return cached_public("media:media", lambda: [media_to_dict(media) for media in Media.objects.all()])


def gallery_columns() -> dict:
    """The gallery's two columns (photos and videos), from the same cached list as GET /api/media."""
    items = media_list()
    return {
        "photos": [item for item in items if item["media_type"] == Media.MediaType.PHOTO],
        "videos": [item for item in items if item["media_type"] == Media.MediaType.VIDEO],
    }


def home_background_video() -> dict | None:
    """The video file chosen for the home page's background, if any."""
    return next((item for item in media_list() if item["home_background"] and item["file_url"]), None)
