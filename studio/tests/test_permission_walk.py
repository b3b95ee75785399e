"""Walk every staff API as a visitor, a member, a supervisor and an admin (docs/decisions.md 11).

Two lists: the staff endpoints discovered from the URL resolver (every /api/ route and method whose view's
`get_permissions()` includes IsStudioStaff), and an explicit list with real objects and valid payloads, which also
covers staff calls decided per request (e.g. `?view=staff`) or per object (`/api/users/<id>`).
"""

import io
import re
import uuid
from datetime import date, time, timedelta

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from PIL import Image
from rest_framework.test import APIClient, APIRequestFactory

from accounts.models import Role
from accounts.services.errors import MSG_ADMIN_DELETE_FORBIDDEN, MSG_ROLE_CHANGE_FORBIDDEN
from accounts.tests.factories import StaffFactory, UserFactory
from courses.tests import factories as course_factories
from studio.permissions import IsStudioStaff

METHODS = ("get", "post", "put", "patch", "delete")
DUMMY = {
    "int": "999999",
    "str": "inconnu",
    "slug": "inconnu",
    "path": "inconnu",
    "uuid": "00000000-0000-0000-0000-000000000000",
}


# --- Discovery -------------------------------------------------------------------------------------------------


def _walk(patterns, prefix=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def _concrete(route: str) -> str:
    path = re.sub(r"<(?:(\w+):)?\w+>", lambda m: DUMMY.get(m.group(1) or "str", "inconnu"), route)
    return "/" + path.lstrip("^").rstrip("$")


def discovered_staff_endpoints():
    """(METHOD, path) for every /api/ route and method whose permissions include IsStudioStaff."""
    factory = APIRequestFactory()
    found = set()
    for route, callback in _walk(get_resolver().url_patterns):
        view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if not route.startswith("api/") or view_class is None or not hasattr(view_class, "get_permissions"):
            continue
        path = _concrete(route)
        for method in METHODS:
            if not hasattr(view_class, method):
                continue
            view = view_class()
            view.args, view.kwargs, view.format_kwarg = (), {}, None
            view.request = view.initialize_request(getattr(factory, method)(path))
            view.headers = {}
            if any(isinstance(p, IsStudioStaff) for p in view.get_permissions()):
                found.add((method.upper(), path))
    return sorted(found)


DISCOVERED = discovered_staff_endpoints()


def test_discovery_finds_the_staff_apis():
    """Guard against a discovery that silently finds nothing."""
    expected = {
        ("GET", "/api/users"),
        ("POST", "/api/courses"),
        ("PUT", "/api/tarifs/999999"),
        ("DELETE", "/api/testimonials/999999"),
        ("POST", "/api/instructors"),
        ("POST", "/api/course-sessions"),
        ("DELETE", "/api/course-sessions/999999"),
        ("GET", "/api/contact-messages"),
        ("GET", "/api/rental-requests"),
        ("POST", "/api/slider"),
        ("POST", "/api/slideshow-images"),
        ("DELETE", "/api/media/999999"),
        ("GET", "/api/paypal/orders"),
        ("PUT", "/api/paypal/orders/inconnu"),
    }
    assert expected <= set(DISCOVERED)


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), DISCOVERED, ids=[f"{m} {p}" for m, p in DISCOVERED])
def test_discovered_staff_api_refuses_visitor_401_and_member_403(method, path, member):
    client = APIClient()
    assert client.generic(method, path, "{}", content_type="application/json").status_code == 401
    client.force_authenticate(member)
    assert client.generic(method, path, "{}", content_type="application/json").status_code == 403


# --- Explicit walk with real objects ---------------------------------------------------------------------------


def _image(name="photo.jpg", size=(1600, 900)):
    buffer = io.BytesIO()
    Image.new("RGB", size, (142, 44, 142)).save(buffer, "JPEG")
    buffer.seek(0)
    buffer.name = name
    return buffer


def _admin_post(path, data):
    client = APIClient()
    client.force_authenticate(StaffFactory())
    response = client.post(path, data, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _session():
    return course_factories.CourseSessionFactory().pk


def _contact_message():
    from messaging.services import contact_message_create

    return contact_message_create(name="Jeanne", email="jeanne@example.fr", text="Bonjour, des cours le soir ?").pk


def _rental_request():
    from quotes.services.rentals import room_rental_request_create

    room_rental_request_create(
        name="Jeanne",
        email="jeanne@example.fr",
        phone="0612345678",
        event_type="Anniversaire",
        date=date.today() + timedelta(days=30),
        time=time(15, 0),
    )


def _payment_order():
    from payments.services.staff import payment_order_staff_create

    return payment_order_staff_create(data={**ORDER, "order_id": f"MANUEL-{uuid.uuid4().hex[:8]}"}).order_id


ORDER = {
    "order_id": "MANUEL-001",
    "email": "jeanne@example.fr",
    "first_name": "Jeanne",
    "last_name": "Roux",
    "title": "Carte 10 cours",
    "amount": "190.00",
    "date": "2026-03-01",
    "time": "18:00",
}
SESSION = {"date": "2030-01-15 19:30:00", "level": "", "max_attendees": 10}


def _session_payload():
    instructor = course_factories.InstructorFactory()
    return {**SESSION, "course_id": course_factories.CourseFactory().pk, "instructor_id": instructor.pk}


# name: (method, path builder, payload builder or None, format). Builders run inside the test's database.
EXPLICIT = {
    "users list": ("GET", lambda: "/api/users?page=1&page_size=10&ordering=last_name&search=a", None, None),
    "users edit": (
        "PUT",
        lambda: f"/api/users/{UserFactory(first_name='Zoé').pk}",
        lambda: {"first_name": "Zoé", "last_name": "Blanc", "city": "Lyon"},
        "json",
    ),
    "users delete": ("DELETE", lambda: f"/api/users/{UserFactory().pk}", None, None),
    "courses create": (
        "POST",
        lambda: "/api/courses",
        lambda: {"title": "Exotic", "description": "Talons", "level": "Avancé"},
        "json",
    ),
    "courses edit": (
        "PUT",
        lambda: f"/api/courses/{course_factories.CourseFactory().pk}",
        lambda: {"title": "Exotic", "description": "Talons", "level": "Avancé"},
        "json",
    ),
    "courses delete": ("DELETE", lambda: f"/api/courses/{course_factories.CourseFactory().pk}", None, None),
    "tarifs create": (
        "POST",
        lambda: "/api/tarifs",
        lambda: {"title": "Cours unique", "price": "25.00", "type": "cours"},
        "json",
    ),
    "tarifs edit": (
        "PUT",
        lambda: f"/api/tarifs/{course_factories.TariffFactory().pk}",
        lambda: {"title": "Cours unique", "price": "27.50", "type": "cours"},
        "json",
    ),
    "tarifs delete": ("DELETE", lambda: f"/api/tarifs/{course_factories.TariffFactory().pk}", None, None),
    "testimonials create": (
        "POST",
        lambda: "/api/testimonials",
        lambda: {"name": "Nina", "message": "Super ambiance !"},
        "json",
    ),
    "testimonials edit": (
        "PUT",
        lambda: f"/api/testimonials/{course_factories.TestimonialFactory().pk}",
        lambda: {"name": "Nina", "message": "Toujours super !"},
        "json",
    ),
    "testimonials delete": (
        "DELETE",
        lambda: f"/api/testimonials/{course_factories.TestimonialFactory().pk}",
        None,
        None,
    ),
    "instructors create": (
        "POST",
        lambda: "/api/instructors",
        lambda: {"name": f"Prof {uuid.uuid4().hex[:8]}", "user_id": UserFactory().pk},
        "json",
    ),
    "instructors delete": (
        "DELETE",
        lambda: f"/api/instructors/{course_factories.InstructorFactory().pk}",
        None,
        None,
    ),
    "instructors edit": (
        "PUT",
        lambda: f"/api/instructors/{course_factories.InstructorFactory().pk}",
        lambda: {"bio": "Championne de France", "specialties": "Pole, cerceau"},
        "json",
    ),
    "sessions staff list": (
        "GET",
        lambda: "/api/course-sessions?view=staff&page=1&page_size=10&ordering=-date",
        None,
        None,
    ),
    "sessions create": ("POST", lambda: "/api/course-sessions", _session_payload, "json"),
    "sessions edit": ("PUT", lambda: f"/api/course-sessions/{_session()}", _session_payload, "json"),
    "sessions delete": ("DELETE", lambda: f"/api/course-sessions/{_session()}", None, None),
    "sessions attendees": ("GET", lambda: f"/api/course-sessions/{_session()}/attendees", None, None),
    "party reservations list": ("GET", lambda: "/api/evf-reservations?page=1", None, None),
    "contact messages list": ("GET", lambda: "/api/contact-messages?page=1&ordering=-created_at", None, None),
    "contact messages delete": ("DELETE", lambda: f"/api/contact-messages/{_contact_message()}", None, None),
    "rental requests list": ("GET", lambda: (_rental_request(), "/api/rental-requests?page=1")[1], None, None),
    "slider create": (
        "POST",
        lambda: "/api/slider",
        lambda: {"image": _image(), "alt_text": "La salle", "description": ""},
        "multipart",
    ),
    "slider edit": (
        "PUT",
        lambda: f"/api/slider/{_admin_post('/api/slider', {'image': _image(), 'alt_text': 'Salle'})}",
        lambda: {"alt_text": "La grande salle", "description": "Vue du fond"},
        "multipart",
    ),
    "slider delete": (
        "DELETE",
        lambda: f"/api/slider/{_admin_post('/api/slider', {'image': _image(), 'alt_text': 'Salle'})}",
        None,
        None,
    ),
    "slideshow create": (
        "POST",
        lambda: "/api/slideshow-images",
        lambda: {"image": _image(), "text_overlay": "Bienvenue"},
        "multipart",
    ),
    "slideshow edit": (
        "PUT",
        lambda: f"/api/slideshow-images/{_admin_post('/api/slideshow-images', {'image': _image()})}",
        lambda: {"text_overlay": "Nouveau texte"},
        "multipart",
    ),
    "slideshow delete": (
        "DELETE",
        lambda: f"/api/slideshow-images/{_admin_post('/api/slideshow-images', {'image': _image()})}",
        None,
        None,
    ),
    "media create": (
        "POST",
        lambda: "/api/media",
        lambda: {"title": "Gala", "media_type": "photo", "file": _image()},
        "multipart",
    ),
    "media edit": (
        "PUT",
        lambda: f"/api/media/{_admin_post('/api/media', {'title': 'Gala', 'media_type': 'photo', 'file': _image()})}",
        lambda: {"title": "Gala 2026", "description": "Le spectacle"},
        "multipart",
    ),
    "media delete": (
        "DELETE",
        lambda: f"/api/media/{_admin_post('/api/media', {'title': 'Gala', 'media_type': 'photo', 'file': _image()})}",
        None,
        None,
    ),
    "orders list": ("GET", lambda: "/api/paypal/orders?page=1&ordering=-date", None, None),
    "orders create": ("POST", lambda: "/api/paypal/orders", lambda: dict(ORDER), "json"),
    "orders edit": (
        "PUT",
        lambda: f"/api/paypal/orders/{_payment_order()}",
        lambda: {**ORDER, "amount": "180.00"},
        "json",
    ),
    "orders delete": ("DELETE", lambda: f"/api/paypal/orders/{_payment_order()}", None, None),
}


def _call(client, name):
    method, path_of, payload_of, fmt = EXPLICIT[name]
    path = path_of()
    data = payload_of() if payload_of else None
    return client.generic(method, path) if data is None else getattr(client, method.lower())(path, data, format=fmt)


@pytest.fixture
def as_role(db, request):
    def _client(role):
        client = APIClient()
        if role == "member":
            client.force_authenticate(UserFactory())
        elif role == "supervisor":
            client.force_authenticate(UserFactory(role=Role.SUPERVISOR))
        elif role == "admin":
            client.force_authenticate(StaffFactory())
        return client

    return _client


@pytest.mark.parametrize("name", sorted(EXPLICIT))
def test_staff_api_refuses_visitor_and_member(as_role, name):
    assert _call(as_role("visitor"), name).status_code == 401
    assert _call(as_role("member"), name).status_code == 403


@pytest.mark.parametrize("role", ["supervisor", "admin"])
@pytest.mark.parametrize("name", sorted(EXPLICIT))
def test_staff_api_serves_supervisor_and_admin(as_role, name, role):
    response = _call(as_role(role), name)
    assert 200 <= response.status_code < 300, (response.status_code, response.content[:300])


# --- docs/decisions.md 11: only an admin changes a role or deletes an admin --------------------------------------


def test_supervisor_cannot_change_a_role_admin_can(as_role):
    member = UserFactory(first_name="Zoé", last_name="Blanc")
    payload = {"first_name": "Zoé", "last_name": "Blanc", "role": "supervisor"}
    response = as_role("supervisor").put(f"/api/users/{member.pk}", payload, format="json")
    assert response.status_code == 403
    assert response.json()["error"] == MSG_ROLE_CHANGE_FORBIDDEN
    member.refresh_from_db()
    assert member.role == Role.USER
    response = as_role("admin").put(f"/api/users/{member.pk}", payload, format="json")
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.role == Role.SUPERVISOR


def test_supervisor_cannot_delete_an_admin_admin_can(as_role):
    from accounts.models import User

    target = StaffFactory()
    response = as_role("supervisor").delete(f"/api/users/{target.pk}")
    assert response.status_code == 403
    assert response.json()["error"] == MSG_ADMIN_DELETE_FORBIDDEN
    assert User.objects.filter(pk=target.pk).exists()
    assert as_role("admin").delete(f"/api/users/{target.pk}").status_code in (200, 204)
    assert not User.objects.filter(pk=target.pk).exists()


def test_supervisor_can_delete_a_member(as_role):
    from accounts.models import User

    target = UserFactory()
    assert as_role("supervisor").delete(f"/api/users/{target.pk}").status_code in (200, 204)
    assert not User.objects.filter(pk=target.pk).exists()
