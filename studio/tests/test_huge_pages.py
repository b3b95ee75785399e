"""A page number far past any list's end answers 404 'Page non valide.' on every paginated API, as a page just past
the last does, never 400 or 500: the schema allows any whole number >= 1 (schemathesis sent
`GET /api/passes?page=18171806051874764800&page_size=16` in CI and got 400, the database refusing an OFFSET beyond
its 64-bit integers). Run on SQLite and, marked `postgres`, on PostgreSQL."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

from bookings.tests.factories import PassFactory, ReservationFactory

HUGE = "18171806051874764800"  # > 2**63
PAGE_NOT_FOUND = {"error": "Page non valide.", "message": "Page non valide."}


def _paginated_lists() -> dict[str, str]:
    """Every GET of the schema that takes ?page=, its path parameters left to fill: the largest page number its
    schema allows (HUGE where it states no maximum)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = {}
    for path, operations in schema["paths"].items():
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["name"] == "page":
                found[path] = str(parameter["schema"].get("maximum", HUGE))
    return found


def _fill(path: str, staff) -> str | None:
    if path == "/api/course-feedback/user/{user_id}":
        return f"/api/course-feedback/user/{staff.pk}"
    return None if "{" in path else path


def _every_list_answers_404_for_a_huge_page(api_client, staff, member):
    PassFactory(member=member)
    ReservationFactory(user=staff)
    api_client.force_authenticate(staff)
    lists = {_fill(path, staff): largest for path, largest in _paginated_lists().items()}
    assert {"/api/passes", "/api/users", f"/api/course-feedback/user/{staff.pk}"} <= set(lists)
    assert lists["/api/passes"] == HUGE
    for path, largest in lists.items():
        if path is None:
            continue
        for page_size in ("16", None):
            query = {"page": largest, **({"page_size": page_size} if page_size else {})}
            if re.fullmatch(r"/api/course-sessions", path):
                query["view"] = "staff"
            response = api_client.get(path, query)
            assert response.status_code == 404, (path, query, response.status_code, response.content[:300])
            assert response.json() == PAGE_NOT_FOUND, (path, query)


@pytest.mark.django_db
def test_every_list_answers_404_for_a_huge_page(api_client, staff, member):
    _every_list_answers_404_for_a_huge_page(api_client, staff, member)


@pytest.mark.postgres
def test_every_list_answers_404_for_a_huge_page_on_postgresql(api_client, staff, member):
    _every_list_answers_404_for_a_huge_page(api_client, staff, member)
