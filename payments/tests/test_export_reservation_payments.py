"""The reservations export says how each seat was paid (class card, subscription, online, at the desk, refunded, due,
free) and what it brought in, so that its money column sums to the money received for the seats: a seat paid with a
card credit is worth a class but brings in nothing, the card having been paid when it was sold."""

from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.models import ReservationStatus
from bookings.models_operations import Attendance
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory
from payments.exports import PAID_AT_DESK, PAID_ONLINE, PAYMENT_DUE, PAYMENT_FREE, PAYMENT_REFUNDED, export_file
from payments.models import PaymentOrder, PaymentStatus
from payments.tests.test_export_spreadsheets import as_libreoffice, read_csv, read_xlsx

PARIS = ZoneInfo("Europe/Paris")
DAYS = {"start": "2026-04-01", "end": "2026-04-30"}


@pytest.fixture
def seats(db):
    """Eight seats of one class, paid each way there is; 100 € came in for them."""
    with freeze_time("2026-04-01 08:00:00"):
        session = CourseSessionFactory(
            course=CourseFactory(title="Pole Intermédiaire"), start=datetime(2026, 4, 2, 18, 30, tzinfo=PARIS)
        )
        seat = {}

        def booked(name, **fields):
            seat[name] = ReservationFactory(session=session, last_name=name, unit_price=Decimal("25.00"), **fields)
            return seat[name]

        card_member = UserFactory()
        booked("Carte", user=card_member, paid_with_pass=PassFactory(member=card_member), credits_spent=1)
        subscriber = UserFactory()
        booked("Abonnée", user=subscriber, paid_with_pass=PassFactory(member=subscriber, subscription=True))
        for name, status, order_status in [
            ("En ligne", ReservationStatus.CONFIRMED, PaymentStatus.COMPLETED),
            ("Avoir", ReservationStatus.CANCELLED, PaymentStatus.COMPLETED),  # cancelled in time: the money stays
            ("Remboursée", ReservationStatus.CANCELLED, PaymentStatus.REFUNDED),
        ]:
            r = booked(name, status=status)
            PaymentOrder.objects.create(
                order_id=f"ORD-{name}",
                email=r.email,
                title="Pole Intermédiaire",
                amount=Decimal("25.00"),
                status=order_status,
                reservation=r,
                completed_at=r.created_at,
            )
        desk = booked("Accueil", participants=2)
        Attendance.objects.create(reservation=desk, status="present", walk_in=True, paid_at_desk=True)
        booked("Attente", held=True)
        seat["Offert"] = ReservationFactory(session=session, last_name="Offert", unit_price=Decimal("0"))
    return seat


EXPECTED_SEATS = {
    # last name: (how it was paid, card or subscription, credits spent, what it brought in)
    "Carte": ("Carte de cours", "Carte 10 cours", 1, Decimal("0")),
    "Abonnée": ("Abonnement", "Abonnement annuel illimité", 0, Decimal("0")),
    "En ligne": (PAID_ONLINE, "", 0, Decimal("25")),
    "Avoir": (PAID_ONLINE, "", 0, Decimal("25")),
    "Remboursée": (PAYMENT_REFUNDED, "", 0, Decimal("0")),
    "Accueil": (PAID_AT_DESK, "", 0, Decimal("50")),
    "Attente": (PAYMENT_DUE, "", 0, Decimal("0")),
    "Offert": (PAYMENT_FREE, "", 0, Decimal("0")),
}


def test_the_reservations_csv_says_how_each_seat_was_paid_and_what_it_brought_in(api_client, staff, seats):
    api_client.force_authenticate(staff)
    records = as_libreoffice(read_csv(api_client.get("/api/exports/reservations", DAYS).content))
    by_name = {r["Membre"][1].split(" ", 1)[1]: r for r in records}
    assert set(by_name) == set(EXPECTED_SEATS)
    for name, (paid_by, pass_title, credits, received) in EXPECTED_SEATS.items():
        record = by_name[name]
        assert record["Paiement"] == ("text", paid_by), name
        assert record["Carte ou abonnement"][1] == pass_title, name
        assert record["Crédits utilisés"] == ("number", credits), name
        assert record["Encaissé (€)"] == ("number", received), name
    # The card seat is worth a class at its price, but brought in nothing: the card was paid when it was sold.
    assert by_name["Carte"]["Valeur au prix du cours (€)"] == ("number", Decimal("25"))
    assert sum(r["Encaissé (€)"][1] for r in records) == Decimal("100")


def test_the_reservations_xlsx_sums_to_the_money_received(api_client, staff, seats):
    api_client.force_authenticate(staff)
    _, rows, _ = read_xlsx(api_client.get("/api/exports/reservations", {**DAYS, "format": "xlsx"}).content)
    by_name = {r["Membre"].value.split(" ", 1)[1]: r for r in rows}
    for name, (paid_by, _, credits, received) in EXPECTED_SEATS.items():
        assert by_name[name]["Paiement"].value == paid_by
        assert by_name[name]["Crédits utilisés"].value == credits
        assert Decimal(str(by_name[name]["Encaissé (€)"].value)) == received
    assert by_name["Carte"]["Date du cours"].value == datetime(2026, 4, 2)
    assert by_name["Carte"]["Heure"].value == time(18, 30)
    assert sum(r["Encaissé (€)"].value for r in rows) == 100


def test_the_reservations_export_reads_a_fixed_number_of_queries(api_client, staff, seats, django_assert_num_queries):
    start, end = date(2026, 4, 1), date(2026, 4, 30)
    with django_assert_num_queries(1):
        export_file("reservations", start=start, end=end, file_format="xlsx")


def test_the_reservations_export_reads_plain_values_not_a_model_per_booking(seats):
    """A month of a busy studio is a thousand bookings: as model instances (each with its class, course, instructor,
    pass and attendance) they cost several times the file itself."""
    from django.db.models.signals import pre_init

    built = []

    def count(sender, **kwargs):
        built.append(sender)

    pre_init.connect(count)
    try:
        for file_format in ("csv", "xlsx"):
            export_file("reservations", start=date(2026, 4, 1), end=date(2026, 4, 30), file_format=file_format)
    finally:
        pre_init.disconnect(count)
    assert built == []


def test_the_export_command_sums_the_same(tmp_path, seats):
    from django.core.management import call_command

    path = tmp_path / "r.xlsx"
    call_command("export_reservations", "--from", "2026-04-01", "--to", "2026-04-30", "--format", "xlsx", "-o", path)
    _, rows, _ = read_xlsx(path.read_bytes())
    assert sum(r["Encaissé (€)"].value for r in rows) == 100
