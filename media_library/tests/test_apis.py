"""The media library's API: public lists, staff-only writes with multipart payloads."""

import pytest

from media_library import services
from media_library.models import Media, SliderImage, SlideshowImage
from media_library.services import MSG_MEDIA_REQUIRED, MSG_SLIDER_REQUIRED, MSG_SLIDESHOW_REQUIRED
from media_library.uploads import (
    MSG_IMAGE_DAMAGED,
    MSG_IMAGE_TOO_HEAVY,
    MSG_IMAGE_TOO_MANY_PIXELS,
    MSG_IMAGE_TYPES,
    MSG_IMAGE_TYPES_WEBP,
    MSG_MEDIA_TYPES,
)
from studio.api import MSG_FORBIDDEN, MSG_NOT_AUTHENTICATED

from . import files

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_staff(api_client, staff):
    api_client.force_authenticate(staff)
    return api_client


def _slide():
    return services.slideshow_image_create(image=files.jpeg(), text_overlay="Bienvenue")


def _slider():
    return services.slider_image_create(image=files.jpeg(), alt_text="Cours débutant")


def _media():
    return services.media_create(title="Gala", file=files.jpeg())


# --- Public lists ----------------------------------------------------------------------------------------------


def test_public_lists_have_spec_fields(api_client):
    _slide(), _slider(), _media()
    services.media_create(title="Clip", external_url="https://youtu.be/dQw4w9WgXcQ")
    slides = api_client.get("/api/slideshow-images").json()
    assert slides[0]["text_overlay"] == "Bienvenue"
    assert slides[0]["image_url"].startswith("/uploads/slideshow/")
    slider = api_client.get("/api/slider").json()
    assert slider[0]["alt_text"] == "Cours débutant" and slider[0]["url"].startswith("/uploads/slider/")
    media = api_client.get("/api/media").json()
    assert {m["media_type"] for m in media} == {"photo", "video"}
    clip = next(m for m in media if m["media_type"] == "video")
    assert clip["external_url"] == "https://youtu.be/dQw4w9WgXcQ"
    assert clip["embed_url"] == "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"
    photo = next(m for m in media if m["media_type"] == "photo")
    assert photo["file_path"].startswith("media/") and photo["picture"]["srcset_webp"]


@pytest.mark.parametrize("path", ["/api/media", "/api/slider", "/api/slideshow-images"])
def test_list_apis_run_one_query_whatever_the_size(path, api_client, django_assert_num_queries):
    for _ in range(3):
        _slide(), _slider(), _media()
    with django_assert_num_queries(1):
        assert len(api_client.get(path).json()) == 3
    with django_assert_num_queries(0):  # cached until public data changes
        api_client.get(path)


def test_lists_refresh_after_a_change(api_client):
    assert api_client.get("/api/slider").json() == []
    _slider()
    assert len(api_client.get("/api/slider").json()) == 1


# --- Permissions -----------------------------------------------------------------------------------------------

WRITES = [
    ("post", "/api/media", None),
    ("put", "/api/media/{id}", _media),
    ("delete", "/api/media/{id}", _media),
    ("post", "/api/slider", None),
    ("put", "/api/slider/{id}", _slider),
    ("delete", "/api/slider/{id}", _slider),
    ("post", "/api/slideshow-images", None),
    ("put", "/api/slideshow-images/{id}", _slide),
    ("delete", "/api/slideshow-images/{id}", _slide),
]


def _payload():
    return {
        "title": "Titre",
        "alt_text": "Texte",
        "text_overlay": "Texte",
        "image": files.jpeg(),
        "file": files.jpeg(),
    }


@pytest.mark.parametrize(("method", "path", "make"), WRITES)
def test_visitors_cannot_write(method, path, make, api_client):
    target = make() if make else None
    counts = (Media.objects.count(), SliderImage.objects.count(), SlideshowImage.objects.count())
    response = getattr(api_client, method)(path.format(id=target.pk if target else 0), _payload(), format="multipart")
    assert response.status_code == 401
    assert response.json()["error"] == MSG_NOT_AUTHENTICATED
    assert (Media.objects.count(), SliderImage.objects.count(), SlideshowImage.objects.count()) == counts


@pytest.mark.parametrize(("method", "path", "make"), WRITES)
def test_members_cannot_write(method, path, make, api_client, member):
    target = make() if make else None
    counts = (Media.objects.count(), SliderImage.objects.count(), SlideshowImage.objects.count())
    api_client.force_authenticate(member)
    response = getattr(api_client, method)(path.format(id=target.pk if target else 0), _payload(), format="multipart")
    assert response.status_code == 403
    assert response.json()["error"] == MSG_FORBIDDEN
    assert (Media.objects.count(), SliderImage.objects.count(), SlideshowImage.objects.count()) == counts
    if target:
        target.refresh_from_db()


def test_session_members_are_refused_too(client, member):
    client.force_login(member)
    response = client.post("/api/slider", {"alt_text": "x", "image": files.jpeg()})
    assert response.status_code == 403


# --- Staff writes ----------------------------------------------------------------------------------------------


def test_supervisor_adds_a_slideshow_image(api_client, supervisor):
    api_client.force_authenticate(supervisor)
    response = api_client.post(
        "/api/slideshow-images", {"image": files.jpeg(size=(800, 600)), "text_overlay": "Salut"}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    slide = SlideshowImage.objects.get()
    assert (slide.width, slide.height) == (800, 450)
    assert response.json()["image_url"].endswith(".jpg")


def test_staff_edits_and_deletes_a_slideshow_image(as_staff):
    slide = _slide()
    response = as_staff.put(
        f"/api/slideshow-images/{slide.pk}", {"text_overlay": "Nouveau", "order": "4"}, format="multipart"
    )
    assert response.status_code == 200
    slide.refresh_from_db()
    assert (slide.text_overlay, slide.order) == ("Nouveau", 4)
    assert as_staff.delete(f"/api/slideshow-images/{slide.pk}").status_code == 204
    assert not SlideshowImage.objects.exists()


def test_staff_slider_crud(as_staff):
    response = as_staff.post(
        "/api/slider", {"image": files.png(), "alt_text": "Élèves", "description": "Cours"}, format="multipart"
    )
    assert response.status_code == 201
    pk = response.json()["id"]
    response = as_staff.put(f"/api/slider/{pk}", {"alt_text": "Élèves au mât"}, format="multipart")
    assert response.status_code == 200 and response.json()["alt_text"] == "Élèves au mât"
    assert response.json()["description"] == "Cours"
    assert as_staff.delete(f"/api/slider/{pk}").status_code == 204


def test_staff_media_crud_with_a_video_file(as_staff):
    response = as_staff.post(
        "/api/media",
        {"title": "Gala", "description": "", "media_type": "photo", "file": files.webm()},
        format="multipart",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["media_type"] == "video" and body["file_type"] == "video/webm"
    response = as_staff.put(f"/api/media/{body['id']}", {"title": "Gala 2026"}, format="multipart")
    assert response.status_code == 200 and response.json()["title"] == "Gala 2026"
    assert as_staff.delete(f"/api/media/{body['id']}").status_code == 204


def test_staff_media_with_an_external_url(as_staff):
    response = as_staff.post(
        "/api/media", {"title": "Vimeo", "external_url": "https://vimeo.com/76979871"}, format="multipart"
    )
    assert response.status_code == 201
    assert response.json()["media_type"] == "video"


def test_unknown_ids_are_404(as_staff):
    assert as_staff.put("/api/media/999", {"title": "x"}, format="multipart").status_code == 404
    assert as_staff.delete("/api/slider/999").status_code == 404


# --- Bad uploads through the API -------------------------------------------------------------------------------

BAD_UPLOADS = [
    ("/api/slider", "image", {"alt_text": "Texte"}, files.html_as_png, MSG_IMAGE_TYPES),
    ("/api/slider", "image", {"alt_text": "Texte"}, files.svg, MSG_IMAGE_TYPES),
    ("/api/slider", "image", {"alt_text": "Texte"}, files.truncated_jpeg, MSG_IMAGE_DAMAGED),
    ("/api/slider", "image", {"alt_text": "Texte"}, files.pixel_flood_png, MSG_IMAGE_TOO_MANY_PIXELS),
    ("/api/slideshow-images", "image", {}, files.html_as_png, MSG_IMAGE_TYPES_WEBP),
    ("/api/slideshow-images", "image", {}, files.svg, MSG_IMAGE_TYPES_WEBP),
    ("/api/media", "file", {"title": "Titre"}, files.text_as_mp4, MSG_MEDIA_TYPES),
    ("/api/media", "file", {"title": "Titre"}, files.svg, MSG_MEDIA_TYPES),
    ("/api/media", "file", {"title": "Titre"}, files.truncated_jpeg, MSG_IMAGE_DAMAGED),
]


@pytest.mark.parametrize(("path", "field", "data", "make", "message"), BAD_UPLOADS)
def test_bad_uploads_are_refused_with_their_message(path, field, data, make, message, as_staff, stored_files):
    response = as_staff.post(path, {**data, field: make()}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"] == message
    assert not (Media.objects.exists() or SliderImage.objects.exists() or SlideshowImage.objects.exists())
    assert stored_files() == []


def test_oversize_upload_through_the_api(settings, as_staff, stored_files):
    settings.MAX_IMAGE_UPLOAD_BYTES = 1024
    response = as_staff.post("/api/slider", {"alt_text": "x", "image": files.jpeg(size=(900, 900))}, format="multipart")
    assert response.json()["error"] == MSG_IMAGE_TOO_HEAVY.format(limit="1 Ko")
    assert stored_files() == []


@pytest.mark.parametrize(
    ("path", "data", "message"),
    [
        ("/api/slider", {"alt_text": "Texte"}, MSG_SLIDER_REQUIRED),
        ("/api/slider", {"alt_text": "", "image": "jpeg"}, MSG_SLIDER_REQUIRED),
        ("/api/slideshow-images", {"text_overlay": "Texte"}, MSG_SLIDESHOW_REQUIRED),
        ("/api/media", {"title": "Titre"}, MSG_MEDIA_REQUIRED),
        ("/api/media", {"title": "", "external_url": "https://vimeo.com/1"}, MSG_MEDIA_REQUIRED),
    ],
)
def test_missing_fields_use_spec_messages(path, data, message, as_staff):
    if data.get("image") == "jpeg":
        data = {**data, "image": files.jpeg()}
    response = as_staff.post(path, data, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"] == message


# --- Typed input, one error contract --------------------------------------------------------------------------


def test_media_error_is_an_application_error_with_a_code():
    from studio.errors import ApplicationError

    error = services.MediaError.of("media_required")
    assert isinstance(error, ApplicationError)
    assert (error.message, error.code, error.status) == (MSG_MEDIA_REQUIRED, "media_required", 400)


def test_a_refusal_answers_the_error_shape_with_its_code(as_staff):
    response = as_staff.post(
        "/api/media", {"title": "Clip", "home_background": "true", "external_url": "https://vimeo.com/1"}
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": services.MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE,
        "message": services.MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE,
        "code": "home_background_needs_video_file",
        "errors": {"home_background": [services.MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE]},
    }


@pytest.mark.parametrize("order", ["abc", "-1", "1.5", "99999999999"])
def test_rubbish_order_is_refused_in_french(order, as_staff):
    from media_library.apis import MSG_ORDER_INVALID

    slide = _slide()
    response = as_staff.put(f"/api/slideshow-images/{slide.pk}", {"order": order}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_ORDER_INVALID
    slide.refresh_from_db()
    assert slide.order == 0


def test_unknown_media_type_is_refused(as_staff):
    response = as_staff.post(
        "/api/media",
        {"title": "Clip", "media_type": "gif", "external_url": "https://example.com/a"},
        format="multipart",
    )
    assert response.status_code == 400
    assert "media_type" in response.json()["errors"]
    assert not Media.objects.exists()


def test_invalid_external_url_uses_the_spec_message(as_staff):
    response = as_staff.post("/api/media", {"title": "Clip", "external_url": "pas une url"}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"] == services.MSG_MEDIA_URL_INVALID


def test_editing_without_the_flag_keeps_the_home_background(as_staff):
    video = services.media_create(title="Fond", file=files.webm(), home_background=True)
    response = as_staff.put(f"/api/media/{video.pk}", {"title": "Fond 2"}, format="multipart")
    assert response.status_code == 200 and response.json()["home_background"] is True
    video.refresh_from_db()
    assert video.home_background


def test_a_text_value_for_a_file_keeps_the_stored_file(as_staff):
    slider_image = _slider()
    name = slider_image.image.name
    response = as_staff.put(
        f"/api/slider/{slider_image.pk}", {"alt_text": "Nouveau", "image": "/uploads/old.jpg"}, format="multipart"
    )
    assert response.status_code == 200
    slider_image.refresh_from_db()
    assert (slider_image.image.name, slider_image.alt_text) == (name, "Nouveau")


def test_write_schemas_describe_the_file_fields():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    body = schema["paths"]["/api/slider"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
    create = components[body["$ref"].rsplit("/", 1)[-1]]
    assert create["properties"]["image"] == {**create["properties"]["image"], "type": "string", "format": "binary"}
    assert set(create["required"]) == {"image", "alt_text"}
    listing = schema["paths"]["/api/media"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert listing["type"] == "array"


def test_the_schema_says_a_new_media_needs_a_file_or_a_url():
    from drf_spectacular.generators import SchemaGenerator

    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    assert {tuple(branch["required"]) for branch in components["MediaInput"]["anyOf"]} == {("file",), ("external_url",)}
    assert "anyOf" not in components["MediaUpdateInput"]


def test_removing_the_url_of_an_item_without_a_file_is_a_conflict(as_staff):
    clip = services.media_create(title="Clip", external_url="https://vimeo.com/76979871")
    response = as_staff.put(f"/api/media/{clip.pk}", {"title": "Clip", "external_url": ""}, format="multipart")
    assert response.status_code == 409 and response.json()["error"] == MSG_MEDIA_REQUIRED
    clip.refresh_from_db()
    assert clip.external_url == "https://vimeo.com/76979871"


def test_a_photo_cannot_become_the_home_background(as_staff):
    photo = _media()
    response = as_staff.put(f"/api/media/{photo.pk}", {"title": "Gala", "home_background": "true"}, format="multipart")
    assert response.status_code == 409
    assert response.json()["error"] == services.MSG_HOME_BACKGROUND_NEEDS_VIDEO_FILE
    response = as_staff.put(f"/api/media/{photo.pk}", {"title": "Gala", "home_background": "oui"}, format="multipart")
    assert response.status_code == 400 and "home_background" in response.json()["errors"]


def test_an_ftp_url_is_refused_at_the_boundary(as_staff):
    response = as_staff.post("/api/media", {"title": "Clip", "external_url": "ftp://example.com/a"}, format="multipart")
    assert response.status_code == 400 and response.json()["error"] == services.MSG_MEDIA_URL_INVALID
    assert response.json()["errors"]["external_url"] == [services.MSG_MEDIA_URL_INVALID]


# --- What schemathesis found: the schema and the server agree -------------------------------------------------


def test_an_external_url_is_any_http_address_the_schema_pattern_allows(as_staff):
    url = "https://" + "0" * 63 + "." + "a" * 63 + ".a"
    response = as_staff.post("/api/media", {"title": "Clip", "external_url": url}, format="multipart")
    assert response.status_code == 201 and response.json()["external_url"] == url


def test_an_external_url_with_spaces_around_is_refused(as_staff):
    response = as_staff.post(
        "/api/media", {"title": "Clip", "external_url": " https://vimeo.com/1"}, format="multipart"
    )
    assert response.status_code == 400 and response.json()["error"] == services.MSG_MEDIA_URL_INVALID


def test_a_form_without_any_field_is_refused(as_staff):
    slide = _slide()
    response = as_staff.generic(
        "PUT",
        f"/api/slideshow-images/{slide.pk}",
        b"--b\r\n[]--b--\r\n",
        content_type="multipart/form-data; boundary=b",
    )
    assert response.status_code == 400 and response.json()["code"] == "form_empty"
    assert response.json()["error"] == services.MSG_FORM_EMPTY


def test_a_poster_is_checked_by_its_bytes_even_for_a_photo(as_staff, stored_files):
    poster = files.upload("poster.jpg", b"\xf3\xa4\xab\x98\x7f", "image/jpeg")
    response = as_staff.post(
        "/api/media", {"title": "Gala", "file": files.jpeg(), "poster": poster}, format="multipart"
    )
    assert response.status_code == 400
    assert not Media.objects.exists()


def test_an_empty_order_in_a_form_is_refused_not_ignored(as_staff):
    from media_library.apis import MSG_ORDER_INVALID

    slide = _slide()
    response = as_staff.put(f"/api/slideshow-images/{slide.pk}", {"order": ""}, format="multipart")
    assert response.status_code == 400 and response.json()["error"] == MSG_ORDER_INVALID


def test_a_slider_edit_without_alt_text_keeps_it_an_empty_one_is_refused(as_staff):
    slider_image = _slider()
    response = as_staff.put(f"/api/slider/{slider_image.pk}", {"description": "Nouveau"}, format="multipart")
    assert response.status_code == 200 and response.json()["alt_text"] == "Cours débutant"
    response = as_staff.put(f"/api/slider/{slider_image.pk}", {"alt_text": " "}, format="multipart")
    assert response.status_code == 400 and response.json()["error"] == MSG_SLIDER_REQUIRED
