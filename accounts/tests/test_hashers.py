"""Password storage: Argon2id first, with documented parameters; older hashes upgraded at login."""

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, identify_hasher
from django.test import override_settings

from accounts.hashers import StudioArgon2PasswordHasher
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from studio.settings import base

pytestmark = pytest.mark.django_db

PRODUCTION_HASHERS = base.PASSWORD_HASHERS


def test_argon2id_is_the_first_hasher_with_owasp_parameters():
    assert PRODUCTION_HASHERS[0] == "accounts.hashers.StudioArgon2PasswordHasher"
    hasher = StudioArgon2PasswordHasher()
    # OWASP's Password Storage Cheat Sheet minimum for Argon2id: m=19 MiB, t=2, p=1.
    assert (hasher.memory_cost, hasher.time_cost, hasher.parallelism) == (19 * 1024, 2, 1)
    encoded = hasher.encode("un mot de passe", hasher.salt())
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert hasher.verify("un mot de passe", encoded)


@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHERS)
def test_a_pbkdf2_hash_is_upgraded_to_argon2id_at_login(api_client):
    member = UserFactory(email="ines@example.fr")
    # Today's hash (fewer iterations than Django's default only to keep the test fast).
    member.password = PBKDF2PasswordHasher().encode(DEFAULT_PASSWORD, "seasalt1234567890ab", iterations=1000)
    member.save(update_fields=["password"])
    assert identify_hasher(member.password).algorithm == "pbkdf2_sha256"

    response = api_client.post("/api/users/login", {"email": member.email, "password": DEFAULT_PASSWORD}, format="json")

    assert response.status_code == 200
    member.refresh_from_db()
    assert member.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert member.check_password(DEFAULT_PASSWORD)
    assert settings.SESSION_COOKIE_NAME in response.cookies


@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHERS)
def test_an_argon2_hash_with_weaker_parameters_is_upgraded_too(api_client):
    member = UserFactory(email="lea@example.fr")

    class Weak(StudioArgon2PasswordHasher):
        memory_cost = 8 * 1024

    member.password = Weak().encode(DEFAULT_PASSWORD, Weak().salt())
    member.save(update_fields=["password"])
    assert (
        api_client.post(
            "/api/users/login", {"email": member.email, "password": DEFAULT_PASSWORD}, format="json"
        ).status_code
        == 200
    )
    member.refresh_from_db()
    assert "$m=19456,t=2,p=1$" in member.password
