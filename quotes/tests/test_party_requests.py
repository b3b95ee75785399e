"""An EVJF/EVG request's life (docs/decisions.md 17): quote priced by the server, deposit, confirmation, refusal,
cancellation, history on both sides, e-mails through the outbox, another member's request a 404, bad input a French
400."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.services.common import MSG_PARTICIPANTS_MIN
from quotes import workflow
from quotes.apis.fields import MSG_AMOUNT_FORMAT, MSG_NOTE_INVALID
from quotes.apis.party_requests import MSG_SPECTATORS_INVALID, MSG_STATUS_FILTER
from quotes.models import PartyRequestEvent, PartyReservation, RequestStatus
from quotes.services import parties as services
from studio.models import OutgoingEmail

URL = "/api/evf-reservations"


@pytest.fixture
def party(member):
    return PartyReservation.objects.create(
        user=member,
        event_type="EVJF",
        date=timezone.localdate() + timedelta(days=30),
        time=time(15, 0),
        participants=8,
        email=member.email,
        first_name=member.first_name,
    )


def quote_body(**changes):
    return {"participants": 8, "spectators": 2, "deposit": "50.00", "note": "Atelier de 2 h", **changes}


@pytest.mark.parametrize(
    ("participants", "spectators", "amount"),
    [
        (8, 2, Decimal("185.00")),  # 7 × 25 + 2 × 5
        (6, 0, Decimal("125.00")),  # the bride free
        (4, 0, Decimal("125.00")),  # billed as 6 people
        (1, 3, Decimal("140.00")),  # 5 × 25 + 3 × 5
        (12, 10, Decimal("325.00")),
    ],
)
def test_the_quote_follows_the_studio_prices(participants, spectators, amount):
    assert services.party_quote_amount(participants=participants, spectators=spectators) == amount


def test_staff_quote_the_member_sees_it_with_its_history_and_is_emailed(api_client, staff, member, party):
    api_client.force_authenticate(staff)
    response = api_client.post(f"{URL}/{party.pk}/quote", quote_body(), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["status_label"], body["quote_amount"], body["deposit_amount"]) == (
        "quoted",
        "Devis envoyé",
        "185.00",
        "50.00",
    )
    party.refresh_from_db()
    assert party.quote_amount == Decimal("185.00") and party.quote_participants == 8 and party.quote_spectators == 2
    mail = OutgoingEmail.objects.get(subject__contains="Votre devis")
    assert mail.to == [member.email]
    assert mail.subject.endswith(f"Votre devis : EVJF du {party.date:%d/%m/%Y} à 15:00")
    assert "185,00 €" in mail.body_text and "50,00 €" in mail.body_text and "/user/requests/evjf/" in mail.body_text

    api_client.force_authenticate(member)
    mine = api_client.get(f"{URL}/mine").json()
    assert [p["id"] for p in mine] == [party.pk]
    assert mine[0]["deposit_due"] is True and mine[0]["cancellable"] is True
    events = mine[0]["events"]
    assert [e["label"] for e in events] == ["Demande envoyée", "Devis envoyé"]
    assert events[0]["by"] == "Vous" and events[1]["by"] == "Le studio"
    assert events[1]["note"] == "Devis de 185,00 €, acompte de 50,00 €. Atelier de 2 h"


def test_staff_see_who_did_what(api_client, staff, party):
    services.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=0, deposit=Decimal("40"))
    api_client.force_authenticate(staff)
    row = api_client.get(URL).json()["results"][0]
    assert row["status"] == "quoted" and row["events"][1]["by"] == staff.get_full_name()


def test_the_deposit_is_recorded_once_then_staff_confirm(api_client, staff, member, party):
    services.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=2, deposit=Decimal("50.00"))
    api_client.force_authenticate(staff)
    early = api_client.post(f"{URL}/{party.pk}/confirm", format="json")
    assert early.status_code == 409 and early.json()["error"] == workflow.MSG_NOT_CONFIRMABLE

    services.party_deposit_record(party_id=party.pk, amount=Decimal("50.00"))
    with pytest.raises(workflow.QuoteError) as twice:
        services.party_deposit_record(party_id=party.pk, amount=Decimal("50.00"))
    assert twice.value.message == workflow.MSG_DEPOSIT_NOT_DUE
    party.refresh_from_db()
    assert party.status_text == "Devis envoyé – acompte payé, confirmation à venir"
    assert OutgoingEmail.objects.filter(subject__contains="Acompte payé : EVJF").count() == 1

    requote = api_client.post(f"{URL}/{party.pk}/quote", quote_body(), format="json")
    assert requote.status_code == 409 and requote.json()["error"] == workflow.MSG_NOT_QUOTABLE

    confirmed = api_client.post(f"{URL}/{party.pk}/confirm", format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status_label"] == "Confirmée"
    assert OutgoingEmail.objects.get(subject__contains="Demande confirmée").to == [member.email]
    kinds = list(PartyRequestEvent.objects.filter(party=party).values_list("kind", flat=True))
    assert kinds == ["quoted", "deposit_paid", "confirmed"]

    api_client.force_authenticate(member)
    late = api_client.post(f"{URL}/{party.pk}/cancel", format="json")
    assert late.status_code == 409 and late.json()["error"] == workflow.MSG_NOT_CANCELLABLE


def test_a_deposit_of_another_amount_is_refused(staff, party):
    services.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=0, deposit=Decimal("50.00"))
    with pytest.raises(workflow.QuoteError) as refused:
        services.party_deposit_record(party_id=party.pk, amount=Decimal("49.99"))
    assert refused.value.message == workflow.MSG_DEPOSIT_CHANGED


def test_the_member_cancels_while_not_confirmed_and_the_studio_is_told(api_client, member, party):
    api_client.force_authenticate(member)
    response = api_client.post(f"{URL}/{party.pk}/cancel", format="json")
    assert response.status_code == 200 and response.json()["status_label"] == "Annulée"
    assert OutgoingEmail.objects.filter(subject__contains="Demande annulée par le membre : EVJF").exists()
    again = api_client.post(f"{URL}/{party.pk}/cancel", format="json")
    assert again.status_code == 409 and again.json()["error"] == workflow.MSG_NOT_CANCELLABLE


def test_staff_refuse_with_a_reason(api_client, staff, member, party):
    api_client.force_authenticate(staff)
    blank = api_client.post(f"{URL}/{party.pk}/refuse", {"reason": "   "}, format="json")
    assert blank.status_code == 400 and blank.json()["error"] == workflow.MSG_REASON_REQUIRED
    refused = api_client.post(f"{URL}/{party.pk}/refuse", {"reason": "Studio complet ce jour-là"}, format="json")
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    mail = OutgoingEmail.objects.get(subject__contains="Demande refusée")
    assert "Studio complet ce jour-là" in mail.body_text


def test_another_members_request_is_a_404_everywhere(api_client, other_member, party):
    api_client.force_authenticate(other_member)
    for method, path in [("get", ""), ("post", "/cancel")]:
        response = getattr(api_client, method)(f"{URL}/{party.pk}{path}", format="json")
        assert response.status_code == 404 and response.json()["error"] == workflow.MSG_REQUEST_NOT_FOUND
    assert api_client.get(f"{URL}/mine").json() == []
    party.refresh_from_db()
    assert party.status == RequestStatus.SENT


def test_members_cannot_quote_confirm_or_refuse(api_client, member, party):
    api_client.force_authenticate(member)
    for path, body in [("/quote", quote_body()), ("/confirm", {}), ("/refuse", {"reason": "non"})]:
        assert api_client.post(f"{URL}/{party.pk}{path}", body, format="json").status_code == 403
    assert api_client.get(URL).status_code == 403


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"participants": 0}, MSG_PARTICIPANTS_MIN),
        ({"participants": "huit"}, MSG_PARTICIPANTS_MIN),
        ({"spectators": -1}, MSG_SPECTATORS_INVALID),
        ({"deposit": "0.00"}, workflow.MSG_DEPOSIT_POSITIVE),
        ({"deposit": 50}, MSG_AMOUNT_FORMAT),
        ({"deposit": "50,00"}, MSG_AMOUNT_FORMAT),
        ({"deposit": "-5"}, MSG_AMOUNT_FORMAT),
        ({"deposit": "0"}, workflow.MSG_DEPOSIT_POSITIVE),
        ({"deposit": "050.00"}, MSG_AMOUNT_FORMAT),
        ({"deposit": "50.001"}, MSG_AMOUNT_FORMAT),
        ({"deposit": "500.00"}, workflow.MSG_DEPOSIT_TOO_HIGH),  # well-formed, but above the quote: a conflict
    ],
)
def test_bad_quotes_are_refused_in_french_and_change_nothing(api_client, staff, party, changes, message):
    api_client.force_authenticate(staff)
    response = api_client.post(f"{URL}/{party.pk}/quote", quote_body(**changes), format="json")
    expected = 409 if message == workflow.MSG_DEPOSIT_TOO_HIGH else 400
    assert response.status_code == expected and response.json()["error"] == message
    party.refresh_from_db()
    assert party.status == RequestStatus.SENT and party.quote_amount is None
    assert not PartyRequestEvent.objects.exists()


def test_an_unknown_request_and_status_filter(api_client, staff):
    api_client.force_authenticate(staff)
    missing = api_client.post(f"{URL}/999999/quote", quote_body(), format="json")
    assert missing.status_code == 404 and missing.json()["error"] == workflow.MSG_REQUEST_NOT_FOUND
    bad = api_client.get(URL, {"status": "perdu"})
    assert bad.status_code == 400 and bad.json()["error"] == MSG_STATUS_FILTER


def test_the_lists_run_a_fixed_number_of_queries(api_client, staff, member, django_assert_max_num_queries):
    for day in range(1, 8):
        party = PartyReservation.objects.create(
            user=member,
            date=timezone.localdate() + timedelta(days=day),
            time=time(15, 0),
            participants=6,
            email=member.email,
        )
        services.party_quote(party_id=party.pk, staff=staff, participants=6, spectators=0, deposit=Decimal("30"))
    api_client.force_authenticate(member)
    with django_assert_max_num_queries(6):
        assert len(api_client.get(f"{URL}/mine").json()) == 7
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(7):
        assert api_client.get(URL).json()["count"] == 7


NOT_AN_INTEGER = "Un nombre entier valide est requis."


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("page=", NOT_AN_INTEGER),
        ("page=x", NOT_AN_INTEGER),
        ("page=1&page=2", NOT_AN_INTEGER),
        ("page_size=0", "Assurez-vous que cette valeur est supérieure ou égale à\xa01."),
        ("status=sent&status=quoted", MSG_STATUS_FILTER),
    ],
)
def test_a_malformed_list_query_is_a_french_400(api_client, staff, query, message):
    api_client.force_authenticate(staff)
    response = api_client.get(f"{URL}?{query}")
    assert response.status_code == 400 and response.json()["error"] == message


def test_a_note_that_is_no_text_is_refused_and_a_blank_one_is_none(api_client, staff, party):
    api_client.force_authenticate(staff)
    refused = api_client.post(f"{URL}/{party.pk}/quote", quote_body(note={}), format="json")
    assert refused.status_code == 400 and refused.json()["error"] == MSG_NOTE_INVALID
    accepted = api_client.post(f"{URL}/{party.pk}/quote", quote_body(note=""), format="json")
    assert accepted.status_code == 200 and accepted.json()["quote_note"] == ""
    refused = api_client.post(f"{URL}/{party.pk}/refuse", {"reason": 12}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == workflow.MSG_REASON_REQUIRED


def test_the_django_admin_shows_the_history_read_only(client, staff, party):
    services.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=0, deposit=Decimal("40"))
    client.force_login(staff)
    page = client.get(f"/django-admin/quotes/partyreservation/{party.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Devis de 175,00 €, acompte de 40,00 €" in html and "Devis envoyé" in html
    assert client.get("/django-admin/quotes/partyreservation/?status__exact=quoted").status_code == 200
    assert client.get("/django-admin/quotes/roomrentalrequest/?status__exact=sent").status_code == 200
