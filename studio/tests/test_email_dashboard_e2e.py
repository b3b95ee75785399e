"""The dashboard's "E-mails non remis" section in the browser: staff see a mail that did not leave and resend it."""

import pytest
from playwright.sync_api import expect

from studio.emails import MSG_EMAIL_REQUEUED
from studio.models import EmailStatus, OutgoingEmail

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_staff_resend_an_undelivered_email_from_the_dashboard(page, live_server, login_as, staff, mailoutbox):
    email = OutgoingEmail.objects.create(
        template="payments_receipt",
        subject="Studio – Votre reçu de paiement",
        from_email="studio@example.fr",
        to=["emma@example.fr"],
        body_text="Merci pour votre paiement.",
        status=EmailStatus.FAILED,
        attempts=6,
        last_error="ConnectionRefusedError: [Errno 111] Connection refused",
    )
    login_as(staff)
    page.goto(live_server.url + "/admin/emails")
    main = page.locator(".dash-main")
    expect(main.get_by_role("heading", level=2)).to_have_text("E-mails non remis")
    row = main.locator(".dash-table tbody tr")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text("emma@example.fr")
    expect(row.first).to_contain_text("Non remis")
    row.first.get_by_role("button", name="Renvoyer").click()
    expect(main.get_by_role("status").filter(has_text=MSG_EMAIL_REQUEUED)).to_be_visible()
    # The list is fetched again: the mail has left it, which the table says in its one "Aucun élément." row (an
    # empty body would only be the moment the new list is loading).
    expect(main.locator(".dash-table tbody tr", has_text="emma@example.fr")).to_have_count(0)
    expect(main.locator(".dash-table tbody tr")).to_have_text(["Aucun élément."])
    email.refresh_from_db()
    assert email.status == EmailStatus.SENT
    assert [m.to for m in mailoutbox] == [["emma@example.fr"]]
