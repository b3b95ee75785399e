"""The Django admin stores uploads through the same checks and services as the API."""

import pytest

from media_library.models import SliderImage
from media_library.uploads import MSG_IMAGE_TYPES

from . import files

pytestmark = pytest.mark.django_db


def test_admin_adds_a_slider_image_with_renditions(client, staff):
    client.force_login(staff)
    response = client.post(
        "/django-admin/media_library/sliderimage/add/",
        {"image": files.png(), "alt_text": "Élèves", "description": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    item = SliderImage.objects.get()
    assert item.renditions["webp"] and item.image.name.startswith("slider/")


def test_admin_refuses_a_disguised_file(client, staff, stored_files):
    client.force_login(staff)
    response = client.post(
        "/django-admin/media_library/sliderimage/add/", {"image": files.html_as_png(), "alt_text": "Élèves"}
    )
    assert response.status_code == 200
    assert MSG_IMAGE_TYPES in response.content.decode()
    assert not SliderImage.objects.exists() and stored_files() == []


def test_admin_edits_and_deletes(client, staff):
    from media_library import services

    item = services.slider_image_create(image=files.jpeg(), alt_text="Avant")
    client.force_login(staff)
    url = f"/django-admin/media_library/sliderimage/{item.pk}/change/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"alt_text": "Après", "description": "d"})
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.alt_text == "Après"
    response = client.post(f"/django-admin/media_library/sliderimage/{item.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not SliderImage.objects.exists()


def test_admin_shows_a_refused_media_with_its_message(client, staff):
    """MediaError is an ApplicationError, not a Django ValidationError: the admin form still shows it."""
    from media_library.services import MSG_SLIDESHOW_REQUIRED

    client.force_login(staff)
    response = client.post("/django-admin/media_library/slideshowimage/add/", {"text_overlay": "Bonjour", "order": 0})
    assert response.status_code == 200
    assert MSG_SLIDESHOW_REQUIRED in response.content.decode()
