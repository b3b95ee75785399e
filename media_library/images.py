"""Writing checked pictures to storage: the original (re-encoded, metadata stripped), its responsive renditions in
WebP and JPEG, and the 16:9 JPEG of the home slideshow. Everything goes through Django's storage API."""

import io
import uuid
from dataclasses import dataclass, field

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageOps

from .uploads import GIF, CheckedImage

RENDITION_WIDTHS = (480, 960, 1600)
MAX_ORIGINAL_SIDE = 2560
SLIDESHOW_RATIO = 16 / 9
SLIDESHOW_MAX_WIDTH = 1920
JPEG_QUALITY = 85
WEBP_QUALITY = 80


@dataclass
class StoredImage:
    name: str
    width: int
    height: int
    renditions: dict = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return [self.name, *rendition_names(self.renditions)]


def rendition_names(renditions: dict) -> list[str]:
    return [name for entries in (renditions or {}).values() for _width, name in entries]


def _new_stem(folder: str) -> str:
    return f"{folder.rstrip('/')}/{uuid.uuid4().hex}"


def _save(name: str, data: bytes) -> str:
    return default_storage.save(name, ContentFile(data))


def _rgb(image: Image.Image) -> Image.Image:
    """A copy without alpha, flattened on white, for JPEG."""
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")


def _encode(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    if fmt == "JPEG":
        _rgb(image).save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
    elif fmt == "WEBP":
        image = image if image.mode in ("RGB", "RGBA") else image.convert("RGBA" if "A" in image.mode else "RGB")
        image.save(buffer, "WEBP", quality=WEBP_QUALITY, method=4)
    else:
        image.save(buffer, fmt, optimize=True)
    return buffer.getvalue()


def _upright(checked: CheckedImage) -> Image.Image:
    image = checked.image
    image.seek(0)
    return ImageOps.exif_transpose(image.copy())


def rendition_widths(width: int) -> list[int]:
    widths = [w for w in RENDITION_WIDTHS if w < width]
    widths.append(min(width, RENDITION_WIDTHS[-1]))
    return sorted(set(widths))


def _write_renditions(image: Image.Image, stem: str) -> dict:
    renditions = {"webp": [], "jpeg": []}
    for width in rendition_widths(image.width):
        height = max(1, round(image.height * width / image.width))
        resized = image if width == image.width else image.resize((width, height), Image.Resampling.LANCZOS)
        renditions["webp"].append([width, _save(f"{stem}-{width}w.webp", _encode(resized, "WEBP"))])
        renditions["jpeg"].append([width, _save(f"{stem}-{width}w.jpg", _encode(resized, "JPEG"))])
    return renditions


def store_picture(checked: CheckedImage, *, folder: str) -> StoredImage:
    """Store a checked image and its renditions. GIFs keep their bytes (animation); others are re-encoded."""
    stem = _new_stem(folder)
    written: list[str] = []
    try:
        upright = _upright(checked)
        if checked.format == GIF:
            name = _save(f"{stem}.gif", checked.data)
        else:
            if max(upright.size) > MAX_ORIGINAL_SIDE:
                upright.thumbnail((MAX_ORIGINAL_SIDE, MAX_ORIGINAL_SIDE), Image.Resampling.LANCZOS)
            name = _save(f"{stem}.{checked.extension}", _encode(upright, checked.format))
        written.append(name)
        renditions = _write_renditions(upright, f"{stem}")
        written.extend(rendition_names(renditions))
    except Exception:
        delete_files(written)
        raise
    return StoredImage(name=name, width=upright.width, height=upright.height, renditions=renditions)


def crop_to_16_9(image: Image.Image) -> Image.Image:
    """The centred 16:9 part of a picture (the browser usually crops already; the server makes sure)."""
    width, height = image.size
    if abs(width / height - SLIDESHOW_RATIO) < 0.005:
        return image
    if width / height > SLIDESHOW_RATIO:
        new_width = round(height * SLIDESHOW_RATIO)
        left = (width - new_width) // 2
        return image.crop((left, 0, left + new_width, height))
    new_height = round(width / SLIDESHOW_RATIO)
    top = (height - new_height) // 2
    return image.crop((0, top, width, top + new_height))


def store_slideshow_picture(checked: CheckedImage, *, folder: str = "slideshow") -> StoredImage:
    """Store a slideshow picture as a 16:9 JPEG (at most 1920 px wide), with renditions."""
    stem = _new_stem(folder)
    written: list[str] = []
    try:
        image = _rgb(crop_to_16_9(_upright(checked)))
        if image.width > SLIDESHOW_MAX_WIDTH:
            image = image.resize(
                (SLIDESHOW_MAX_WIDTH, round(SLIDESHOW_MAX_WIDTH / SLIDESHOW_RATIO)), Image.Resampling.LANCZOS
            )
        name = _save(f"{stem}.jpg", _encode(image, "JPEG"))
        written.append(name)
        renditions = _write_renditions(image, stem)
        written.extend(rendition_names(renditions))
    except Exception:
        delete_files(written)
        raise
    return StoredImage(name=name, width=image.width, height=image.height, renditions=renditions)


def delete_files(names) -> None:
    for name in names:
        if not name:
            continue
        try:
            default_storage.delete(name)
        except Exception:  # noqa: BLE001 - a file already gone must not break a delete
            pass


def store_file(upload, *, folder: str, extension: str) -> str:
    """Store an already checked non-image upload (a video) under a server-chosen name."""
    upload.seek(0)
    return default_storage.save(f"{_new_stem(folder)}.{extension}", upload)
