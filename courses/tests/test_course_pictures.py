"""Each course can have a picture: stored with WebP/JPEG renditions by the media library's helpers, shown
on the home page's cards and the course page with its size and a French alt text, uploaded by staff in the admin."""

import io
from itertools import combinations

import pytest
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db import connection
from django.test.utils import CaptureQueriesContext
from PIL import Image, ImageChops, ImageStat

from courses import seed as course_seed
from courses.management.commands.seed_demo import seed_catalogue
from courses.models import Course
from courses.services.catalogue import course_set_picture
from media_library.tests import files
from media_library.uploads import MSG_IMAGE_TOO_HEAVY, MSG_IMAGE_TYPES_WEBP

from .factories import CourseFactory, CourseSessionFactory

pytestmark = pytest.mark.django_db


def _thumb(name: str) -> Image.Image:
    with default_storage.open(name) as handle:
        return Image.open(io.BytesIO(handle.read())).convert("L").resize((32, 20))


def test_the_seed_gives_each_course_its_own_picture_once():
    seed_catalogue()
    course_seed.run()
    courses = list(Course.objects.all())
    assert len(courses) >= 8
    for course in courses:
        assert course.image.name.startswith("courses/"), course.title
        assert course.image_width > 0 and course.image_height > 0
        assert course.image_renditions["webp"] and course.image_renditions["jpeg"]
        assert course.image_alt.startswith("Illustration : ")
    thumbs = {course.title: _thumb(course.image.name) for course in courses}
    for a, b in combinations(thumbs, 2):
        difference = ImageStat.Stat(ImageChops.difference(thumbs[a], thumbs[b])).mean[0]
        assert difference > 6, f"{a} and {b} look alike ({difference:.1f})"

    names = sorted(Course.objects.values_list("image", flat=True))
    seed_catalogue()
    out = io.StringIO()
    course_seed.run(stdout=out)
    assert out.getvalue().strip() == "Cours : 0 photo(s) ajoutée(s)."
    assert sorted(Course.objects.values_list("image", flat=True)) == names
    assert Course.objects.count() == len(courses)


def test_home_cards_show_the_picture_with_its_size_lazily_and_a_french_alt():
    course = CourseFactory(title="Cerceau aérien")
    course_set_picture(course=course, image=files.jpeg(size=(1200, 800)), alt_text="Illustration : un cerceau doré")
    bare = CourseFactory(title="Cabaret")

    html = client_get("/?section=cours")

    card = html[html.index(f'href="/courses/{course.pk}?from=home"') :]
    card = card[: card.index("</li>")]
    assert '<source type="image/webp" srcset="' in card
    assert 'width="1200" height="800"' in card
    assert 'alt="Illustration : un cerceau doré"' in card
    assert 'loading="lazy"' in card
    bare_card = html[html.index(f'href="/courses/{bare.pk}?from=home"') :]
    assert "<img" not in bare_card[: bare_card.index("</li>")]


def test_a_picture_without_alt_is_described_by_the_course_title():
    course = CourseFactory(title="Exotic Pole")
    course_set_picture(course=course, image=files.png())
    assert course.picture_alt == "Illustration du cours Exotic Pole"


def test_the_course_page_shows_the_picture_with_its_size():
    course = CourseFactory(title="Cabaret")
    course_set_picture(course=course, image=files.jpeg(size=(1000, 750)), alt_text="Illustration : un éventail")

    html = client_get(f"/courses/{course.pk}")

    picture = html[html.index("<picture") : html.index("</picture>")]
    assert 'width="1000" height="750"' in picture and 'alt="Illustration : un éventail"' in picture
    assert 'type="image/webp"' in picture


def test_pictures_add_no_query_to_the_home_page():
    courses = CourseFactory.create_batch(3)
    for course in courses:
        CourseSessionFactory(course=course)

    def count():
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            client_get("/?section=cours")
        return len(queries)

    without = count()
    for course in courses:
        course_set_picture(course=course, image=files.jpeg())
    CourseFactory.create_batch(4)
    assert count() == without


def test_replacing_a_picture_deletes_the_old_files(django_capture_on_commit_callbacks):
    course = CourseFactory()
    course_set_picture(course=course, image=files.jpeg())
    old = [course.image.name, *(name for _w, name in course.image_renditions["jpeg"])]
    with django_capture_on_commit_callbacks(execute=True):
        course_set_picture(course=course, image=files.png())
    assert course.image.name.endswith(".png")
    assert not any(default_storage.exists(name) for name in old)


def test_staff_upload_a_picture_in_the_admin(client, staff):
    course = CourseFactory(title="Cerceau aérien")
    client.force_login(staff)
    url = f"/django-admin/courses/course/{course.pk}/change/"
    assert "Photo du cours" in client.get(url).content.decode()
    response = client.post(url, _admin_data(course, photo=files.png(), image_alt="Illustration : un cerceau"))
    assert response.status_code == 302, response.content.decode()[:3000]
    course.refresh_from_db()
    assert course.image.name.startswith("courses/") and course.image_renditions["webp"]
    assert course.image_alt == "Illustration : un cerceau"


def test_the_admin_refuses_a_disguised_or_too_heavy_file(client, staff, settings):
    course = CourseFactory()
    client.force_login(staff)
    url = f"/django-admin/courses/course/{course.pk}/change/"
    response = client.post(url, _admin_data(course, photo=files.html_as_png()))
    assert response.status_code == 200
    assert MSG_IMAGE_TYPES_WEBP in response.content.decode()
    settings.MAX_IMAGE_UPLOAD_BYTES = 100
    response = client.post(url, _admin_data(course, photo=files.jpeg()))
    assert response.status_code == 200
    assert "L&#x27;image dépasse la taille maximale autorisée" in response.content.decode()
    assert MSG_IMAGE_TOO_HEAVY.startswith("L'image dépasse la taille maximale autorisée")
    course.refresh_from_db()
    assert not course.image


def _admin_data(course, **extra):
    return {
        "title": course.title,
        "description": course.description,
        "duration": course.duration,
        "video_url": "",
        "level": course.level,
        "position": course.position,
        "image_alt": "",
        "free_cancellation_hours": course.free_cancellation_hours,  # the booking windows' fields, unchanged
        "booking_opens_days_before": "",
        "booking_opens_time": "",
        **extra,
    }


def client_get(url: str) -> str:
    from django.test import Client

    response = Client().get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_staff_add_and_replace_a_picture_through_the_api(api_client, staff):
    """The dashboard's course form sends the picture as multipart to the same endpoints."""
    api_client.force_authenticate(staff)
    created = api_client.post(
        "/api/courses",
        {
            "title": "Chair dance",
            "description": "Sur une chaise.",
            "level": "Débutant",
            "image": files.png(),
            "image_alt": "Illustration : une chaise",
            "videoUrl": "",  # as the dashboard sends it
            "duration": "60",
        },
        format="multipart",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["image_url"].endswith("w.jpg") and body["image_alt"] == "Illustration : une chaise"
    course = Course.objects.get(pk=body["id"])
    assert course.image_renditions["webp"]
    updated = api_client.put(f"/api/courses/{course.pk}", {"image": files.jpeg()}, format="multipart")
    assert updated.status_code == 200 and updated.json()["image_url"] != body["image_url"]
    assert updated.json()["title"] == "Chair dance"


def test_the_api_refuses_a_disguised_picture_and_creates_nothing(api_client, staff, settings):
    from pathlib import Path

    def stored_files():
        root = Path(settings.MEDIA_ROOT)
        return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []

    api_client.force_authenticate(staff)
    response = api_client.post(
        "/api/courses",
        {"title": "Chair dance", "description": "Sur une chaise.", "image": files.html_as_png()},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["error"] == MSG_IMAGE_TYPES_WEBP
    assert not Course.objects.filter(title="Chair dance").exists() and stored_files() == []
