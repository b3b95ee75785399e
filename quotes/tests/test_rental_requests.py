"""A member's room-rental request has the life of a party request (docs/decisions.md 17): staff quote an amount and a
deposit, the member follows it and may cancel while not confirmed; another member's request is a 404; French
refusals."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from quotes import workflow
from quotes.apis.fields import MSG_AMOUNT_FORMAT
from quotes.models import RentalRequestEvent, RoomRentalRequest
from quotes.services import rentals as services
from studio.models import OutgoingEmail

URL = "/api/rental-requests"


def make_rental(user=None, **changes):
    return RoomRentalRequest.objects.create(
        user=user,
        name="Emma Martin",
        email=getattr(user, "email", "visiteur@example.fr"),
        phone="0601020304",
        date=timezone.localdate() + timedelta(days=14),
        time=time(19, 30),
        **changes,
    )


@pytest.fixture
def rental(member):
    return make_rental(member)


def test_staff_quote_and_the_member_follows_it(api_client, staff, member, rental):
    api_client.force_authenticate(staff)
    body = {"amount": "240.00", "deposit": "80.00", "note": "Salle et sono"}
    response = api_client.post(f"{URL}/{rental.pk}/quote", body, format="json")
    assert response.status_code == 200 and response.json()["status_label"] == "Devis envoyé"
    mail = OutgoingEmail.objects.get(subject__contains="Votre devis")
    assert mail.to == [member.email] and "240,00 €" in mail.body_text and "/user/requests/location/" in mail.body_text

    api_client.force_authenticate(member)
    mine = api_client.get(f"{URL}/mine").json()
    assert [(r["id"], r["status"], r["deposit_amount"]) for r in mine] == [(rental.pk, "quoted", "80.00")]
    assert [e["by"] for e in mine[0]["events"]] == ["Vous", "Le studio"]
    cancelled = api_client.post(f"{URL}/{rental.pk}/cancel", format="json")
    assert cancelled.status_code == 200 and cancelled.json()["status_label"] == "Annulée"
    assert OutgoingEmail.objects.filter(subject__contains="Demande annulée par le membre : location de salle").exists()


def test_a_visitors_request_is_answered_by_email(api_client, staff):
    visitor = make_rental()
    api_client.force_authenticate(staff)
    response = api_client.post(f"{URL}/{visitor.pk}/quote", {"amount": "100.00", "deposit": "30.00"}, format="json")
    assert response.status_code == 409 and response.json()["error"] == workflow.MSG_NO_MEMBER
    assert not RentalRequestEvent.objects.exists()


def test_another_members_request_is_a_404(api_client, other_member, rental):
    api_client.force_authenticate(other_member)
    for method, path in [("get", ""), ("post", "/cancel")]:
        response = getattr(api_client, method)(f"{URL}/{rental.pk}{path}", format="json")
        assert response.status_code == 404 and response.json()["error"] == workflow.MSG_REQUEST_NOT_FOUND
    assert api_client.get(f"{URL}/mine").json() == []


def test_members_cannot_quote(api_client, member, rental):
    api_client.force_authenticate(member)
    response = api_client.post(f"{URL}/{rental.pk}/quote", {"amount": "1.00", "deposit": "1.00"}, format="json")
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"amount": "0", "deposit": "0"}, workflow.MSG_AMOUNT_POSITIVE),
        ({"amount": "100.00"}, workflow.MSG_DEPOSIT_POSITIVE),
        ({"amount": "100", "deposit": "150"}, workflow.MSG_DEPOSIT_TOO_HIGH),
        ({"amount": 100, "deposit": "10"}, MSG_AMOUNT_FORMAT),
        ({"amount": "1e3", "deposit": "10"}, MSG_AMOUNT_FORMAT),
    ],
)
def test_bad_quotes_are_refused_in_french(api_client, staff, rental, body, message):
    api_client.force_authenticate(staff)
    response = api_client.post(f"{URL}/{rental.pk}/quote", body, format="json")
    expected = 409 if message == workflow.MSG_DEPOSIT_TOO_HIGH else 400  # well-formed, above the amount: a conflict
    assert response.status_code == expected and response.json()["error"] == message
    rental.refresh_from_db()
    assert rental.status == "sent" and rental.quote_amount is None


def test_confirm_needs_the_deposit_and_refuse_needs_a_reason(api_client, staff, rental):
    services.rental_quote(rental_id=rental.pk, staff=staff, amount=Decimal("200"), deposit=Decimal("50"))
    api_client.force_authenticate(staff)
    early = api_client.post(f"{URL}/{rental.pk}/confirm", format="json")
    assert early.status_code == 409 and early.json()["error"] == workflow.MSG_NOT_CONFIRMABLE
    blank = api_client.post(f"{URL}/{rental.pk}/refuse", {}, format="json")
    assert blank.status_code == 400 and blank.json()["error"] == workflow.MSG_REASON_REQUIRED
    refused = api_client.post(f"{URL}/{rental.pk}/refuse", {"reason": "Déjà louée"}, format="json")
    assert refused.status_code == 200 and refused.json()["status_label"] == "Refusée"
    again = api_client.post(f"{URL}/{rental.pk}/refuse", {"reason": "Déjà louée"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == workflow.MSG_ALREADY_CLOSED


def test_the_staff_list_runs_a_fixed_number_of_queries(api_client, staff, member, django_assert_max_num_queries):
    for _ in range(6):
        rental = make_rental(member)
        services.rental_quote(rental_id=rental.pk, staff=staff, amount=Decimal("100"), deposit=Decimal("20"))
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(7):
        body = api_client.get(URL).json()
    assert body["count"] == 6 and body["results"][0]["status"] == "quoted"


def test_a_member_is_told_where_to_follow_the_request(client, member):
    client.force_login(member)
    day = (timezone.localdate() + timedelta(days=7)).isoformat()
    form = {"name": "Emma", "email": member.email, "phone": "0601020304", "eventType": "Réunion", "date": day}
    response = client.post("/rental-form", {**form, "time": "18:00"}, follow=True)
    rental = RoomRentalRequest.objects.get()
    assert rental.user == member and rental.status == "sent"
    page = response.content.decode()
    assert f'href="/user/requests/location/{rental.pk}"' in page and "Suivez votre demande" in page
