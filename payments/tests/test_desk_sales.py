"""Sales at the front desk (docs/decisions.md 43): a class card or a subscription's first period paid by one or several
means, priced from the database, completed once through the online path (pass granted, invoice listing every means),
and the day's takings by means with their CSV (docs/decisions.md 39)."""

import uuid
from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from accounts.models import StaffAction
from accounts.tests.factories import UserFactory
from bookings.models import Pass, PassKind
from bookings.services.staff_bookings import MSG_MEMBER_CLOSED
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import TariffFactory
from invoices.models import Invoice
from invoices.tests.helpers import pdf_text
from payments.apis.desk import MSG_RESERVATION_ID_INVALID, MSG_TAKINGS_DATE_INVALID, MSG_TARIFF_ID_INVALID
from payments.apis.desk_bookings import MSG_USER_ID_INVALID
from payments.apis.desk_fields import (
    MSG_IDEMPOTENCY_KEY_INVALID,
    MSG_LINE_AMOUNT_INVALID,
    MSG_LINES_INVALID,
    MSG_MEANS_INVALID,
)
from payments.choices import PaymentProviderName
from payments.desk_selectors import desk_takings
from payments.models import PaymentOrder, PaymentStatus
from payments.services.desk import (
    MSG_DESK_ITEM_REQUIRED,
    MSG_DESK_KEY_REUSED,
    MSG_DESK_MEANS_REQUIRED,
    MSG_DESK_NOTHING_DUE,
    MSG_DESK_RESERVATION_NOT_FOUND,
    MSG_DESK_SALE_RECORDED,
    MSG_DESK_TARIFF_NOT_FOUND,
    MSG_DESK_TARIFF_NOT_SOLD,
    MSG_DESK_TOTAL_MISMATCH,
    DeskLine,
    desk_sale_record,
)
from payments.subscriptions.models import Subscription

SALES = "/api/desk/sales"
TAKINGS = "/api/desk/takings"


def _card(price="190.00"):
    return TariffFactory(title="Carte 10 cours", price=Decimal(price), pass_credits=10, pass_validity_months=6)


def _sale(api_client, member, tariff, payments, key=None):
    return api_client.post(
        SALES,
        {
            "user_id": member.pk,
            "tariff_id": tariff.pk,
            "payments": payments,
            "idempotency_key": str(key or uuid.uuid4()),
        },
        format="json",
    )


SPLIT = [{"means": "pass_sport", "amount": "50.00"}, {"means": "cash", "amount": "140.00"}]


def test_a_class_card_sold_at_the_desk_split_between_two_means_is_granted_and_invoiced_with_each_means(
    api_client, staff, member, django_capture_on_commit_callbacks, mailoutbox
):
    tariff = _card()
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = _sale(api_client, member, tariff, SPLIT)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["message"] == MSG_DESK_SALE_RECORDED.format(
        title="Carte 10 cours", amount="190,00 €", means="Pass'Sport 50,00 €, Espèces 140,00 €"
    )
    assert body["message"] == "Vente enregistrée : Carte 10 cours, 190,00 € (Pass'Sport 50,00 €, Espèces 140,00 €)."
    order = PaymentOrder.objects.get(order_id=body["order_id"])
    assert (order.provider, order.status, order.amount) == (
        PaymentProviderName.DESK,
        PaymentStatus.COMPLETED,
        Decimal("190.00"),
    )
    card = Pass.objects.get(member=member)
    assert (card.kind, card.credits_left, order.granted_pass_id) == (PassKind.CARD, 10, card.pk)
    invoice = Invoice.objects.get(payment_order=order)
    assert invoice.total_amount == Decimal("190.00")
    text = pdf_text(api_client.get(f"/api/invoices/{invoice.pk}/pdf").content)
    assert "Pass'Sport 50,00 €" in text and "Espèces 140,00 €" in text
    assert "Réglée par paiement à l'accueil du studio." in text
    line = StaffAction.objects.get(member=member)
    assert line.action == "desk_sale"
    assert line.summary == "Vente à l'accueil : Carte 10 cours, 190,00 € (Pass'Sport 50,00 €, Espèces 140,00 €)"
    assert [m.to for m in mailoutbox] == [[member.email]]  # the receipt with its invoice


def test_the_means_must_add_up_to_the_price_from_the_database(api_client, staff, member):
    tariff = _card()
    api_client.force_authenticate(staff)
    response = _sale(api_client, member, tariff, [{"means": "cash", "amount": "180.00"}])
    assert response.status_code == 400
    assert response.json()["error"] == MSG_DESK_TOTAL_MISMATCH.format(
        total="180,00 €", price="190,00 €", remainder="10,00 €"
    )
    assert response.json()["error"] == (
        "Le total des moyens de paiement (180,00 €) ne correspond pas au prix : 190,00 €. Il reste 10,00 € à répartir."
    )
    assert not PaymentOrder.objects.exists() and not Pass.objects.exists()


def test_each_line_is_a_known_means_and_a_positive_amount(api_client, staff, member):
    tariff = _card()
    api_client.force_authenticate(staff)
    response = _sale(api_client, member, tariff, [{"means": "bitcoin", "amount": "190.00"}])
    assert response.status_code == 400
    assert response.json()["errors"]["payments"]["0"]["means"] == [MSG_MEANS_INVALID]
    assert response.json()["error"] == MSG_MEANS_INVALID
    response = _sale(api_client, member, tariff, [{"means": "cash", "amount": "0"}, SPLIT[0]])
    assert response.status_code == 400
    assert response.json()["errors"]["payments"]["0"]["amount"] == [MSG_LINE_AMOUNT_INVALID]
    response = api_client.post(
        SALES, {"user_id": member.pk, "payments": SPLIT, "idempotency_key": str(uuid.uuid4())}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"] == MSG_DESK_ITEM_REQUIRED


def test_a_tariff_not_sold_at_the_desk_is_refused(api_client, staff, member):
    free = TariffFactory(price=Decimal("0.00"))
    api_client.force_authenticate(staff)
    response = _sale(api_client, member, free, [{"means": "cash", "amount": "1.00"}])
    assert response.status_code == 409 and response.json()["error"] == MSG_DESK_TARIFF_NOT_SOLD


def test_the_same_key_answers_the_sale_already_recorded_and_another_sale_with_it_is_refused(
    api_client, staff, member, other_member
):
    tariff = _card()
    key = uuid.uuid4()
    api_client.force_authenticate(staff)
    first = _sale(api_client, member, tariff, SPLIT, key)
    again = _sale(api_client, member, tariff, SPLIT, key)
    assert first.status_code == again.status_code == 201
    assert first.json()["order_id"] == again.json()["order_id"]
    assert PaymentOrder.objects.count() == Invoice.objects.count() == Pass.objects.count() == 1
    other = _sale(api_client, other_member, tariff, SPLIT, key)
    assert other.status_code == 409 and other.json()["error"] == MSG_DESK_KEY_REUSED


def test_a_subscriptions_first_period_is_sold_at_the_desk(api_client, staff, member):
    plan = TariffFactory(
        title="Abonnement mensuel",
        price=Decimal("55.00"),
        frequency="par mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    api_client.force_authenticate(staff)
    response = _sale(api_client, member, plan, [{"means": "cheque", "amount": "55.00"}])
    assert response.status_code == 201, response.json()
    subscription = Subscription.objects.get(member=member)
    assert (subscription.periods_paid, subscription.provider) == (1, PaymentProviderName.DESK)
    assert Pass.objects.get(member=member).kind == PassKind.SUBSCRIPTION


def test_a_booking_not_due_cannot_be_settled(api_client, staff, member):
    reservation = ReservationFactory(user=member)
    api_client.force_authenticate(staff)
    response = api_client.post(
        SALES,
        {
            "user_id": member.pk,
            "reservation_id": reservation.pk,
            "payments": [{"means": "cash", "amount": "25.00"}],
            "idempotency_key": str(uuid.uuid4()),
        },
        format="json",
    )
    assert response.status_code == 409 and response.json()["error"] == MSG_DESK_NOTHING_DUE


def test_members_cannot_sell(api_client, member):
    api_client.force_authenticate(member)
    assert _sale(api_client, member, _card(), SPLIT).status_code == 403
    assert api_client.get(TAKINGS).status_code == 403


def test_the_days_takings_add_up_each_means_and_list_the_sales(api_client, staff, member, other_member):
    api_client.force_authenticate(staff)
    assert _sale(api_client, member, _card(), SPLIT).status_code == 201
    assert _sale(api_client, other_member, _card("60.00"), [{"means": "cash", "amount": "60.00"}]).status_code == 201
    takings = api_client.get(TAKINGS, {"date": timezone.localdate().isoformat()}).json()
    totals = {row["means"]: (row["label"], row["count"], row["total"]) for row in takings["by_means"]}
    assert totals["cash"] == ("Espèces", 2, "200.00")
    assert totals["pass_sport"] == ("Pass'Sport", 1, "50.00")
    assert totals["cheque"] == ("Chèque", 0, "0.00")
    assert takings["total"] == "250.00"
    assert [sale["client"] for sale in takings["sales"]] == ["Emma Petit", "Lucie Martin"]
    assert takings["sales"][0]["staff"] == "Camille Laurent"
    yesterday = api_client.get(TAKINGS, {"date": (timezone.localdate() - timedelta(days=1)).isoformat()}).json()
    assert yesterday["total"] == "0.00" and yesterday["sales"] == []
    for written in ("29/11/2026", ""):  # absent is today; sent empty is no date
        bad = api_client.get(TAKINGS, {"date": written})
        assert bad.status_code == 400 and bad.json()["errors"]["date"] == [MSG_TAKINGS_DATE_INVALID]


def test_the_takings_csv_is_french_excel_ready_and_neutralises_formulas(api_client, staff):
    sly = UserFactory(first_name="=HYPERLINK(1)", last_name="Dupont")
    api_client.force_authenticate(staff)
    assert _sale(api_client, sly, _card(), SPLIT).status_code == 201
    response = api_client.get(f"{TAKINGS}.csv", {"date": timezone.localdate().isoformat()})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == f'attachment; filename="caisse-{timezone.localdate():%Y-%m-%d}.csv"'
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = [line.split(";") for line in text.lstrip("\ufeff").strip().split("\r\n")]
    assert rows[0] == [
        "Date",
        "Heure",
        "Commande",
        "Client",
        "Vente",
        "Moyen de paiement",
        "Montant (€)",
        "Encaissé par",
    ]
    today = f"{timezone.localdate():%d/%m/%Y}"
    assert rows[1][0] == today and rows[1][3] == "'=HYPERLINK(1) Dupont"
    assert (rows[1][5], rows[1][6]) == ("Pass'Sport", "50,00") and (rows[2][5], rows[2][6]) == ("Espèces", "140,00")
    assert rows[-1] == [today, "", "", "", "Total de la journée", "", "190,00", ""]


def test_each_refusal_of_a_sale_is_said_in_french(api_client, staff, member):
    api_client.force_authenticate(staff)
    key = str(uuid.uuid4())
    cases = [
        ({"user_id": member.pk, "tariff_id": 999999, "payments": SPLIT}, 404, MSG_DESK_TARIFF_NOT_FOUND),
        ({"user_id": member.pk, "reservation_id": 999999, "payments": SPLIT}, 404, MSG_DESK_RESERVATION_NOT_FOUND),
        ({"user_id": member.pk, "tariff_id": _card().pk, "payments": []}, 400, MSG_DESK_MEANS_REQUIRED),
    ]
    for body, status, message in cases:
        response = api_client.post(SALES, {**body, "idempotency_key": str(uuid.uuid4())}, format="json")
        assert (response.status_code, response.json()["error"]) == (status, message)
    assert MSG_DESK_MEANS_REQUIRED == "Indiquez au moins un moyen de paiement avec son montant."
    fields = [
        ({"user_id": "x"}, "user_id", MSG_USER_ID_INVALID),
        ({"tariff_id": "x"}, "tariff_id", MSG_TARIFF_ID_INVALID),
        ({"reservation_id": 0}, "reservation_id", MSG_RESERVATION_ID_INVALID),
        ({"payments": "cash"}, "payments", MSG_LINES_INVALID),
        ({"idempotency_key": "123"}, "idempotency_key", MSG_IDEMPOTENCY_KEY_INVALID),
    ]
    for override, field, message in fields:
        body = {"user_id": member.pk, "tariff_id": 1, "payments": SPLIT, "idempotency_key": key, **override}
        response = api_client.post(SALES, body, format="json")
        assert response.status_code == 400 and response.json()["errors"][field] == [message]


def test_a_closed_account_is_sold_nothing(api_client, staff, member):
    member.is_active = False
    member.save(update_fields=["is_active"])
    api_client.force_authenticate(staff)
    response = _sale(api_client, member, _card(), SPLIT)
    assert response.status_code == 409 and response.json()["error"] == MSG_MEMBER_CLOSED
    assert MSG_MEMBER_CLOSED == (
        "Ce compte est fermé (supprimé ou désactivé) : cette personne ne peut pas être inscrite."
    )


def test_the_django_admin_shows_a_desk_sales_means_on_its_order(api_client, client, staff, member):
    api_client.force_authenticate(staff)
    order_id = _sale(api_client, member, _card(), SPLIT).json()["order_id"]
    client.force_login(staff)
    page = client.get(f"/django-admin/payments/paymentorder/{PaymentOrder.objects.get(order_id=order_id).pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Pass&#x27;Sport" in text and "Espèces" in text and "paiements à l&#x27;accueil" in text.lower()


def test_the_days_takings_are_read_in_a_fixed_number_of_queries(staff, django_assert_max_num_queries):
    card = _card()
    for _ in range(5):
        client = UserFactory()
        desk_sale_record(
            staff=staff,
            member_id=client.pk,
            tariff_id=card.pk,
            lines=[DeskLine(means="cash", amount=Decimal("100.00")), DeskLine(means="ancv", amount=Decimal("90.00"))],
            idempotency_key=uuid.uuid4(),
        )
    with django_assert_max_num_queries(3):
        takings = desk_takings(day=timezone.localdate())
    assert len(takings["sales"]) == 5 and takings["total"] == Decimal("950.00")
