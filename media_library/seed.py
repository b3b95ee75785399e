"""Demo pictures for `manage.py seed_demo`, drawn with Pillow (demo_pictures.py, no downloads), and two short
generated videos.

Idempotent: items are recognised by their title / alt text / overlay and created only once.
"""

from django.core.files.uploadedfile import SimpleUploadedFile

from . import services
from .demo_pictures import draw_theme
from .demo_video import generate_webm
from .models import Media, SliderImage, SlideshowImage

# (text overlay, theme): each slide its own picture, so no two look alike.
SLIDES = [
    ("Pole dance pour tous les niveaux", "room"),
    ("Cerceau aérien et cabaret", "cabaret"),
    ("EVJF et EVG : une soirée inoubliable", "stage"),
]
# (alt text, description, theme): the alt text says what the illustration shows.
SLIDER = [
    ("Illustration : une élève en figure inversée au mât, sous un projecteur", "Cours débutant du mardi soir", "pole"),
    ("Illustration : une élève assise dans un cerceau aérien doré", "Atelier cerceau aérien", "hoop"),
    (
        "Illustration : ballons, confettis et coupes levées pour un enterrement de vie de jeune fille",
        "Un EVJF au studio",
        "party",
    ),
]
# (title, description, theme)
PHOTOS = [
    ("Gala de fin d'année", "Le spectacle des élèves sur la grande scène.", "stage"),
    ("Cours intermédiaire", "Travail des enchaînements au mât.", "pole"),
    ("Cerceau aérien", "Souplesse et équilibre.", "hoop"),
    ("Cabaret", "Chorégraphie en talons.", "cabaret"),
    ("Stage d'été", "Une semaine de stage intensif : souplesse et renforcement.", "stretch"),
    ("La salle", "Notre salle lumineuse de 80 m².", "room"),
]
# (title, description, hue of the generated animation, home background)
VIDEOS = [
    ("Le studio en mouvement", "Une courte vidéo générée pour la démonstration.", 295, True),
    ("Lumières du gala", "Ambiance de la scène du gala, vidéo générée pour la démonstration.", 330, False),
]
VIDEO_TITLE = VIDEOS[0][0]
VIDEO_POSTER_THEMES = {"Le studio en mouvement": "room", "Lumières du gala": "stage"}


def _upload(name: str, data: bytes, content_type: str = "image/jpeg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def run(*, stdout=None) -> None:
    created = 0
    for index, (overlay, theme) in enumerate(SLIDES):
        if not SlideshowImage.objects.filter(text_overlay=overlay).exists():
            # 4:3 on purpose for one of them: the server crops to 16:9.
            size = (1600, 1200) if index == 1 else (1920, 1080)
            services.slideshow_image_create(
                image=_upload(f"slide-{index}.jpg", draw_theme(theme=theme, width=size[0], height=size[1], seed=index)),
                text_overlay=overlay,
                order=index,
            )
            created += 1
    for index, (alt_text, description, theme) in enumerate(SLIDER):
        if not SliderImage.objects.filter(alt_text=alt_text).exists():
            services.slider_image_create(
                image=_upload(f"slider-{index}.jpg", draw_theme(theme=theme, width=1200, height=800, seed=10 + index)),
                alt_text=alt_text,
                description=description,
            )
            created += 1
    for index, (title, description, theme) in enumerate(PHOTOS):
        if not Media.objects.filter(title=title).exists():
            portrait = index % 3 == 2
            width, height = (900, 1200) if portrait else (1400, 933)
            services.media_create(
                title=title,
                description=description,
                file=_upload(
                    f"photo-{index}.jpg", draw_theme(theme=theme, width=width, height=height, seed=20 + index)
                ),
            )
            created += 1
    for index, (title, description, hue, home_background) in enumerate(VIDEOS):
        if Media.objects.filter(title=title).exists():
            continue
        theme = VIDEO_POSTER_THEMES[title]
        poster = _upload(
            f"poster-{index}.jpg", draw_theme(theme=theme, width=1280, height=720, seed=40 + index, label=title)
        )
        video = generate_webm(hue=hue)
        if video:
            services.media_create(
                title=title,
                description=description,
                file=_upload(f"video-{index}.webm", video, "video/webm"),
                poster=poster,
                home_background=home_background,
            )
            created += 1
        elif stdout:
            stdout.write(f"  Médiathèque : pas de Chromium pour générer la vidéo « {title} » (ignorée).")
    if stdout:
        stdout.write(f"  Médiathèque : {created} élément(s) ajouté(s).")
