"""Profile and staff user APIs (docs/decisions.md 4, 11)."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape
from PIL import Image

from accounts.models import Role, User
from accounts.selectors import DEFAULT_AVATAR
from accounts.services.errors import (
    MSG_ADMIN_DELETE_FORBIDDEN,
    MSG_AVATAR_INVALID,
    MSG_AVATAR_TOO_LARGE,
    MSG_LAST_ADMIN,
    MSG_NAMES_REQUIRED,
    MSG_PHONE_INVALID,
    MSG_POSTAL_CODE_INVALID,
    MSG_PROFILE_FORBIDDEN,
    MSG_ROLE_CHANGE_FORBIDDEN,
)
from accounts.services.profile import AVATAR_SIZE_PX, MSG_EMAIL_CHANGE_PENDING, MSG_PROFILE_UPDATED
from accounts.services.staff import MSG_USER_DELETED
from accounts.tests.factories import StaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def image_file(fmt="PNG", size=(900, 600), name=None, mode="RGB"):
    buffer = io.BytesIO()
    Image.new(mode, size, (200, 40, 120)).save(buffer, format=fmt)
    ext = {"JPEG": "jpg"}.get(fmt, fmt.lower())
    return SimpleUploadedFile(name or f"photo.{ext}", buffer.getvalue(), content_type=f"image/{ext}")


@pytest.fixture
def member_client(api_client, member):
    api_client.force_authenticate(member)
    return api_client


# --- Own profile -------------------------------------------------------------------------------------------


def test_profile_answers_every_field_with_the_default_avatar(member_client, member):
    body = member_client.get("/api/users/profile").json()
    assert body["id"] == member.pk and body["email"] == member.email
    assert body["name"] == member.last_name
    for field in ("first_name", "last_name", "phone", "address", "postal_code", "city", "country", "role"):
        assert field in body
    assert body["avatar"].endswith(DEFAULT_AVATAR)


def test_profile_needs_a_login(api_client):
    assert api_client.get("/api/users/profile").status_code == 401


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "WEBP"])
def test_update_profile_with_an_avatar_is_stored_resized(member_client, member, fmt):
    payload = {
        "first_name": "Emma",
        "last_name": "Petit-Durand",
        "phone": "07 00 11 22 33",
        "postal_code": "69003",
        "city": "Villeurbanne",
        "avatar": image_file(fmt),
    }
    response = member_client.put("/api/users/profile", payload, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["message"] == MSG_PROFILE_UPDATED
    member.refresh_from_db()
    assert (member.last_name, member.phone, member.city) == ("Petit-Durand", "0700112233", "Villeurbanne")
    with Image.open(member.avatar.path) as stored:
        assert stored.format == "WEBP" and stored.size == (AVATAR_SIZE_PX, AVATAR_SIZE_PX)
    assert response.json()["avatar"] == member.avatar.url


def test_a_new_avatar_replaces_the_old_file(member_client, member):
    member_client.put("/api/users/profile", {"avatar": image_file()}, format="multipart")
    member.refresh_from_db()
    old_path = member.avatar.path
    member_client.put("/api/users/profile", {"avatar": image_file("JPEG")}, format="multipart")
    member.refresh_from_db()
    import os

    assert member.avatar.path != old_path and not os.path.exists(old_path)
    member_client.put("/api/users/profile", {"remove_avatar": "true"}, format="multipart")
    member.refresh_from_db()
    assert not member.avatar


@pytest.mark.parametrize(
    "upload",
    [
        SimpleUploadedFile("fake.png", b"<?php echo 'hi'; ?>", content_type="image/png"),
        SimpleUploadedFile("x.svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>', content_type="image/svg+xml"),
    ],
)
def test_avatar_is_checked_by_content(member_client, member, upload):
    response = member_client.put("/api/users/profile", {"avatar": upload}, format="multipart")
    assert response.status_code == 400 and response.json()["error"] == MSG_AVATAR_INVALID
    member.refresh_from_db()
    assert not member.avatar


def test_truncated_image_is_refused(member_client):
    data = image_file("PNG").read()
    upload = SimpleUploadedFile("cut.png", data[: len(data) // 2], content_type="image/png")
    response = member_client.put("/api/users/profile", {"avatar": upload}, format="multipart")
    assert response.json()["error"] == MSG_AVATAR_INVALID


def test_bmp_is_refused(member_client):
    response = member_client.put("/api/users/profile", {"avatar": image_file("BMP")}, format="multipart")
    assert response.json()["error"] == MSG_AVATAR_INVALID


def test_avatar_size_limit(member_client, settings):
    settings.MAX_AVATAR_UPLOAD_BYTES = 1024 * 1024
    big = SimpleUploadedFile("big.png", b"\x89PNG" + b"0" * (1024 * 1024), content_type="image/png")
    response = member_client.put("/api/users/profile", {"avatar": big}, format="multipart")
    assert response.json()["error"] == MSG_AVATAR_TOO_LARGE.format(max_mb=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"phone": "123"}, MSG_PHONE_INVALID),
        ({"phone": ""}, MSG_PHONE_INVALID),
        ({"postal_code": "690"}, MSG_POSTAL_CODE_INVALID),
        ({"first_name": " "}, MSG_NAMES_REQUIRED),
    ],
)
def test_profile_checks_phone_postal_code_and_names(member_client, member, change, message):
    response = member_client.put("/api/users/profile", change, format="json")
    assert response.status_code == 400 and response.json()["error"] == message
    member.refresh_from_db()
    assert member.phone == "0612345678" and member.first_name == "Emma"


def test_member_cannot_change_own_role_or_email(member_client, member):
    response = member_client.put("/api/users/profile", {"role": "admin"}, format="json")
    assert response.status_code == 403 and response.json()["error"] == MSG_ROLE_CHANGE_FORBIDDEN
    member_client.put("/api/users/profile", {"email": "autre@example.fr", "city": "Paris"}, format="json")
    member.refresh_from_db()
    assert member.role == Role.USER and member.email == "emma@example.fr" and member.city == "Paris"


# --- Another member's profile ----------------------------------------------------------------------------


def test_member_can_neither_read_nor_change_another_profile_by_api(member_client, other_member):
    read = member_client.get(f"/api/users/{other_member.pk}")
    assert read.status_code == 403 and read.json()["error"] == MSG_PROFILE_FORBIDDEN
    write = member_client.put(f"/api/users/{other_member.pk}", {"city": "Pirate"}, format="json")
    assert write.status_code == 403
    assert member_client.delete(f"/api/users/{other_member.pk}").status_code == 403
    other_member.refresh_from_db()
    assert other_member.city == "Lyon"
    assert member_client.get("/api/users/999999").status_code == 403  # existence is not revealed


def test_member_reaches_own_id(member_client, member):
    assert member_client.get(f"/api/users/{member.pk}").json()["id"] == member.pk
    assert member_client.put(f"/api/users/{member.pk}", {"city": "Bron"}, format="json").status_code == 200


def test_member_can_neither_read_nor_change_another_profile_by_page(client, member, other_member):
    client.force_login(member)
    page = client.get(f"/user/profile/{other_member.pk}")
    assert page.status_code == 403 and other_member.email not in page.text
    post = client.post(
        f"/user/profile/{other_member.pk}",
        {"first_name": "X", "last_name": "Y", "phone": "0600000000", "postal_code": "75001"},
    )
    assert post.status_code == 403
    other_member.refresh_from_db()
    assert other_member.first_name == "Lucie"
    assert client.get(f"/user/profile/{member.pk}").status_code == 200


def test_staff_see_and_edit_another_profile_page(client, supervisor, member):
    client.force_login(supervisor)
    page = client.get(f"/user/profile/{member.pk}")
    assert page.status_code == 200 and member.email in page.text
    assert 'name="role"' not in page.text  # only an admin is offered the role
    response = client.post(
        f"/user/profile/{member.pk}",
        {
            "first_name": "Emma",
            "last_name": "Petit",
            "phone": "0612345678",
            "postal_code": "69001",
            "city": "Caluire",
            "email": "emma.petit@example.fr",
        },
    )
    assert response.status_code == 302 and response["Location"] == f"/user/profile/{member.pk}"
    member.refresh_from_db()
    # A new e-mail waits for its confirmation at the new address (docs/decisions.md 32).
    assert member.city == "Caluire" and member.pending_email == "emma.petit@example.fr"
    assert member.email == "emma@example.fr"
    assert client.get("/user/profile/999999").status_code == 404


# --- The page ----------------------------------------------------------------------------------------------


def test_profile_page_view_and_edit_modes(client, member):
    client.force_login(member)
    page = client.get("/user/profile")
    assert "Modifier le Profil" in page.text and DEFAULT_AVATAR in page.text
    assert "data-profile-edit-panel hidden" in page.text
    edit = client.get("/user/profile?edit=1")
    assert "data-profile-view hidden" in edit.text


def test_profile_page_saves_with_an_avatar_and_returns_to_view(client, member):
    client.force_login(member)
    response = client.post(
        "/user/profile",
        {
            "first_name": "Emma",
            "last_name": "Petit",
            "phone": "0612345678",
            "address": "1 quai",
            "postal_code": "69005",
            "city": "Lyon",
            "country": "France",
            "avatar": image_file("JPEG"),
        },
    )
    assert response.status_code == 302 and response["Location"] == "/user/profile"
    view = client.get("/user/profile")
    assert MSG_PROFILE_UPDATED in view.text
    member.refresh_from_db()
    assert member.address == "1 quai" and member.avatar.url in view.text


def test_profile_page_shows_errors_in_edit_mode(client, member):
    client.force_login(member)
    response = client.post(
        "/user/profile", {"first_name": "Emma", "last_name": "Petit", "phone": "12", "postal_code": "69005"}
    )
    assert response.status_code == 400 and MSG_PHONE_INVALID in response.text
    assert "data-profile-view hidden" in response.text


# --- Staff APIs and roles ------------------------------------------------------------------------------------


def test_user_list_is_for_staff(api_client, member, supervisor):
    assert api_client.get("/api/users").status_code == 401
    api_client.force_authenticate(member)
    assert api_client.get("/api/users").status_code == 403
    api_client.force_authenticate(supervisor)
    assert api_client.get("/api/users").status_code == 200


def test_user_list_paginates_sorts_and_searches(api_client, staff):
    for i in range(12):
        UserFactory(last_name=f"Nom{i:02d}", email=f"u{i:02d}@example.fr")
    UserFactory(last_name="Zola", first_name="Anouk", email="anouk@danse.fr")
    api_client.force_authenticate(staff)
    page1 = api_client.get("/api/users?ordering=last_name").json()
    assert page1["count"] == 14 and len(page1["results"]) == 10 and page1["next"]
    assert page1["results"][0]["last_name"] == "Laurent"  # staff fixture
    desc = api_client.get("/api/users?ordering=-last_name&page_size=3").json()["results"]
    assert [u["last_name"] for u in desc] == ["Zola", "Nom11", "Nom10"]
    assert [u["email"] for u in api_client.get("/api/users?search=ZOLA").json()["results"]] == ["anouk@danse.fr"]
    assert api_client.get("/api/users?search=danse.fr").json()["count"] == 1
    assert api_client.get("/api/users?ordering=password").status_code == 200  # unknown fields are ignored


def test_user_list_runs_a_fixed_number_of_queries(client, staff, django_assert_num_queries):
    UserFactory.create_batch(15)
    client.force_login(staff)
    # the session, the user, the list's count, then its page
    with django_assert_num_queries(4):
        assert client.get("/api/users?page_size=50").status_code == 200


def test_supervisor_cannot_change_a_role(api_client, supervisor, member):
    api_client.force_authenticate(supervisor)
    response = api_client.put(f"/api/users/{member.pk}", {"role": "admin", "city": "Paris"}, format="json")
    assert response.status_code == 403 and response.json()["error"] == MSG_ROLE_CHANGE_FORBIDDEN
    member.refresh_from_db()
    assert member.role == Role.USER and member.city == "Lyon"
    ok = api_client.put(f"/api/users/{member.pk}", {"role": "user", "city": "Paris"}, format="json")
    assert ok.status_code == 200  # sending the unchanged role is fine


def test_supervisor_cannot_change_a_role_by_page(client, supervisor, member):
    client.force_login(supervisor)
    response = client.post(
        f"/user/profile/{member.pk}",
        {"first_name": "Emma", "last_name": "Petit", "phone": "0612345678", "postal_code": "69001", "role": "admin"},
    )
    assert response.status_code == 403 and escape(MSG_ROLE_CHANGE_FORBIDDEN) in response.text
    member.refresh_from_db()
    assert member.role == Role.USER


def test_admin_changes_roles_but_not_the_last_admin(api_client, staff, member):
    api_client.force_authenticate(staff)
    response = api_client.put(f"/api/users/{member.pk}", {"role": "supervisor"}, format="json")
    assert response.status_code == 200 and response.json()["role"] == "supervisor"
    last = api_client.put(f"/api/users/{staff.pk}", {"role": "user"}, format="json")
    # 409: the studio's state (one admin left) refuses it, not the request's shape.
    assert last.status_code == 409 and last.json()["error"] == MSG_LAST_ADMIN
    bad = api_client.put(f"/api/users/{member.pk}", {"role": "dieu"}, format="json")
    assert bad.status_code == 400


def test_deletions(api_client, staff, supervisor, member):
    other_admin = StaffFactory()
    api_client.force_authenticate(supervisor)
    refused = api_client.delete(f"/api/users/{other_admin.pk}")
    assert refused.status_code == 403 and refused.json()["error"] == MSG_ADMIN_DELETE_FORBIDDEN
    done = api_client.delete(f"/api/users/{member.pk}")
    assert done.status_code == 200 and done.json()["message"] == MSG_USER_DELETED
    assert not User.objects.filter(pk=member.pk).exists()
    api_client.force_authenticate(staff)
    assert api_client.delete(f"/api/users/{other_admin.pk}").status_code == 200
    assert api_client.delete(f"/api/users/{staff.pk}").status_code == 403  # not oneself (403: not the actor's to do)
    assert api_client.delete("/api/users/999999").status_code == 404


def test_staff_put_the_user_object_back_as_they_got_it(api_client, staff, member):
    api_client.force_authenticate(staff)
    user = api_client.get(f"/api/users/{member.pk}").json()
    user["city"] = "Écully"
    response = api_client.put(f"/api/users/{member.pk}", user, format="json")
    assert response.status_code == 200, response.json()
    member.refresh_from_db()
    assert member.city == "Écully"


def test_an_old_account_without_phone_can_still_edit_other_fields(api_client, staff):
    legacy = UserFactory(phone="", postal_code="")
    api_client.force_authenticate(staff)
    payload = {"phone": "", "postal_code": "", "city": "Oullins"}
    response = api_client.put(f"/api/users/{legacy.pk}", payload, format="json")
    assert response.status_code == 200
    assert (
        api_client.put(f"/api/users/{legacy.pk}", {"phone": "12"}, format="json").json()["error"] == MSG_PHONE_INVALID
    )


def test_the_saved_message_stays_on_the_page_announced_once(client, member):
    """The success is a status message in the page, shown once, rather than a 3 s toast gone before it is read."""
    client.force_login(member)
    data = {"first_name": "Emma", "last_name": "Petit", "phone": "0612345678", "postal_code": "69005"}
    assert client.post("/user/profile", data).status_code == 302
    view = client.get("/user/profile").text
    status = view[view.index("data-profile-saved") - 60 :]
    status = status[: status.index("</p>")]
    assert 'role="status"' in status and MSG_PROFILE_UPDATED in status
    assert view.count(MSG_PROFILE_UPDATED) == 1  # not a toast as well
    assert MSG_PROFILE_UPDATED not in client.get("/user/profile").text


def test_a_new_address_waiting_for_confirmation_is_said_in_the_page(client, staff, mailoutbox):
    member = UserFactory(phone="0612345678", postal_code="69005")
    client.force_login(staff)
    data = {
        "first_name": member.first_name or "Emma",
        "last_name": member.last_name or "Petit",
        "phone": "0612345678",
        "postal_code": "69005",
        "email": "nouvelle@example.fr",
    }
    response = client.post(f"/user/profile/{member.pk}", data)
    assert response.status_code == 302, response.content.decode()[:500]
    view = client.get(f"/user/profile/{member.pk}").text
    status = view[view.index("data-profile-saved") - 60 :]
    assert 'role="status"' in status[: status.index("</p>")]
    assert escape(MSG_EMAIL_CHANGE_PENDING) in status[: status.index("</p>")]
