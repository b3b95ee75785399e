"""Subscription e-mails as HTML and text, recorded in the outbox and sent by the task queue: the failed
period (with "Payer maintenant"), the period's receipt, the invitation to renew."""

from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings
from django.tasks.signals import task_finished
from freezegun import freeze_time

from courses.tests.factories import TariffFactory
from payments.subscriptions.models import Subscription
from payments.subscriptions.services import common as subs
from payments.subscriptions.services.lifecycle import subscription_charges_run
from studio.models import OutgoingEmail

from .test_subscriptions import buy

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent_by_tasks():
    names = []

    def finished(sender, task_result, **kwargs):
        names.append(task_result.task.name)

    task_finished.connect(finished)
    yield names
    task_finished.disconnect(finished)


def html_of(mail) -> str:
    [(html, mimetype)] = mail.alternatives
    assert mimetype == "text/html"
    return html


def test_a_failed_period_is_mailed_as_html_and_text_with_pay_now(
    api_client,
    member,
    annual,  # noqa: F811
    mailoutbox,
    sent_by_tasks,
    django_capture_on_commit_callbacks,
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=True)
    mailoutbox.clear()
    sent_by_tasks.clear()
    with freeze_time("2030-02-10 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=date(2030, 2, 10))
    [mail] = [m for m in mailoutbox if subs.CHARGE_FAILED_SUBJECT in m.subject]
    assert "Payer maintenant : http://" in mail.body and "55,00 €" in mail.body
    html = html_of(mail)
    assert f'<a href="{settings.SITE_URL}/user/profile#abonnements"' in html
    assert ">Payer maintenant</a>" in html and "<strong>55,00 €</strong>" in html
    assert "le 13/02/2030" in html and "à partir du 17/02/2030" in html
    assert "outgoing_email_send" in sent_by_tasks  # left through the queue, not inside the job
    record = OutgoingEmail.objects.get(subject__contains=subs.CHARGE_FAILED_SUBJECT)
    assert record.body_html and record.body_text


def test_the_renewal_invitation_is_html_and_text(
    api_client, member, mailoutbox, sent_by_tasks, django_capture_on_commit_callbacks
):
    quarterly = TariffFactory(
        title="Abonnement trimestriel",
        type="abonnement",
        price=Decimal("120.00"),
        frequency="par trimestre",
        pass_unlimited=True,
        pass_validity_months=3,
    )
    with freeze_time("2030-01-10 10:00:00"):
        buy(api_client, member, quarterly)
    mailoutbox.clear()
    with freeze_time("2030-03-25 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=date(2030, 3, 25))
    [mail] = [m for m in mailoutbox if subs.RENEWAL_SUBJECT in m.subject]
    html = html_of(mail)
    assert "<strong>09/04/2030</strong>" in html and ">Renouveler mon abonnement</a>" in html
    assert "/tarifs" in html and "Il ne se renouvelle pas tout seul" in mail.body
    assert "outgoing_email_send" in sent_by_tasks


def test_a_paid_period_receipt_is_html_and_text(
    api_client,
    member,
    annual,  # noqa: F811
    mailoutbox,
    django_capture_on_commit_callbacks,
):
    with freeze_time("2030-01-10 10:00:00"):
        buy(api_client, member, annual)
    mailoutbox.clear()
    with freeze_time("2030-02-10 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=date(2030, 2, 10))
    [mail] = [m for m in mailoutbox if subs.CHARGE_PAID_SUBJECT in m.subject]
    assert "Montant payé : 55,00 €" in mail.body
    html = html_of(mail)
    assert "<strong>55,00 €</strong>" in html and "10/02/2030" in html and "Voici votre reçu" in html
