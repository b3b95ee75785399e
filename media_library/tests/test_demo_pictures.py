"""The demo studio's pictures are distinct, so the slider and the gallery look like a real
studio's."""

import io
from itertools import combinations

from PIL import Image, ImageChops, ImageStat

from media_library import seed
from media_library.demo_pictures import THEMES, draw_theme


def _thumb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("L").resize((32, 20))


def test_each_theme_is_its_own_picture():
    thumbs = {theme: _thumb(draw_theme(theme=theme, width=480, height=300)) for theme in THEMES}
    for a, b in combinations(THEMES, 2):
        difference = ImageStat.Stat(ImageChops.difference(thumbs[a], thumbs[b])).mean[0]
        assert difference > 8, f"{a} and {b} look alike ({difference:.1f})"


def test_pictures_are_jpeg_of_the_asked_size_with_an_optional_caption():
    image = Image.open(io.BytesIO(draw_theme(theme="hoop", width=640, height=360, label="Cerceau aérien")))
    assert (image.format, image.size) == ("JPEG", (640, 360))


def test_slides_carousel_and_gallery_each_get_a_different_theme():
    assert len({theme for _, theme in seed.SLIDES}) == len(seed.SLIDES)
    assert len({theme for *_, theme in seed.SLIDER}) == len(seed.SLIDER)
    gallery = [theme for *_, theme in seed.PHOTOS]
    assert len(set(gallery)) == len(gallery)
    assert len(seed.VIDEOS) >= 2
