"""The profile shows the member their own health declaration (docs/decisions.md 48), read by its island from the API;
staff viewing a member's profile get no such island (the answers are for the member and the admins' API only)."""

import pytest

pytestmark = pytest.mark.django_db

ISLAND = 'data-island="health-summary"'


def test_the_profile_shows_the_health_declaration_to_its_own_member_only(client, member, staff):
    client.force_login(member)
    assert ISLAND in client.get("/user/profile").content.decode()
    client.force_login(staff)
    assert ISLAND not in client.get(f"/user/profile/{member.pk}").content.decode()
