import pytest

from project.pages.booking import PLANNING_DOWNLOAD_NAME

pytestmark = pytest.mark.django_db


def test_calendar_page_has_tabs_download_weekly_link_and_island(client):
    response = client.get("/courses/calendar")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'role="tab"' in html and "Calendrier" in html and "Planning (image)" in html
    assert f'download="{PLANNING_DOWNLOAD_NAME}"' in html and "img/planning" in html
    assert 'href="/weekly"' in html
    assert 'data-island="calendar"' in html and '"paymentConfig"' in html
    assert "<script>" not in html  # props go through json_script, no inline script


def test_calendar_props_carry_the_member_and_set_the_csrf_cookie(client, member):
    client.force_login(member)
    response = client.get("/courses/calendar")
    assert '"email": "emma@example.fr"' in response.content.decode()
    assert "csrftoken" in response.cookies


def test_my_courses_requires_login(client, member):
    response = client.get("/my-courses")
    assert response.status_code == 302 and response["Location"].startswith("/login?next=/my-courses")
    client.force_login(member)
    response = client.get("/my-courses")
    assert response.status_code == 200
    assert "Mes Cours de Pole Dance" in response.content.decode()
    assert f"/api/course-feedback/user/{member.pk}" in response.content.decode()
