"""Every route of the site (public, login required, staff) answers with the right status for a visitor, a member
and staff."""

import pytest

from courses.tests.factories import CourseFactory

PUBLIC = [
    "/",
    "/login",
    "/register",
    "/contact",
    "/courses/calendar",
    "/weekly",
    "/evjf-evg",
    "/room-rental",
    "/rental-form",
    "/confirmation",
    "/mentions-legales",
    "/politique-confidentialite",
    "/tarifs",
    "/tarifs-page",
    "/blog-facebook",
    "/choisir-nous",
    "/gallery",
    "/confirm-email/un-jeton",
    "/forgot-password",
    "/reset-password/un-jeton",
]
# Pages a logged-in member is sent away from (nothing to do there once logged in) may redirect.
AUTH_ONLY_FOR_VISITORS = {
    "/login",
    "/register",
    "/forgot-password",
    "/reset-password/un-jeton",
    "/confirm-email/un-jeton",
}
MEMBER = ["/user/profile", "/my-courses", "/user/messages"]
STAFF = [
    "/admin/dashboard",
    "/admin/users",
    "/admin/courses",
    "/admin/testimonials",
    "/admin/instructors",
    "/admin/contact-messages",
    "/admin/sessions",
    "/admin/slider",
    "/admin/tarifs",
    "/admin/media",
    "/admin/slideshow",
    "/admin/orders",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PUBLIC)
def test_public_pages_answer_everyone(client, path, member, staff):
    assert client.get(path).status_code == 200
    for user in (member, staff):
        client.force_login(user)
        status = client.get(path).status_code
        assert status == 200 or (path in AUTH_ONLY_FOR_VISITORS and status == 302)
        client.logout()


@pytest.mark.django_db
def test_course_detail_answers_for_a_course_and_404_otherwise(client):
    course = CourseFactory(title="Cerceau aérien")
    response = client.get(f"/courses/{course.pk}")
    assert response.status_code == 200
    assert "Cerceau aérien" in response.text
    missing = client.get(f"/courses/{course.pk + 1000}")
    assert missing.status_code == 404
    assert "Le cours demandé est introuvable." in missing.text


@pytest.mark.django_db
@pytest.mark.parametrize("path", MEMBER)
def test_member_pages_send_visitors_to_login(client, path, member, staff):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={path}"
    for user in (member, staff):
        client.force_login(user)
        assert client.get(path).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", STAFF)
def test_back_office_is_for_staff(client, path, member, staff, supervisor):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/login?next=")
    client.force_login(member)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/"
    for user in (staff, supervisor):
        client.force_login(user)
        assert client.get(path).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new"), [("/privacy-policy", "/politique-confidentialite"), ("/photo-et-video-gallerie", "/gallery")]
)
def test_legacy_paths_redirect_permanently(client, old, new):
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == new


@pytest.mark.django_db
def test_unknown_path_shows_french_404(client):
    response = client.get("/cette-page-n-existe-pas")
    assert response.status_code == 404
    assert "<h1>Page non trouvée</h1>" in response.text
    assert 'href="/"' in response.text


@pytest.mark.django_db
def test_server_error_shows_french_500(client, settings):
    settings.ROOT_URLCONF = "studio.tests.urls_500"
    client.raise_request_exception = False
    response = client.get("/boom")
    assert response.status_code == 500
    assert "Quelque chose s&#x27;est mal passé." in response.text or "Quelque chose s'est mal passé." in response.text


@pytest.mark.django_db
def test_staff_link_only_for_staff(client, member, supervisor):
    assert "/admin/dashboard" not in client.get("/").text
    client.force_login(member)
    page = client.get("/").text
    assert "/admin/dashboard" not in page
    assert "Bonjour, Emma" in page
    client.force_login(supervisor)
    assert "/admin/dashboard" in client.get("/").text


@pytest.mark.django_db
def test_account_menu_falls_back_to_utilisateur(client, member):
    member.first_name = ""
    member.save()
    client.force_login(member)
    assert "Bonjour, Utilisateur" in client.get("/").text


@pytest.mark.django_db
def test_pages_without_island_load_no_react(client):
    page = client.get("/mentions-legales").text
    assert "vendor-react" not in page
    assert "/static/dist/shell" in page


@pytest.mark.django_db
def test_logout_ends_the_session_and_goes_home(client, member):
    client.force_login(member)
    response = client.post("/logout")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/user/profile").status_code == 302
