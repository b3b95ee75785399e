"""Test files built in memory: real images, fakes and hostile uploads."""

import io
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image


def image_bytes(fmt="JPEG", size=(640, 480), color=(142, 44, 142)) -> bytes:
    buffer = io.BytesIO()
    mode = "RGBA" if fmt in ("PNG", "WEBP") else "RGB"
    Image.new(mode, size, color).save(buffer, fmt)
    return buffer.getvalue()


def upload(name: str, data: bytes, content_type: str = "application/octet-stream") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def jpeg(name="photo.jpg", size=(640, 480)):
    return upload(name, image_bytes("JPEG", size), "image/jpeg")


def png(name="photo.png", size=(640, 480)):
    return upload(name, image_bytes("PNG", size), "image/png")


def gif(name="anim.gif", size=(200, 100)):
    buffer = io.BytesIO()
    frames = [Image.new("RGB", size, color) for color in ((200, 0, 0), (0, 200, 0), (0, 0, 200))]
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return upload(name, buffer.getvalue(), "image/gif")


def webp(name="photo.webp", size=(640, 360)):
    return upload(name, image_bytes("WEBP", size), "image/webp")


def html_as_png():
    return upload("photo.png", b"<!doctype html><html><body><script>alert(1)</script></body></html>", "image/png")


def svg():
    data = (
        b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        b"<script>alert(1)</script></svg>"
    )
    return upload("logo.svg", data, "image/svg+xml")


def svg_named_png():
    return upload("logo.png", b'<svg xmlns="http://www.w3.org/2000/svg"/>', "image/png")


def truncated_jpeg():
    data = image_bytes("JPEG", (800, 600))
    return upload("cut.jpg", data[: len(data) // 2], "image/jpeg")


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def pixel_flood_png(width=10_000, height=9_001):
    """A valid PNG header announcing width x height pixels (> 90 MP) with almost no data: a decompression bomb."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    idat = zlib.compress(b"\x00" * 1024)
    data = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")
    return upload("huge.png", data, "image/png")


def text_as_mp4():
    return upload("clip.mp4", b"Ceci n'est pas une video, juste du texte.\n" * 10, "video/mp4")


def mp4(name="clip.mp4", brand=b"isom"):
    data = struct.pack(">I", 24) + b"ftyp" + brand + b"\x00\x00\x02\x00" + b"isomiso2" + b"\x00" * 200
    return upload(name, data, "video/mp4")


def mov(name="clip.mov"):
    return mp4(name, brand=b"qt  ")


def webm(name="clip.webm"):
    data = b"\x1a\x45\xdf\xa3\x9fB\x86\x81\x01B\xf7\x81\x01B\xf2\x81\x04B\xf3\x81\x08B\x82\x84webmB\x87\x81\x04"
    return upload(name, data + b"\x00" * 200, "video/webm")
