"""Rules of the messaging services: stored, e-mailed, read state, blank replies."""

import pytest
from django.conf import settings

from messaging import services
from messaging.models import ContactMessage, ReplyAuthorRole
from messaging.tests.factories import ContactMessageFactory

pytestmark = pytest.mark.django_db


def test_contact_message_is_stored_and_emailed_to_the_studio(mailoutbox, member, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = services.contact_message_create(
            name=" Emma  Petit ", email="emma@example.fr", text="Bonjour !", subject="Cours\nd'essai", user=member
        )
    assert message.user == member and message.name == "Emma Petit" and message.subject == "Cours d'essai"
    assert message.staff_unread and not message.member_unread
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == [settings.STAFF_NOTIFICATION_EMAIL]
    assert mail.reply_to == ["emma@example.fr"]
    assert f"/messages/{message.pk}" in mail.body


def test_anonymous_visitor_message_has_no_member(mailoutbox):
    from django.contrib.auth.models import AnonymousUser

    message = services.contact_message_create(name="Léa", email="lea@example.fr", text="Bonjour", user=AnonymousUser())
    assert message.user is None


@pytest.mark.parametrize("field", ["name", "email", "text"])
def test_contact_message_requires_name_email_and_text(field, mailoutbox, django_capture_on_commit_callbacks):
    data = {"name": "Léa", "email": "lea@example.fr", "text": "Bonjour"}
    data[field] = "   "
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.MessagingError) as exc:
        services.contact_message_create(**data)
    assert exc.value.message == services.MSG_CONTACT_REQUIRED
    assert not ContactMessage.objects.exists() and not mailoutbox


def test_a_mail_failure_does_not_lose_the_message(monkeypatch):
    def boom(**kwargs):
        raise ConnectionRefusedError

    monkeypatch.setattr(services, "send_templated_email", boom)
    message = services.contact_message_create(name="Léa", email="lea@example.fr", text="Bonjour")
    assert ContactMessage.objects.filter(pk=message.pk).exists()


def test_staff_reply_flags_the_member_and_emails_a_link_to_the_thread(
    mailoutbox, member, staff, django_capture_on_commit_callbacks
):
    message = ContactMessageFactory.for_member(member)
    with django_capture_on_commit_callbacks(execute=True):
        services.contact_reply_add(message_id=message.pk, author=staff, text="Avec plaisir.")
    message.refresh_from_db()
    assert message.member_unread and not message.staff_unread
    reply = message.replies.get()
    assert reply.author_role == ReplyAuthorRole.STAFF and reply.author_label == "Admin"
    assert mailoutbox[-1].to == [member.email]
    assert f"{settings.SITE_URL}/user/messages/{message.pk}" in mailoutbox[-1].body


def test_staff_reply_to_a_visitor_is_emailed_without_a_link(mailoutbox, staff, django_capture_on_commit_callbacks):
    message = ContactMessageFactory(email="lea@example.fr")
    with django_capture_on_commit_callbacks(execute=True):
        services.contact_reply_add(message_id=message.pk, author=staff, text="Bonjour Léa.")
    assert mailoutbox[-1].to == ["lea@example.fr"]
    assert "/user/messages/" not in mailoutbox[-1].body and "Bonjour Léa." in mailoutbox[-1].body


def test_member_reply_tells_the_studio(mailoutbox, member, django_capture_on_commit_callbacks):
    message = ContactMessageFactory.for_member(member, staff_unread=False, member_unread=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.contact_reply_add(message_id=message.pk, author=member, text="Merci !")
    message.refresh_from_db()
    assert message.staff_unread and not message.member_unread
    assert message.replies.get().author_role == ReplyAuthorRole.MEMBER
    assert mailoutbox[-1].to == [settings.STAFF_NOTIFICATION_EMAIL]
    assert f"/messages/{message.pk}" in mailoutbox[-1].body


def test_a_blank_reply_is_refused(member, mailoutbox, django_capture_on_commit_callbacks):
    message = ContactMessageFactory.for_member(member)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.MessagingError) as exc:
        services.contact_reply_add(message_id=message.pk, author=member, text=" \n ")
    assert exc.value.message == services.MSG_REPLY_BLANK
    assert not message.replies.exists() and not mailoutbox


def test_opening_a_message_clears_only_the_readers_side(member, staff):
    message = ContactMessageFactory.for_member(member, staff_unread=True, member_unread=True)
    services.contact_message_mark_read(message=message, reader=member)
    message.refresh_from_db()
    assert not message.member_unread and message.staff_unread
    services.contact_message_mark_read(message=message, reader=staff)
    message.refresh_from_db()
    assert not message.staff_unread


def test_demo_seed_is_idempotent(member, staff):
    from messaging import seed

    member.email = seed.DEMO_MEMBER_EMAIL
    member.save()
    seed.run()
    count = ContactMessage.objects.count()
    seed.run()
    assert ContactMessage.objects.count() == count == 2
    assert ContactMessage.objects.get(user=member).replies.get().author_label == "Admin"


def test_html_in_a_message_is_escaped_in_the_html_emails(mailoutbox, staff, member, django_capture_on_commit_callbacks):
    hostile = '<script>alert(1)</script><b id="injected">x</b>'
    with django_capture_on_commit_callbacks(execute=True):
        message = services.contact_message_create(name=hostile, email="lea@example.fr", text=hostile, subject=hostile)
    html = mailoutbox[0].alternatives[0][0]
    assert "<script>" not in html and "&lt;script&gt;" in html
    message.user = member
    message.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.contact_reply_add(message_id=message.pk, author=staff, text=hostile)
    html = mailoutbox[-1].alternatives[0][0]
    assert "<script>" not in html and '<b id="injected">' not in html
