"""Upload checking in one place (docs/decisions.md 22), for every app that accepts a file.

The type is read from the bytes (signature, then a full Pillow decode for images; the container signature for
videos), never from the file name or the browser's content type. SVG is never an accepted image. Sizes are capped
by settings.MAX_IMAGE_UPLOAD_BYTES / MAX_VIDEO_UPLOAD_BYTES, and images over 90 megapixels are refused before
their pixels are decoded (decompression bombs).

    from media_library.uploads import UploadRejected, check_image
    try:
        checked = check_image(request.FILES["avatar"], max_bytes=settings.MAX_AVATAR_UPLOAD_BYTES)
    except UploadRejected as error:
        return error_response(error.message)

`UploadRejected` is a Django ValidationError, so forms and the API's exception handler show its message as is.
"""

import io
import warnings
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from PIL import Image

# Slider images: the message for any refused image type.
MSG_IMAGE_TYPES = "Seuls les fichiers JPEG, PNG, et GIF sont autorisés."
# The slideshow also accepts WebP.
MSG_IMAGE_TYPES_WEBP = "Seuls les fichiers JPEG, PNG, GIF et WebP sont autorisés."
MSG_VIDEO_TYPES = "Seules les vidéos MP4, MOV et WebM sont autorisées."
MSG_MEDIA_TYPES = "Seules les photos JPEG, PNG, GIF ou WebP et les vidéos MP4, MOV ou WebM sont autorisées."
MSG_IMAGE_DAMAGED = "L'image est endommagée ou incomplète."
MSG_IMAGE_TOO_MANY_PIXELS = "L'image est trop grande : 90 mégapixels au maximum."
MSG_FILE_EMPTY = "Le fichier est vide."
MSG_IMAGE_TOO_HEAVY = "L'image dépasse la taille maximale autorisée ({limit})."
MSG_VIDEO_TOO_HEAVY = "La vidéo dépasse la taille maximale autorisée ({limit})."

MAX_IMAGE_PIXELS = 90_000_000
# Animated images: every frame is decoded, so all frames together have a budget too.
MAX_ANIMATION_PIXELS = 4 * MAX_IMAGE_PIXELS

JPEG, PNG, GIF, WEBP = "JPEG", "PNG", "GIF", "WEBP"
IMAGE_FORMATS = (JPEG, PNG, GIF)
IMAGE_FORMATS_WEBP = (JPEG, PNG, GIF, WEBP)

EXTENSIONS = {JPEG: "jpg", PNG: "png", GIF: "gif", WEBP: "webp"}
CONTENT_TYPES = {JPEG: "image/jpeg", PNG: "image/png", GIF: "image/gif", WEBP: "image/webp"}

# ISO base media brands of MP4 and QuickTime files (HEIF/AVIF images share the container and are left out).
MP4_BRANDS = {
    b"isom", b"iso2", b"iso3", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"mp71", b"avc1", b"dash",
    b"M4V ", b"M4VH", b"M4VP", b"MSNV", b"NDAS", b"mmp4", b"f4v ", b"3gp4", b"3gp5", b"3gp6", b"3g2a",
}  # fmt: skip
MOV_BRANDS = {b"qt  "}
EBML_MAGIC = b"\x1a\x45\xdf\xa3"


class UploadRejected(ValidationError):
    """A refused upload; `.message` is the French text to show."""


@dataclass(frozen=True)
class CheckedImage:
    format: str  # JPEG, PNG, GIF or WEBP
    width: int
    height: int
    image: Image.Image  # decoded (first frame for animations)
    data: bytes  # the file's bytes, as checked

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.format]

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.format]

    @property
    def animated(self) -> bool:
        return bool(getattr(self.image, "is_animated", False))


@dataclass(frozen=True)
class CheckedVideo:
    container: str  # mp4, mov or webm
    size: int

    @property
    def extension(self) -> str:
        return self.container

    @property
    def content_type(self) -> str:
        return {"mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm"}[self.container]


def human_size(num_bytes: int) -> str:
    megabytes = num_bytes / (1024 * 1024)
    if megabytes >= 1:
        return f"{megabytes:g} Mo" if megabytes == int(megabytes) else f"{megabytes:.1f} Mo".replace(".", ",")
    return f"{max(1, round(num_bytes / 1024))} Ko"


def _file_size(upload) -> int:
    size = getattr(upload, "size", None)
    if size is None:
        position = upload.tell()
        upload.seek(0, 2)
        size = upload.tell()
        upload.seek(position)
    return size


def _read_head(upload, length: int = 64) -> bytes:
    upload.seek(0)
    head = upload.read(length)
    upload.seek(0)
    return head


def image_format_of(head: bytes) -> str | None:
    """The image format a file's first bytes announce, or None (SVG, HTML, text... are None)."""
    if head.startswith(b"\xff\xd8\xff"):
        return JPEG
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return GIF
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return WEBP
    return None


def video_container_of(head: bytes) -> str | None:
    """mp4, mov or webm from the container signature, or None."""
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in MOV_BRANDS:
            return "mov"
        if brand in MP4_BRANDS:
            return "mp4"
        return None
    if head.startswith(EBML_MAGIC):
        # The EBML header names its DocType near the start: only WebM is played by every browser.
        return "webm" if b"webm" in head[:64] else None
    return None


def sniff_kind(upload) -> str | None:
    """ "image", "video" or None, from the content. Lets a form decide which check applies."""
    head = _read_head(upload)
    if image_format_of(head):
        return "image"
    if video_container_of(head):
        return "video"
    return None


def check_image(
    upload,
    *,
    formats: tuple[str, ...] = IMAGE_FORMATS,
    type_message: str = MSG_IMAGE_TYPES,
    max_bytes: int | None = None,
) -> CheckedImage:
    """Check an uploaded image by its content and decode it fully; raise UploadRejected otherwise."""
    limit = settings.MAX_IMAGE_UPLOAD_BYTES if max_bytes is None else max_bytes
    size = _file_size(upload)
    if size == 0:
        raise UploadRejected(MSG_FILE_EMPTY)
    if size > limit:
        raise UploadRejected(MSG_IMAGE_TOO_HEAVY.format(limit=human_size(limit)))
    upload.seek(0)
    data = upload.read()
    upload.seek(0)
    detected = image_format_of(data[:64])
    if detected not in formats:
        raise UploadRejected(type_message)

    with warnings.catch_warnings():
        # Our own 90 MP limit below decides; Pillow's slightly lower warning threshold must not.
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=[detected])
        except Image.DecompressionBombError as error:
            raise UploadRejected(MSG_IMAGE_TOO_MANY_PIXELS) from error
        except Exception as error:  # noqa: BLE001 - any parser failure means a damaged file
            raise UploadRejected(MSG_IMAGE_DAMAGED) from error
        width, height = image.size
        if width < 1 or height < 1:
            raise UploadRejected(MSG_IMAGE_DAMAGED)
        if width * height > MAX_IMAGE_PIXELS:
            raise UploadRejected(MSG_IMAGE_TOO_MANY_PIXELS)
        frames = getattr(image, "n_frames", 1)
        if frames * width * height > MAX_ANIMATION_PIXELS:
            raise UploadRejected(MSG_IMAGE_TOO_MANY_PIXELS)
        try:
            for frame in range(frames):
                image.seek(frame)
                image.load()
            image.seek(0)
            image.load()
        except Image.DecompressionBombError as error:
            raise UploadRejected(MSG_IMAGE_TOO_MANY_PIXELS) from error
        except Exception as error:  # noqa: BLE001 - truncated or corrupt pixel data
            raise UploadRejected(MSG_IMAGE_DAMAGED) from error
    return CheckedImage(format=detected, width=width, height=height, image=image, data=data)


def check_video(upload, *, max_bytes: int | None = None) -> CheckedVideo:
    """Check an uploaded video by its container signature (MP4, MOV, WebM) and its size."""
    limit = settings.MAX_VIDEO_UPLOAD_BYTES if max_bytes is None else max_bytes
    size = _file_size(upload)
    if size == 0:
        raise UploadRejected(MSG_FILE_EMPTY)
    if size > limit:
        raise UploadRejected(MSG_VIDEO_TOO_HEAVY.format(limit=human_size(limit)))
    container = video_container_of(_read_head(upload))
    if container is None:
        raise UploadRejected(MSG_VIDEO_TYPES)
    return CheckedVideo(container=container, size=size)
