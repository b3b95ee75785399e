"""The member's subscription pages (docs/decisions.md 46): "Résilier mon abonnement" from the profile says what
happens and ends it on "Confirmer la résiliation"; "Suspendre" takes a date and a number of weeks. Plain forms."""

import pytest
from freezegun import freeze_time

from payments.subscriptions.models import SubscriptionFreeze, SubscriptionStatus
from payments.tests.conftest import annual  # noqa: F401 - fixture
from payments.tests.test_subscriptions import buy
from studio.models import OutgoingEmail

pytestmark = pytest.mark.django_db


@pytest.fixture
def bought(api_client, member, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        return buy(api_client, member, annual)


def text(response) -> str:
    return response.content.decode()


@freeze_time("2030-01-20 10:00:00")
def test_the_profile_links_to_the_terminate_page_which_says_what_happens_then_ends_it(client, member, bought):
    client.force_login(member)
    profile = text(client.get("/user/profile"))
    url = f"/user/subscriptions/{bought.pk}/terminate"
    assert f'href="{url}">Résilier mon abonnement</a>' in profile
    assert f'href="/user/subscriptions/{bought.pk}/pause">Suspendre</a>' in profile
    page = text(client.get(url))
    assert "vous pouvez réserver vos cours jusqu'au <strong>09/01/2031</strong> inclus." in page
    assert (
        "Engagement jusqu'au 09/01/2031 : il reste 11 échéances de 55,00 € (605,00 € au total). Elles restent dues "
        "au titre de votre engagement et seront prélevées comme prévu." in page
    )
    assert "L'abonnement ne sera pas renouvelé." in page
    assert "Confirmer la résiliation" in page
    done = client.post(url)
    assert done.status_code == 200
    assert (
        "Votre résiliation est enregistrée : vous pouvez réserver jusqu&#x27;au 09/01/2031. Les échéances encore dues "
        "au titre de votre engagement (11 × 55,00 €, soit 605,00 € au total) seront prélevées comme prévu ; "
        "l&#x27;abonnement ne sera pas renouvelé." in text(done)
    )
    assert "Un e-mail de confirmation vous est envoyé." in text(done)
    bought.refresh_from_db()
    assert bought.status == SubscriptionStatus.ACTIVE  # the commitment runs on
    again = text(client.get(url))
    assert (
        "Vous avez résilié cet abonnement : vous pouvez réserver jusqu'au 09/01/2031. Il reste 11 échéances de "
        "55,00 € (605,00 € au total), prélevées comme prévu." in again
    )
    assert client.post(url).status_code == 200
    assert OutgoingEmail.objects.filter(template="payments_subscription_terminated").count() == 1
    profile = text(client.get("/user/profile"))
    assert "Résilier mon abonnement</a>" not in profile
    assert f'href="/user/subscriptions/{bought.pk}/pause">Suspendre</a>' in profile


@freeze_time("2030-01-20 10:00:00")
def test_another_members_pages_are_404(client, other_member, bought):
    client.force_login(other_member)
    for path in ("terminate", "pause"):
        assert client.get(f"/user/subscriptions/{bought.pk}/{path}").status_code == 404
        assert client.post(f"/user/subscriptions/{bought.pk}/{path}").status_code == 404
    bought.refresh_from_db()
    assert bought.status == SubscriptionStatus.ACTIVE


def test_a_visitor_is_sent_to_log_in(client, bought):
    response = client.get(f"/user/subscriptions/{bought.pk}/terminate")
    assert response.status_code == 302 and "/login" in response["Location"]


@freeze_time("2030-01-20 10:00:00")
def test_the_pause_page_shows_the_new_dates_and_french_refusals(client, member, bought):
    client.force_login(member)
    url = f"/user/subscriptions/{bought.pk}/pause"
    page = text(client.get(url))
    assert '<label for="pause-starts-on">Début de la suspension</label>' in page
    assert '<label for="pause-weeks">Nombre de semaines</label>' in page
    assert 'min="2030-01-21"' in page
    too_soon = client.post(url, {"starts_on": "2030-01-20", "weeks": "2"})
    assert too_soon.status_code == 400
    assert "La suspension commence au plus tôt demain, le 21/01/2030." in text(too_soon)
    bad_weeks = client.post(url, {"starts_on": "2030-01-21", "weeks": "deux"})
    assert bad_weeks.status_code == 400
    assert "Indiquez le nombre de semaines de suspension (un nombre entier, 1 au moins)." in text(bad_weeks)
    bad_date = client.post(url, {"starts_on": "", "weeks": "2"})
    assert "Indiquez la date de début de la suspension (AAAA-MM-JJ)." in text(bad_date)
    assert not SubscriptionFreeze.objects.exists()
    done = client.post(url, {"starts_on": "2030-01-21", "weeks": "2"})
    assert done.status_code == 200
    body = text(done)
    assert "Votre abonnement est suspendu du 21/01/2030 au 03/02/2030" in body
    assert "<dd data-pass-expires>23/02/2030</dd>" in body
    assert "<dd data-next-due>24/02/2030</dd>" in body
    assert "<dd data-commitment-end>23/01/2031</dd>" in body
