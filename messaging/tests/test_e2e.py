"""Browser journeys of the messages (a member writes, staff answer, the member reads), the contact form and the room
rental (Debian's Chromium)."""

import re

import pytest
from playwright.sync_api import expect

from messaging import services
from messaging.models import ContactMessage, ReplyAuthorRole
from messaging.tests.factories import ContactMessageFactory, ContactReplyFactory
from messaging.views import MSG_REPLY_FAILED

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _cookie_choice_made(context):
    """The visitor has already answered the cookie banner, so it does not cover the forms."""
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def test_member_writes_staff_answers_member_reads(page, context, live_server, login_as, member, staff, mailoutbox):
    # The member writes through /contact while logged in.
    login_as(member)
    page.goto(live_server.url + "/contact")
    expect(page.get_by_label("Email")).to_have_value(member.email)
    page.get_by_label("Sujet").fill("Cours d'essai")
    page.get_by_label("Message").fill("Bonjour, puis-je venir essayer jeudi ?")
    page.get_by_role("button", name="Envoyer le message").click()
    expect(page.get_by_role("status")).to_have_text(services.MSG_CONTACT_SENT)
    expect(page.get_by_label("Message")).to_have_value("")
    message = ContactMessage.objects.get()
    assert message.user_id == member.pk
    assert [m.to for m in mailoutbox] == [[services.settings.STAFF_NOTIFICATION_EMAIL]]

    # Staff answer from /messages/<id>.
    context.clear_cookies()
    login_as(staff)
    page.goto(f"{live_server.url}/messages/{message.pk}")
    thread = page.locator(".thread")
    expect(thread).to_contain_text("Bonjour, puis-je venir essayer jeudi ?")
    page.get_by_label("Votre réponse").fill("Bien sûr, à jeudi 19 h !")
    page.get_by_role("button", name="Répondre").click()
    staff_reply = thread.locator(".thread-item.from-staff")
    expect(staff_reply).to_contain_text("Bien sûr, à jeudi 19 h !")
    expect(staff_reply.locator(".thread-item-author")).to_have_text("Admin")
    expect(page.get_by_label("Votre réponse")).to_have_value("")
    reply_mail = mailoutbox[-1]
    assert reply_mail.to == [member.email]
    assert f"/user/messages/{message.pk}" in reply_mail.body

    # The member sees the answer in /user/messages, with the unread badge first.
    context.clear_cookies()
    login_as(member)
    page.goto(live_server.url + "/user/messages")
    expect(page.locator("[data-unread-badge]")).to_contain_text("1")
    page.get_by_role("button", name=re.compile("Cours d'essai")).click()
    expect(page).to_have_url(f"{live_server.url}/user/messages/{message.pk}")
    expect(page.locator(".thread-item.from-staff")).to_contain_text("Bien sûr, à jeudi 19 h !")
    expect(page.locator(".thread-item.from-staff .thread-item-author")).to_have_text("Admin")

    # ...and answers back: appended, box cleared, the studio is told.
    page.get_by_label("Votre réponse").fill("Merci, à jeudi !")
    page.get_by_role("button", name="Répondre").click()
    expect(page.locator(".thread-item").last).to_contain_text("Merci, à jeudi !")
    expect(page.get_by_label("Votre réponse")).to_have_value("")
    assert mailoutbox[-1].to == [services.settings.STAFF_NOTIFICATION_EMAIL]
    page.reload()
    expect(page.locator("[data-unread-badge]")).to_have_count(0)


def test_blank_reply_is_refused_and_a_failed_reply_says_so(page, live_server, login_as, member):
    message = ContactMessageFactory.for_member(member)
    login_as(member)
    page.goto(f"{live_server.url}/user/messages/{message.pk}")
    page.get_by_role("button", name="Répondre").click()
    expect(page.get_by_role("alert")).to_have_text(services.MSG_REPLY_BLANK)
    page.route(re.compile(r".*/response$"), lambda route: route.fulfill(status=500, body="{}"))
    page.get_by_label("Votre réponse").fill("Test")
    page.get_by_role("button", name="Répondre").click()
    expect(page.get_by_role("alert")).to_have_text(MSG_REPLY_FAILED)
    assert not message.replies.exists()


HOSTILE = '<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=2;alert(2)</script><b id="injected">b</b>'


def test_html_and_script_in_messages_stay_inert_everywhere(page, context, live_server, login_as, member, staff):
    message = ContactMessageFactory.for_member(member, name=HOSTILE, subject=HOSTILE, text=HOSTILE)
    ContactReplyFactory(message=message, author=staff, text=HOSTILE)
    ContactReplyFactory(message=message, author=member, author_role=ReplyAuthorRole.MEMBER, text=HOSTILE)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    def assert_inert():
        expect(page.locator(".thread")).to_contain_text("<script>window.__xss=2")
        assert page.locator("#injected").count() == 0
        assert page.locator(".thread img, .conversation-list img").count() == 0
        assert page.evaluate("window.__xss") is None
        assert dialogs == []

    login_as(member)
    page.goto(live_server.url + "/user/messages")
    expect(page.locator(".conversation-list")).to_contain_text("<b id=")
    page.locator(".conversation-list button").first.click()
    assert_inert()
    context.clear_cookies()
    login_as(staff)
    page.goto(f"{live_server.url}/messages/{message.pk}")
    assert_inert()
    page.get_by_label("Votre réponse").fill(HOSTILE)
    page.get_by_role("button", name="Répondre").click()
    expect(page.locator(".thread-item")).to_have_count(4)
    assert_inert()


def test_contact_form_as_a_visitor_with_javascript(page, live_server, mailoutbox):
    page.goto(live_server.url + "/contact")
    page.get_by_label("Nom").fill("Léa Moreau")
    page.get_by_label("Email").fill("lea@example.fr")
    page.get_by_label("Téléphone").fill("0611223344")
    page.get_by_label("Message").fill("Avez-vous des cours le samedi ?")
    page.get_by_label("Je souhaite être recontacté(e)").check()
    page.get_by_role("button", name="Envoyer le message").click()
    expect(page.get_by_role("status")).to_have_text(services.MSG_CONTACT_SENT)
    expect(page).to_have_url(live_server.url + "/contact")  # stayed on the page: the API answered 201
    for label in ("Nom", "Email", "Téléphone", "Message"):
        expect(page.get_by_label(label)).to_have_value("")
    message = ContactMessage.objects.get()
    assert message.follow_up and message.user is None and message.phone == "0611223344"
    assert len(mailoutbox) == 1


def test_contact_form_failure_message(page, live_server):
    page.route("**/api/contact-messages", lambda route: route.fulfill(status=500, body="{}"))
    page.goto(live_server.url + "/contact")
    page.get_by_label("Nom").fill("Léa")
    page.get_by_label("Email").fill("lea@example.fr")
    page.get_by_label("Message").fill("Bonjour")
    page.get_by_role("button", name="Envoyer le message").click()
    expect(page.get_by_role("status")).to_have_text(services.MSG_CONTACT_FAILED)
    expect(page.get_by_label("Message")).to_have_value("Bonjour")


def test_contact_form_without_javascript(browser, live_server, mailoutbox):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/contact")
    page.get_by_label("Nom").fill("Léa")
    page.get_by_label("Email").fill("lea@example.fr")
    page.get_by_label("Message").fill("Sans JavaScript")
    page.get_by_role("button", name="Envoyer le message").click()
    expect(page).to_have_url(live_server.url + "/contact")
    expect(page.locator(".form-status")).to_have_text(services.MSG_CONTACT_SENT)
    assert ContactMessage.objects.get().text == "Sans JavaScript"
    context.close()


def test_staff_deletes_a_message_after_confirming(page, live_server, login_as, staff):
    message = ContactMessageFactory()
    login_as(staff)
    page.goto(f"{live_server.url}/messages/{message.pk}")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Supprimer le message").click()
    expect(page).to_have_url(re.compile(r"/admin/contact-messages$"))
    assert not ContactMessage.objects.exists()
