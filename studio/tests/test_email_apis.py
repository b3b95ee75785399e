"""Staff see the e-mails that did not leave and resend them (docs/decisions.md 41)."""

import pytest
from django.utils import timezone

from studio import emails
from studio.models import EmailStatus, OutgoingEmail

pytestmark = pytest.mark.django_db

LIST = "/api/emails/undelivered"


def _undelivered(**fields):
    values = {
        "template": "messaging_contact_staff",
        "subject": "Studio – Test",
        "from_email": "studio@example.fr",
        "to": ["lea@example.fr"],
        "body_text": "Bonjour",
        "status": EmailStatus.FAILED,
        "attempts": 6,
        "last_error": "ConnectionRefusedError: [Errno 111]",
        **fields,
    }
    return OutgoingEmail.objects.create(**values)


def test_only_staff_see_undelivered_emails(api_client, member):
    email = _undelivered()
    assert api_client.get(LIST).status_code == 401
    assert api_client.post(f"/api/emails/{email.pk}/resend").status_code == 401
    api_client.force_authenticate(member)
    assert api_client.get(LIST).status_code == 403
    assert api_client.post(f"/api/emails/{email.pk}/resend").status_code == 403


def test_the_list_shows_failed_and_retrying_mails_not_sent_or_fresh_ones(api_client, staff, django_assert_num_queries):
    failed = _undelivered()
    retrying = _undelivered(status=EmailStatus.PENDING, attempts=2, next_attempt_at=timezone.now())
    _undelivered(status=EmailStatus.SENT, attempts=1, last_error="")
    _undelivered(status=EmailStatus.PENDING, attempts=0, last_error="")
    api_client.force_authenticate(staff)
    api_client.get(LIST)  # the session and permission reads are warmed up
    with django_assert_num_queries(2):  # count + page
        body = api_client.get(LIST).json()
    assert body["count"] == 2
    rows = {row["id"]: row for row in body["results"]}
    assert set(rows) == {failed.pk, retrying.pk}
    assert rows[failed.pk]["status_label"] == "Non remis" and rows[failed.pk]["attempts"] == 6
    assert rows[failed.pk]["to"] == ["lea@example.fr"] and "ConnectionRefused" in rows[failed.pk]["last_error"]
    assert rows[retrying.pk]["status_label"] == "À envoyer"


def test_resend_sends_the_mail_and_says_so(api_client, staff, mailoutbox, django_capture_on_commit_callbacks):
    email = _undelivered()
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(f"/api/emails/{email.pk}/resend")
    assert response.status_code == 200
    assert response.json()["message"] == emails.MSG_EMAIL_REQUEUED == "L'e-mail est remis en file d'envoi."
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["lea@example.fr"]
    email.refresh_from_db()
    assert email.status == EmailStatus.SENT
    assert api_client.get(LIST).json()["count"] == 0

    again = api_client.post(f"/api/emails/{email.pk}/resend")
    assert again.status_code == 400
    assert again.json()["error"] == emails.MSG_EMAIL_ALREADY_SENT == "Cet e-mail a déjà été envoyé."
    missing = api_client.post("/api/emails/999999/resend")
    assert missing.status_code == 404 and missing.json()["error"] == emails.MSG_EMAIL_NOT_FOUND
    assert len(mailoutbox) == 1


def test_the_django_admin_lists_the_outbox_read_only(client, django_user_model):
    admin_user = django_user_model.objects.create_superuser(email="ops@example.fr", password="x-Secret-2026")
    _undelivered()
    client.force_login(admin_user)
    response = client.get("/django-admin/studio/outgoingemail/")
    assert response.status_code == 200 and "lea@example.fr" in response.content.decode()
    assert client.get("/django-admin/studio/outgoingemail/add/").status_code == 403


@pytest.mark.parametrize("query", ["page=", "page=0", "page=x", "page_size=", "page_size=0", "page_size=101"])
def test_the_undelivered_list_refuses_a_bad_page(api_client, staff, query):
    api_client.force_authenticate(staff)
    response = api_client.get(f"{LIST}?{query}")
    assert response.status_code == 400
    assert response.json()["error"]


def test_a_page_beyond_the_undelivered_list_is_a_json_404(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.get(f"{LIST}?page=5")
    assert response.status_code == 404 and response.json()["error"]


def test_the_resend_refusals_come_from_the_error_handler(api_client, staff):
    """No try/except in the view: EmailError's status and text reach the client as they are."""
    sent = _undelivered(status=EmailStatus.SENT, attempts=1, last_error="")
    api_client.force_authenticate(staff)
    again = api_client.post(f"/api/emails/{sent.pk}/resend")
    assert again.status_code == 400 and again.json()["error"] == emails.MSG_EMAIL_ALREADY_SENT
    missing = api_client.post("/api/emails/999999999999/resend")
    assert missing.status_code == 404 and missing.json()["error"] == emails.MSG_EMAIL_NOT_FOUND
