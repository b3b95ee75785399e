"""The shared API error handler: French bodies, never a 500 for bad input."""

import pytest
from django.db import IntegrityError
from django.http import Http404
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from studio.api import MSG_CONFLICT, MSG_NOT_FOUND


def _call(error):
    class Raises(APIView):
        permission_classes = []
        authentication_classes = []

        def get(self, request):
            raise error

    return Raises.as_view()(APIRequestFactory().get("/x"))


def test_a_constraint_violation_is_a_400_with_a_french_message():
    response = _call(IntegrityError("CHECK constraint failed"))
    assert response.status_code == 400
    assert response.data == {"error": MSG_CONFLICT, "message": MSG_CONFLICT}


def test_not_found_is_french():
    response = _call(Http404())
    assert response.status_code == 404
    assert response.data["error"] == MSG_NOT_FOUND


@pytest.mark.django_db
def test_unknown_api_path_is_404(client):
    assert client.get("/api/nexiste-pas").status_code == 404


def test_a_mail_server_that_is_down_does_not_break_the_action(db, settings, caplog, django_capture_on_commit_callbacks):
    from studio.emails import send_templated_email

    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": 9},
        }
    }
    with django_capture_on_commit_callbacks(execute=True):
        email = send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
    email.refresh_from_db()
    assert email.status == "PENDING" and email.attempts == 1  # kept in the outbox, retried later
    assert "not sent (attempt 1), retried later" in caplog.text
