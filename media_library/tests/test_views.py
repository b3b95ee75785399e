"""The gallery page and the home hero / image slider inclusion tags."""

import re

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from media_library import services
from media_library.templatetags.media_tags import SLIDESHOW_INTERVAL_MS, SLIDESHOW_TRANSITION_MS
from media_library.views import MSG_IMAGE_NOT_FOUND, MSG_NO_PHOTOS, MSG_NO_VIDEOS

from . import files

pytestmark = pytest.mark.django_db


def test_empty_gallery_says_so_and_loads_no_script(client):
    html = client.get("/gallery").content.decode()
    assert MSG_NO_PHOTOS in html and MSG_NO_VIDEOS in html
    assert "gallery." not in re.sub(r"css/media\.css|gallery-", "", html)  # no gallery bundle
    assert "vendor-react" not in html


def test_gallery_lists_photos_and_videos_in_their_columns(client):
    services.media_create(title="Gala", description="Spectacle", file=files.jpeg(size=(1200, 900)))
    services.media_create(title="Clip", external_url="https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    services.media_create(title="Répétition", file=files.webm(), poster=files.jpeg())
    html = client.get("/gallery").content.decode()
    photos, videos = html.split('id="gallery-videos"')
    assert "Gala" in photos and "Clip" not in photos
    assert "Clip" in videos and "Répétition" in videos
    assert MSG_NO_PHOTOS not in html and MSG_NO_VIDEOS not in html
    # Responsive pictures with intrinsic size.
    assert 'type="image/webp" srcset="' in html and 'width="1200" height="900"' in html
    # A video-host link is a consent-gated embed (docs/decisions.md 18), never an iframe in the page.
    assert 'data-src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"' in videos
    assert "<iframe" not in html
    # A video file is a plain <video>.
    assert '<video class="gallery-video" controls' in videos and 'type="video/webm"' in videos
    assert "vendor-react" not in html
    assert re.search(r'<script src="/static/dist/gallery\.[0-9a-f]+\.js" defer', html)
    assert f'data-fallback-alt="{MSG_IMAGE_NOT_FOUND}"' in html


def test_gallery_page_query_count_does_not_grow(client, django_assert_num_queries):
    for index in range(6):
        services.media_create(title=f"Photo {index}", file=files.jpeg(size=(300, 200)))
        services.media_create(title=f"Vidéo {index}", external_url=f"https://vimeo.com/{index + 1}")
    with django_assert_num_queries(1):
        response = client.get("/gallery")
    assert response.status_code == 200
    with django_assert_num_queries(0):  # whole page cached for visitors
        client.get("/gallery")


def test_mobile_menu_route_redirects_permanently(client):
    response = client.get("/photo-et-video-gallerie")
    assert response.status_code == 301 and response["Location"] == "/gallery"


def _render(source):
    request = RequestFactory().get("/")
    return Template("{% load media_tags %}" + source).render(Context({"request": request}))


def test_home_hero_renders_the_slideshow_and_background_video(django_assert_num_queries):
    services.slideshow_image_create(image=files.jpeg(size=(1600, 900)), text_overlay="Bienvenue au studio")
    services.slideshow_image_create(image=files.jpeg(size=(1600, 900)))
    services.media_create(title="Fond", file=files.webm(), poster=files.jpeg(), home_background=True)
    with django_assert_num_queries(2):
        html = _render("{% home_hero %}")
    assert f'data-interval="{SLIDESHOW_INTERVAL_MS}" data-transition="{SLIDESHOW_TRANSITION_MS}"' in html
    assert SLIDESHOW_INTERVAL_MS == 3000 and SLIDESHOW_TRANSITION_MS == 500
    assert "Bienvenue au studio" in html
    assert html.count("data-slide ") == 2 and html.count("data-slide-to=") == 2
    assert 'fetchpriority="high"' in html and 'loading="lazy"' in html  # first slide eager, others lazy
    video = re.search(r"<video[^>]*>", html).group(0)
    assert "muted" in video and "loop" in video and "poster=" in video and "autoplay" not in video
    assert re.search(r'<script src="/static/dist/slideshow\.[0-9a-f]+\.js" defer', html)


def test_home_hero_without_content_loads_nothing():
    html = _render("{% home_hero %}")
    assert "<script" not in html and "<video" not in html


def test_image_slider_uses_alt_text_and_description():
    services.slider_image_create(image=files.jpeg(), alt_text="Élèves au mât", description="Cours du mardi")
    html = _render("{% image_slider %}")
    assert 'alt="Élèves au mât"' in html and "Cours du mardi" in html
    assert "data-slideshow-controls" not in html  # one image: nothing to rotate


@pytest.mark.django_db
def test_pictures_and_videos_hosted_elsewhere_wait_for_cookie_consent(client):
    services.media_create(
        title="Photo d'un partenaire", media_type="photo", external_url="https://photos.example/a.jpg"
    )
    services.media_create(
        title="Vidéo d'un partenaire", media_type="video", external_url="https://videos.example/b.mp4"
    )
    html = client.get("/gallery").content.decode()
    assert not re.search(r'\ssrc="https://photos\.example', html)
    assert 'data-consent-src="https://photos.example/a.jpg"' in html
    assert not re.search(r'\ssrc="https://videos\.example', html)
    assert 'data-consent-src="https://videos.example/b.mp4"' in html


def test_home_hero_video_poster_is_its_960_px_webp_rendition_not_the_original():
    """A phone's largest paint on the home page is this poster: the hero's width in WebP, not the full JPEG."""
    media = services.media_create(
        title="Fond", file=files.webm(), poster=files.jpeg(size=(1280, 720)), home_background=True
    )
    html = _render("{% home_hero %}")
    poster = re.search(r'poster="([^"]+)"', html).group(1)
    assert poster.endswith("-960w.webp")
    assert poster == "/uploads/" + dict(media.renditions["webp"])[960]
