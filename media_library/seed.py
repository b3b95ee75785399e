"""Demo pictures for `manage.py seed_demo`, drawn with Pillow (no downloads), and a short generated video.

Idempotent: items are recognised by their title / alt text / overlay and created only once.
"""

import io
import math
import random

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw, ImageFont

from . import services
from .demo_video import generate_webm
from .models import Media, SliderImage, SlideshowImage

PALETTES = [
    ((43, 16, 51), (142, 44, 142)),
    ((90, 31, 99), (240, 139, 208)),
    ((29, 16, 32), (179, 36, 90)),
    ((60, 20, 80), (250, 190, 120)),
    ((20, 40, 80), (200, 120, 220)),
    ((70, 10, 40), (255, 160, 190)),
]

SLIDES = [
    "Pole dance pour tous les niveaux",
    "Cerceau aérien et cabaret",
    "EVJF et EVG : une soirée inoubliable",
]
SLIDER = [
    ("Élèves en figure au mât lors d'un cours débutant", "Cours débutant du mardi soir"),
    ("Une élève suspendue au cerceau aérien", "Atelier cerceau aérien"),
    ("Groupe d'amies lors d'un enterrement de vie de jeune fille", "Un EVJF au studio"),
]
PHOTOS = [
    ("Gala de fin d'année", "Le spectacle des élèves sur la grande scène."),
    ("Cours intermédiaire", "Travail des enchaînements au mât."),
    ("Cerceau aérien", "Souplesse et équilibre."),
    ("Cabaret", "Chorégraphie en talons."),
    ("Stage d'été", "Une semaine de stage intensif."),
    ("La salle", "Notre salle lumineuse de 80 m²."),
]
VIDEO_TITLE = "Le studio en mouvement"


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # very old Pillow
        return ImageFont.load_default()


def draw_picture(*, width: int, height: int, seed: int, label: str = "") -> bytes:
    """A gradient with soft shapes and an optional label, as JPEG bytes."""
    rng = random.Random(seed)
    top, bottom = PALETTES[seed % len(PALETTES)]
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(height):
        t = y / max(1, height - 1)
        draw.line([(0, y), (width, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    overlay = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    shapes = ImageDraw.Draw(overlay)
    for _ in range(9):
        r = rng.randint(height // 12, height // 4)
        x, y = rng.randint(0, width), rng.randint(0, height)
        shapes.ellipse([x - r, y - r, x + r, y + r], fill=(255, 230, 245, rng.randint(25, 70)))
    # A stylised pole and dancer silhouette.
    pole_x = int(width * (0.3 + 0.4 * rng.random()))
    shapes.rectangle([pole_x - 4, 0, pole_x + 4, height], fill=(235, 235, 240, 200))
    angle = rng.random() * math.pi
    cx, cy = pole_x + int(40 * math.cos(angle)), int(height * 0.45)
    shapes.ellipse([cx - 18, cy - 70, cx + 18, cy - 34], fill=(20, 5, 25, 210))
    shapes.line([(cx, cy - 34), (cx + 10, cy + 60)], fill=(20, 5, 25, 210), width=14)
    shapes.line([(cx + 10, cy + 60), (pole_x + 60, cy + 150)], fill=(20, 5, 25, 210), width=12)
    shapes.line([(cx, cy - 20), (pole_x, cy - 60)], fill=(20, 5, 25, 210), width=10)
    image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    if label:
        draw = ImageDraw.Draw(image)
        font = _font(max(18, height // 16))
        draw.text((width // 20 + 2, height - height // 6 + 2), label, font=font, fill=(0, 0, 0))
        draw.text((width // 20, height - height // 6), label, font=font, fill=(255, 255, 255))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=88)
    return buffer.getvalue()


def _upload(name: str, data: bytes, content_type: str = "image/jpeg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def run(*, stdout=None) -> None:
    created = 0
    for index, overlay in enumerate(SLIDES):
        if not SlideshowImage.objects.filter(text_overlay=overlay).exists():
            # 4:3 on purpose for one of them: the server crops to 16:9.
            size = (1600, 1200) if index == 1 else (1920, 1080)
            services.slideshow_image_create(
                image=_upload(f"slide-{index}.jpg", draw_picture(width=size[0], height=size[1], seed=index)),
                text_overlay=overlay,
                order=index,
            )
            created += 1
    for index, (alt_text, description) in enumerate(SLIDER):
        if not SliderImage.objects.filter(alt_text=alt_text).exists():
            services.slider_image_create(
                image=_upload(f"slider-{index}.jpg", draw_picture(width=1200, height=800, seed=10 + index)),
                alt_text=alt_text,
                description=description,
            )
            created += 1
    for index, (title, description) in enumerate(PHOTOS):
        if not Media.objects.filter(title=title).exists():
            portrait = index % 3 == 2
            services.media_create(
                title=title,
                description=description,
                file=_upload(
                    f"photo-{index}.jpg",
                    draw_picture(width=900 if portrait else 1400, height=1200 if portrait else 933, seed=20 + index),
                ),
            )
            created += 1
    if not Media.objects.filter(title=VIDEO_TITLE).exists():
        poster = _upload("poster.jpg", draw_picture(width=1280, height=720, seed=40, label=VIDEO_TITLE))
        video = generate_webm()
        if video:
            services.media_create(
                title=VIDEO_TITLE,
                description="Une courte vidéo générée pour la démonstration.",
                file=_upload("studio.webm", video, "video/webm"),
                poster=poster,
                home_background=True,
            )
            created += 1
        elif stdout:
            stdout.write("  Médiathèque : pas de Chromium pour générer la vidéo de démonstration (affiche seule).")
    if stdout:
        stdout.write(f"  Médiathèque : {created} élément(s) ajouté(s).")
