"""Media-library writes: stored formats, renditions, the dashboard forms' rules, and nothing stored on refusal."""

import io

import pytest
from django.core.files.storage import default_storage
from PIL import Image

from media_library import services
from media_library.embeds import embed_url_for
from media_library.models import Media, SliderImage, SlideshowImage
from media_library.services import (
    MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE,
    MSG_MEDIA_REQUIRED,
    MSG_MEDIA_URL_INVALID,
    MSG_SLIDER_REQUIRED,
    MSG_SLIDESHOW_REQUIRED,
    MediaError,
)
from media_library.uploads import (
    MSG_IMAGE_DAMAGED,
    MSG_IMAGE_TOO_HEAVY,
    MSG_IMAGE_TOO_MANY_PIXELS,
    MSG_IMAGE_TYPES,
    MSG_IMAGE_TYPES_WEBP,
    MSG_MEDIA_TYPES,
    UploadRejected,
)

from . import files

pytestmark = pytest.mark.django_db


def _open(name):
    with default_storage.open(name) as handle:
        return Image.open(io.BytesIO(handle.read()))


def test_a_4_3_slideshow_upload_is_stored_as_a_16_9_jpeg():
    slide = services.slideshow_image_create(image=files.png(size=(1600, 1200)), text_overlay="  Bienvenue  ")
    stored = _open(slide.image.name)
    assert stored.format == "JPEG"
    assert slide.image.name.endswith(".jpg")
    assert stored.size == (1600, 900)
    assert (slide.width, slide.height) == (1600, 900)
    assert slide.text_overlay == "Bienvenue"


def test_a_portrait_slideshow_upload_is_cropped_in_the_middle_and_capped_at_1920():
    slide = services.slideshow_image_create(image=files.jpeg(size=(3000, 4000)))
    assert _open(slide.image.name).size == (1920, 1080)


def test_slideshow_accepts_webp_and_gif():
    assert services.slideshow_image_create(image=files.webp()).image.name.endswith(".jpg")
    assert services.slideshow_image_create(image=files.gif()).image.name.endswith(".jpg")


def test_slideshow_orders_new_slides_last():
    first = services.slideshow_image_create(image=files.jpeg())
    second = services.slideshow_image_create(image=files.jpeg())
    assert (first.order, second.order) == (0, 1)


def test_renditions_in_webp_and_jpeg_at_a_few_widths():
    slide = services.slideshow_image_create(image=files.jpeg(size=(1920, 1080)))
    assert [w for w, _ in slide.renditions["webp"]] == [480, 960, 1600]
    assert [w for w, _ in slide.renditions["jpeg"]] == [480, 960, 1600]
    width, name = slide.renditions["webp"][0]
    rendition = _open(name)
    assert rendition.format == "WEBP"
    assert rendition.size == (480, 270)


def test_small_images_are_not_enlarged():
    item = services.slider_image_create(image=files.jpeg(size=(300, 200)), alt_text="Petite")
    assert [w for w, _ in item.renditions["jpeg"]] == [300]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (files.html_as_png, MSG_IMAGE_TYPES_WEBP),
        (files.svg, MSG_IMAGE_TYPES_WEBP),
        (files.truncated_jpeg, MSG_IMAGE_DAMAGED),
        (files.pixel_flood_png, MSG_IMAGE_TOO_MANY_PIXELS),
        (files.text_as_mp4, MSG_IMAGE_TYPES_WEBP),
    ],
)
def test_bad_slideshow_uploads_store_nothing(make, message, stored_files):
    with pytest.raises(UploadRejected) as error:
        services.slideshow_image_create(image=make())
    assert error.value.message == message
    assert not SlideshowImage.objects.exists()
    assert stored_files() == []


def test_slideshow_needs_an_image():
    with pytest.raises(MediaError) as error:
        services.slideshow_image_create(image=None, text_overlay="Sans image")
    assert error.value.message == MSG_SLIDESHOW_REQUIRED


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (files.html_as_png, MSG_IMAGE_TYPES),
        (files.svg, MSG_IMAGE_TYPES),
        (files.webp, MSG_IMAGE_TYPES),  # the slider takes JPEG, PNG and GIF only
        (files.truncated_jpeg, MSG_IMAGE_DAMAGED),
        (files.pixel_flood_png, MSG_IMAGE_TOO_MANY_PIXELS),
    ],
)
def test_bad_slider_uploads_store_nothing(make, message, stored_files):
    with pytest.raises(UploadRejected) as error:
        services.slider_image_create(image=make(), alt_text="Texte")
    assert error.value.message == message
    assert not SliderImage.objects.exists()
    assert stored_files() == []


def test_oversize_slider_image_stores_nothing(settings, stored_files):
    settings.MAX_IMAGE_UPLOAD_BYTES = 2048
    with pytest.raises(UploadRejected) as error:
        services.slider_image_create(image=files.jpeg(size=(1200, 900)), alt_text="Texte")
    assert error.value.message == MSG_IMAGE_TOO_HEAVY.format(limit="2 Ko")
    assert stored_files() == []


@pytest.mark.parametrize(("image", "alt_text"), [(None, "Texte"), ("jpeg", ""), ("jpeg", "   ")])
def test_slider_needs_an_image_and_an_alt_text(image, alt_text, stored_files):
    with pytest.raises(MediaError) as error:
        services.slider_image_create(image=files.jpeg() if image else None, alt_text=alt_text)
    assert error.value.message == MSG_SLIDER_REQUIRED
    assert stored_files() == []


def test_slider_keeps_gif_animation_bytes():
    item = services.slider_image_create(image=files.gif(), alt_text="Animation")
    assert item.image.name.endswith(".gif")
    assert _open(item.image.name).n_frames == 3


def test_reencoded_originals_lose_the_browser_file_name():
    item = services.slider_image_create(image=files.png(name="../../etc/passwd.png"), alt_text="Texte")
    assert item.image.name.startswith("slider/")
    assert "passwd" not in item.image.name


def test_slider_update_replaces_the_image_and_removes_old_files(django_capture_on_commit_callbacks, stored_files):
    item = services.slider_image_create(image=files.jpeg(), alt_text="Avant")
    old = set(stored_files())
    with django_capture_on_commit_callbacks(execute=True):
        services.slider_image_update(slider_image=item, image=files.png(), alt_text="Après")
    assert item.alt_text == "Après"
    assert old.isdisjoint(stored_files())
    assert item.image.name in stored_files()


def test_slider_update_keeps_the_image_and_requires_the_alt_text():
    item = services.slider_image_create(image=files.jpeg(), alt_text="Avant", description="d")
    with pytest.raises(MediaError) as error:
        services.slider_image_update(slider_image=item, alt_text=" ")
    assert error.value.message == MSG_SLIDER_REQUIRED
    services.slider_image_update(slider_image=item, alt_text="Après")
    item.refresh_from_db()
    assert (item.alt_text, item.description) == ("Après", "d")


def test_delete_removes_the_files(django_capture_on_commit_callbacks, stored_files):
    slide = services.slideshow_image_create(image=files.jpeg())
    assert len(stored_files()) == 5  # original + 2 renditions x 2 formats (640 px wide: 480 and 640)
    with django_capture_on_commit_callbacks(execute=True):
        services.slideshow_image_delete(slideshow_image=slide)
    assert stored_files() == []


# --- Media ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "with_file", "url"),
    [("", True, ""), ("  ", False, "https://youtu.be/dQw4w9WgXcQ"), ("Titre", False, "")],
)
def test_media_needs_a_title_and_a_file_or_url(title, with_file, url, stored_files):
    with pytest.raises(MediaError) as error:
        services.media_create(title=title, file=files.jpeg() if with_file else None, external_url=url)
    assert error.value.message == MSG_MEDIA_REQUIRED
    assert stored_files() == []


def test_a_video_file_makes_a_video_whatever_the_requested_type():
    media = services.media_create(title="Gala", media_type="photo", file=files.mp4(name="gala.bin"))
    assert media.media_type == Media.MediaType.VIDEO
    assert media.file.name.endswith(".mp4")


def test_an_image_file_makes_a_photo_with_renditions():
    media = services.media_create(title="Cours", media_type="video", file=files.jpeg(size=(1200, 900)))
    assert media.media_type == Media.MediaType.PHOTO
    assert media.renditions["webp"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (files.text_as_mp4, MSG_MEDIA_TYPES),
        (files.svg, MSG_MEDIA_TYPES),
        (files.html_as_png, MSG_MEDIA_TYPES),
        (files.truncated_jpeg, MSG_IMAGE_DAMAGED),
        (files.pixel_flood_png, MSG_IMAGE_TOO_MANY_PIXELS),
    ],
)
def test_bad_media_files_store_nothing(make, message, stored_files):
    with pytest.raises(UploadRejected) as error:
        services.media_create(title="Titre", file=make())
    assert error.value.message == message
    assert not Media.objects.exists()
    assert stored_files() == []


def test_youtube_and_vimeo_links_are_videos_with_a_privacy_friendly_player():
    youtube = services.media_create(title="YT", external_url="https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    vimeo = services.media_create(title="Vimeo", external_url="https://vimeo.com/76979871")
    assert youtube.media_type == vimeo.media_type == Media.MediaType.VIDEO
    assert embed_url_for(youtube.external_url) == "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"
    assert embed_url_for(vimeo.external_url) == "https://player.vimeo.com/video/76979871"
    assert embed_url_for("https://example.com/clip.mp4") == ""


def test_media_url_must_be_http():
    with pytest.raises(MediaError) as error:
        services.media_create(title="x", external_url="javascript:alert(1)")
    assert error.value.message == MSG_MEDIA_URL_INVALID


def test_only_one_home_background_video():
    first = services.media_create(title="Un", file=files.webm(), home_background=True)
    second = services.media_create(title="Deux", file=files.mp4(), home_background=True, poster=files.jpeg())
    first.refresh_from_db()
    assert not first.home_background
    assert second.home_background
    assert second.poster.name and second.renditions["jpeg"]


def test_home_background_must_be_a_video_file(stored_files):
    with pytest.raises(MediaError) as error:
        services.media_create(title="Photo", file=files.jpeg(), home_background=True)
    assert error.value.message == MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE
    assert stored_files() == []


def test_media_update_keeps_the_file_when_none_is_sent():
    media = services.media_create(title="Avant", file=files.jpeg())
    name = media.file.name
    services.media_update(media=media, title="Après", description="Nouvelle")
    media.refresh_from_db()
    assert (media.title, media.description, media.file.name) == ("Après", "Nouvelle", name)


def test_media_update_with_a_video_switches_the_type(django_capture_on_commit_callbacks, stored_files):
    media = services.media_create(title="Photo", file=files.jpeg())
    with django_capture_on_commit_callbacks(execute=True):
        services.media_update(media=media, title="Vidéo", file=files.webm())
    media.refresh_from_db()
    assert media.media_type == Media.MediaType.VIDEO
    assert media.renditions == {}
    assert stored_files() == [media.file.name]
