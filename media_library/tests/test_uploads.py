"""The shared upload checks: type by content, size limits, pixel flood, SVG refused."""

import pytest

from media_library.uploads import (
    IMAGE_FORMATS_WEBP,
    MSG_FILE_EMPTY,
    MSG_IMAGE_DAMAGED,
    MSG_IMAGE_TOO_HEAVY,
    MSG_IMAGE_TOO_MANY_PIXELS,
    MSG_IMAGE_TYPES,
    MSG_VIDEO_TOO_HEAVY,
    MSG_VIDEO_TYPES,
    UploadRejected,
    check_image,
    check_video,
    sniff_kind,
)

from . import files


@pytest.mark.parametrize(
    ("make", "fmt"),
    [(files.jpeg, "JPEG"), (files.png, "PNG"), (files.gif, "GIF")],
)
def test_accepts_jpeg_png_gif_by_content(make, fmt):
    checked = check_image(make())
    assert checked.format == fmt
    assert (checked.width, checked.height) == checked.image.size


def test_the_file_name_does_not_matter():
    checked = check_image(files.upload("vacances.txt", files.image_bytes("PNG")))
    assert checked.format == "PNG"
    assert checked.extension == "png"


def test_webp_only_where_allowed():
    with pytest.raises(UploadRejected) as error:
        check_image(files.webp())
    assert error.value.message == MSG_IMAGE_TYPES
    assert check_image(files.webp(), formats=IMAGE_FORMATS_WEBP).format == "WEBP"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (files.html_as_png, MSG_IMAGE_TYPES),
        (files.svg, MSG_IMAGE_TYPES),
        (files.svg_named_png, MSG_IMAGE_TYPES),
        (files.text_as_mp4, MSG_IMAGE_TYPES),
        (files.truncated_jpeg, MSG_IMAGE_DAMAGED),
        (files.pixel_flood_png, MSG_IMAGE_TOO_MANY_PIXELS),
    ],
)
def test_refused_images(make, message):
    with pytest.raises(UploadRejected) as error:
        check_image(make())
    assert error.value.message == message


def test_an_image_just_under_90_megapixels_is_not_a_flood():
    # 9000 x 9999 = 89.99 MP: header checked only up to the decode, which then fails on the missing pixels.
    with pytest.raises(UploadRejected) as error:
        check_image(files.pixel_flood_png(9000, 9999))
    assert error.value.message == MSG_IMAGE_DAMAGED


def test_oversize_image(settings):
    settings.MAX_IMAGE_UPLOAD_BYTES = 1024
    with pytest.raises(UploadRejected) as error:
        check_image(files.jpeg(size=(800, 800)))
    assert error.value.message == MSG_IMAGE_TOO_HEAVY.format(limit="1 Ko")


def test_default_limits_are_10_and_200_megabytes(settings):
    assert settings.MAX_IMAGE_UPLOAD_BYTES == 10 * 1024 * 1024
    assert settings.MAX_VIDEO_UPLOAD_BYTES == 200 * 1024 * 1024


def test_empty_file():
    with pytest.raises(UploadRejected) as error:
        check_image(files.upload("x.jpg", b""))
    assert error.value.message == MSG_FILE_EMPTY


@pytest.mark.parametrize(("make", "container"), [(files.mp4, "mp4"), (files.mov, "mov"), (files.webm, "webm")])
def test_videos_by_container_signature(make, container):
    checked = check_video(make(name="video.bin"))
    assert checked.container == container


def test_text_named_mp4_is_not_a_video():
    with pytest.raises(UploadRejected) as error:
        check_video(files.text_as_mp4())
    assert error.value.message == MSG_VIDEO_TYPES


def test_heif_image_in_an_iso_container_is_not_a_video():
    with pytest.raises(UploadRejected) as error:
        check_video(files.mp4(brand=b"heic"))
    assert error.value.message == MSG_VIDEO_TYPES


def test_oversize_video(settings):
    settings.MAX_VIDEO_UPLOAD_BYTES = 100
    with pytest.raises(UploadRejected) as error:
        check_video(files.mp4())
    assert error.value.message == MSG_VIDEO_TOO_HEAVY.format(limit="1 Ko")


def test_sniff_kind():
    assert sniff_kind(files.jpeg()) == "image"
    assert sniff_kind(files.webm()) == "video"
    assert sniff_kind(files.svg()) is None
    assert sniff_kind(files.html_as_png()) is None
