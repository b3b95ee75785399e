"""Writes of the media library: slideshow images, slider images and gallery media.

Every upload is checked by `media_library.uploads` before anything is stored; a refused upload changes nothing.
Files are written first and removed again if the database write fails; files a change replaces are removed once the
transaction commits.
"""

from typing import ClassVar

from django.db import transaction

from studio.errors import CONFLICT, ApplicationError

from .embeds import embed_url_for
from .fields import WEB_URL
from .images import delete_files, rendition_names, store_file, store_picture, store_slideshow_picture
from .models import Media, SliderImage, SlideshowImage
from .uploads import (
    IMAGE_FORMATS,
    IMAGE_FORMATS_WEBP,
    MSG_IMAGE_TYPES_WEBP,
    MSG_MEDIA_TYPES,
    UploadRejected,
    check_image,
    check_video,
    sniff_kind,
)

# The dashboard forms' messages for a missing image or text.
MSG_SLIDER_REQUIRED = "Veuillez sélectionner une image et fournir un texte alternatif."
MSG_SLIDESHOW_REQUIRED = "Veuillez sélectionner une image."
MSG_MEDIA_REQUIRED = "Veuillez ajouter un titre et un fichier ou une URL."
MSG_MEDIA_URL_INVALID = "L'URL doit commencer par http:// ou https://."
MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE = "La vidéo de fond de l'accueil doit être un fichier vidéo."
# A multipart body that carries no field at all (not even an unknown one): nothing a form sends.
MSG_FORM_EMPTY = "Le formulaire envoyé ne contient aucun champ."


class MediaError(ApplicationError):
    """A refused media-library write; `.message` is the French text to show (a 400 through the API)."""

    default_code = "media_invalid"
    messages: ClassVar[dict[str, str]] = {
        "slider_required": MSG_SLIDER_REQUIRED,
        "slideshow_required": MSG_SLIDESHOW_REQUIRED,
        "media_required": MSG_MEDIA_REQUIRED,
        "media_url_invalid": MSG_MEDIA_URL_INVALID,
        "home_background_needs_video_file": MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE,
        "form_empty": MSG_FORM_EMPTY,
    }


def _clean(text) -> str:
    return (text or "").strip()


def _after_commit_delete(names) -> None:
    names = [name for name in names if name]
    if names:
        transaction.on_commit(lambda: delete_files(names))


def _save_or_cleanup(instance, written: list[str]):
    try:
        with transaction.atomic():
            # The files were checked by their bytes, the URL by _check_url (not Django's stricter URLValidator).
            instance.full_clean(exclude=["image", "file", "poster", "external_url"])
            instance.save()
    except Exception:
        delete_files(written)
        raise
    return instance


# --- Slideshow -----------------------------------------------------------------------------------------------


def _check_slideshow_image(image):
    return check_image(image, formats=IMAGE_FORMATS_WEBP, type_message=MSG_IMAGE_TYPES_WEBP)


def slideshow_image_create(*, image, text_overlay: str = "", order: int | None = None) -> SlideshowImage:
    if not image:
        raise MediaError.of("slideshow_required", field="image")
    stored = store_slideshow_picture(_check_slideshow_image(image))
    if order is None:
        last = SlideshowImage.objects.order_by("-order").values_list("order", flat=True).first()
        order = 0 if last is None else last + 1
    slide = SlideshowImage(
        image=stored.name,
        width=stored.width,
        height=stored.height,
        renditions=stored.renditions,
        text_overlay=_clean(text_overlay),
        order=order,
    )
    return _save_or_cleanup(slide, stored.names)


def slideshow_image_update(
    *, slideshow_image: SlideshowImage, image=None, text_overlay: str | None = None, order: int | None = None
) -> SlideshowImage:
    stored = store_slideshow_picture(_check_slideshow_image(image)) if image else None
    replaced = []
    if stored:
        replaced = [slideshow_image.image.name, *rendition_names(slideshow_image.renditions)]
        slideshow_image.image = stored.name
        slideshow_image.width, slideshow_image.height = stored.width, stored.height
        slideshow_image.renditions = stored.renditions
    if text_overlay is not None:
        slideshow_image.text_overlay = _clean(text_overlay)
    if order is not None:
        slideshow_image.order = order
    _save_or_cleanup(slideshow_image, stored.names if stored else [])
    _after_commit_delete(replaced)
    return slideshow_image


def slideshow_image_delete(*, slideshow_image: SlideshowImage) -> None:
    names = [slideshow_image.image.name, *rendition_names(slideshow_image.renditions)]
    slideshow_image.delete()
    _after_commit_delete(names)


# --- Slider --------------------------------------------------------------------------------------------------


def slider_image_create(*, image, alt_text: str, description: str = "") -> SliderImage:
    if not image or not _clean(alt_text):
        raise MediaError.of("slider_required")
    stored = store_picture(check_image(image, formats=IMAGE_FORMATS), folder="slider")
    slider_image = SliderImage(
        image=stored.name,
        width=stored.width,
        height=stored.height,
        renditions=stored.renditions,
        alt_text=_clean(alt_text),
        description=_clean(description),
    )
    return _save_or_cleanup(slider_image, stored.names)


def slider_image_update(
    *, slider_image: SliderImage, alt_text: str | None = None, image=None, description: str | None = None
) -> SliderImage:
    """Edit a slider image: the alt text stays required (None keeps the stored one, '' is refused); a new image is
    optional."""
    if alt_text is None:
        alt_text = slider_image.alt_text
    if not _clean(alt_text):
        raise MediaError.of("slider_required")
    stored = store_picture(check_image(image, formats=IMAGE_FORMATS), folder="slider") if image else None
    replaced = []
    if stored:
        replaced = [slider_image.image.name, *rendition_names(slider_image.renditions)]
        slider_image.image = stored.name
        slider_image.width, slider_image.height = stored.width, stored.height
        slider_image.renditions = stored.renditions
    slider_image.alt_text = _clean(alt_text)
    if description is not None:
        slider_image.description = _clean(description)
    _save_or_cleanup(slider_image, stored.names if stored else [])
    _after_commit_delete(replaced)
    return slider_image


def slider_image_delete(*, slider_image: SliderImage) -> None:
    names = [slider_image.image.name, *rendition_names(slider_image.renditions)]
    slider_image.delete()
    _after_commit_delete(names)


# --- Gallery media -------------------------------------------------------------------------------------------


def _check_url(external_url: str) -> str:
    """An http(s) address as the API's schema states it (media_library.fields.WEB_URL), or ''."""
    url = _clean(external_url)
    if url and not WEB_URL.match(url):
        raise MediaError.of("media_url_invalid", field="external_url")
    return url


def _store_media_file(file):
    """Store a gallery file; its content decides the media type (a video file makes a video)."""
    kind = sniff_kind(file)
    if kind == "video":
        checked = check_video(file)
        return Media.MediaType.VIDEO, store_file(file, folder="media", extension=checked.extension), None
    if kind == "image":
        stored = store_picture(
            check_image(file, formats=IMAGE_FORMATS_WEBP, type_message=MSG_MEDIA_TYPES), folder="media"
        )
        return Media.MediaType.PHOTO, stored.name, stored
    raise UploadRejected(MSG_MEDIA_TYPES)


def _check_poster(poster):
    return check_image(poster, formats=IMAGE_FORMATS_WEBP, type_message=MSG_IMAGE_TYPES_WEBP)


def _store_poster(poster):
    return store_picture(_check_poster(poster), folder="media/posters")


def _media_type_for(requested: str | None, external_url: str) -> str:
    if embed_url_for(external_url):
        return Media.MediaType.VIDEO
    return requested if requested in Media.MediaType.values else Media.MediaType.PHOTO


def _apply_picture(media: Media, stored) -> None:
    media.width, media.height, media.renditions = stored.width, stored.height, stored.renditions


def _unset_other_home_background(media: Media) -> None:
    Media.objects.select_for_update().filter(home_background=True).exclude(pk=media.pk).update(home_background=False)


def media_create(
    *,
    title: str,
    description: str = "",
    media_type: str | None = None,
    file=None,
    external_url: str = "",
    poster=None,
    home_background: bool = False,
) -> Media:
    """Add a gallery item. A file's content sets the type; a YouTube/Vimeo link is a video."""
    external_url = _check_url(external_url)
    if not _clean(title) or not (file or external_url):
        raise MediaError.of("media_required")
    written: list[str] = []
    media = Media(title=_clean(title), description=_clean(description), external_url=external_url)
    try:
        if file:
            media.media_type, media.file, stored = _store_media_file(file)
            written.append(media.file.name)
            if stored:
                written.extend(rendition_names(stored.renditions))
                _apply_picture(media, stored)
        else:
            media.media_type = _media_type_for(media_type, external_url)
        if poster and media.media_type == Media.MediaType.VIDEO:
            stored_poster = _store_poster(poster)
            media.poster = stored_poster.name
            written.extend(stored_poster.names)
            _apply_picture(media, stored_poster)
        elif poster:  # a photo keeps no poster, but what is sent as one is still checked by its bytes
            _check_poster(poster)
        if home_background and not _is_video_file(media):
            raise MediaError.of("home_background_needs_video_file", field="home_background")
        with transaction.atomic():
            if home_background:
                _unset_other_home_background(media)
            media.home_background = home_background
            _save_or_cleanup(media, [])
    except Exception:
        delete_files(written)
        raise
    return media


def _is_video_file(media: Media) -> bool:
    return media.media_type == Media.MediaType.VIDEO and bool(media.file)


def media_update(
    *,
    media: Media,
    title: str,
    description: str | None = None,
    media_type: str | None = None,
    file=None,
    external_url: str | None = None,
    poster=None,
    home_background: bool | None = None,
) -> Media:
    """Edit a gallery item; fields left as None keep their value, a new file replaces the old one."""
    new_url = media.external_url if external_url is None else _check_url(external_url)
    has_content = bool(file) or bool(new_url) or bool(media.file)
    if not _clean(title):
        raise MediaError.of("media_required")
    if not has_content:  # removing the URL of an item that has no file: a conflict with what it holds
        raise MediaError.of("media_required", status=CONFLICT)
    written: list[str] = []
    replaced: list[str] = []
    try:
        media.title = _clean(title)
        if description is not None:
            media.description = _clean(description)
        media.external_url = new_url
        if file:
            replaced += [media.file.name, media.poster.name, *rendition_names(media.renditions)]
            media.media_type, media.file, stored = _store_media_file(file)
            written.append(media.file.name)
            media.poster = ""
            media.width = media.height = 0
            media.renditions = {}
            if stored:
                written.extend(rendition_names(stored.renditions))
                _apply_picture(media, stored)
        elif not media.file:
            media.media_type = _media_type_for(media_type, new_url)
        if poster and media.media_type == Media.MediaType.VIDEO:
            replaced += [media.poster.name] + ([] if file else rendition_names(media.renditions))
            stored_poster = _store_poster(poster)
            media.poster = stored_poster.name
            written.extend(stored_poster.names)
            _apply_picture(media, stored_poster)
        elif poster:
            _check_poster(poster)
        wants_background = media.home_background if home_background is None else home_background
        if wants_background and not _is_video_file(media):  # the item holds no video file: a conflict with it
            raise MediaError.of("home_background_needs_video_file", field="home_background", status=CONFLICT)
        with transaction.atomic():
            if wants_background:
                _unset_other_home_background(media)
            media.home_background = wants_background
            _save_or_cleanup(media, [])
    except Exception:
        delete_files(written)
        raise
    _after_commit_delete(name for name in replaced if name)
    return media


def media_delete(*, media: Media) -> None:
    names = [media.file.name, media.poster.name, *rendition_names(media.renditions)]
    media.delete()
    _after_commit_delete(names)
