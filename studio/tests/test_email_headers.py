"""What mail servers and spam filters read in the headers of every outgoing e-mail."""

import email.policy

import pytest

from studio import emails


@pytest.mark.parametrize(
    ("from_email", "site_url", "domain"),
    [
        ("Studio Pole Danse <no-reply@studio-pole-danse.fr>", "https://www.example.org", "studio-pole-danse.fr"),
        ("no-reply@mail.studio.example", "http://127.0.0.1:8000", "mail.studio.example"),
        ("webmaster@localhost", "https://studio.example/", "studio.example"),
    ],
)
def test_the_message_id_names_the_sites_domain_not_localhost(
    db, mailoutbox, settings, from_email, site_url, domain, django_capture_on_commit_callbacks
):
    settings.DEFAULT_FROM_EMAIL, settings.SITE_URL = from_email, site_url
    with django_capture_on_commit_callbacks(execute=True):
        emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
        emails.send_templated_email(to="b@example.fr", subject="Test", template="messaging_contact_staff")
    ids = [mail.message()["Message-ID"] for mail in mailoutbox]
    assert all(mid.startswith("<") and mid.endswith(f"@{domain}>") for mid in ids), ids
    assert ids[0] != ids[1]


def test_a_long_list_unsubscribe_url_is_sent_as_it_is_not_as_encoded_words(
    db, mailoutbox, settings, django_capture_on_commit_callbacks
):
    url = f"{settings.SITE_URL}/my-courses/reminders/unsubscribe/1:Pd-2SN1IDVO8iCQmQtnCqgQq6qyaBowiEdeddMy1_9U"
    with django_capture_on_commit_callbacks(execute=True):
        emails.send_templated_email(
            to="a@example.fr",
            subject="Test",
            template="messaging_contact_staff",
            headers={"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
        )
    (mail,) = mailoutbox
    raw = mail.message(policy=email.policy.SMTP).as_bytes()  # as the SMTP backend serialises it
    assert f"\r\nList-Unsubscribe: <{url}>\r\n".encode() in raw
    assert b"\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" in raw
