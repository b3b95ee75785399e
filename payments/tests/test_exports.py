"""CSV exports (docs/decisions.md 39): opened by Python's csv module as French Excel would (UTF-8 with BOM,
`;`, decimal comma, DD/MM/YYYY, HH:MM Paris), French headers and accents intact, totals matching the database."""

import csv
import io
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.core.management import call_command
from django.db.models import Sum
from freezegun import freeze_time

from bookings.models_operations import Attendance
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory
from payments.models import PaymentOrder, PaymentStatus

PARIS = ZoneInfo("Europe/Paris")


def read(content: bytes) -> list[list[str]]:
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))


def make_orders(member):
    with freeze_time("2026-03-10 17:05:00"):
        for n, amount in enumerate(["25.00", "190.50", "12.25"]):
            PaymentOrder.objects.create(
                order_id=f"ORD-{n}",
                email=member.email,
                first_name="Élodie",
                last_name="Lefèvre",
                title="Carte 10 cours – Débutant",
                amount=Decimal(amount),
                status=PaymentStatus.COMPLETED if n < 2 else PaymentStatus.REFUNDED,
            )


def test_orders_export_from_the_api_opens_with_french_headers_and_totals(api_client, staff, member):
    make_orders(member)
    api_client.force_authenticate(staff)
    response = api_client.get("/api/exports/orders", {"start": "2026-03-01", "end": "2026-03-31"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="commandes-et-remboursements-2026-03-01-2026-03-31.csv"' in response["Content-Disposition"]
    rows = read(response.content)
    assert rows[0][:8] == ["Commande", "Date", "Heure", "Nom", "E-mail", "Objet", "Montant (€)", "Statut"]
    assert rows[1][1:4] == ["10/03/2026", "18:05", "Élodie Lefèvre"]
    assert rows[1][5] == "Carte 10 cours – Débutant"
    total = sum(Decimal(r[6].replace(",", ".")) for r in rows[1:])
    assert total == PaymentOrder.objects.aggregate(s=Sum("amount"))["s"] == Decimal("227.75")
    assert [r[7] for r in rows[1:]] == ["Payée", "Payée", "Remboursée"]
    assert rows[2][6] == "190,50"


def test_reservations_export_with_attendance_by_command(tmp_path, member):
    course = CourseFactory(title="Pole Intermédiaire")
    session = CourseSessionFactory(course=course, start=datetime(2026, 4, 2, 18, 30, tzinfo=PARIS))
    present = ReservationFactory(session=session, participants=2, first_name="Zoé", last_name="Müller")
    Attendance.objects.create(reservation=present, status="present")
    card = PassFactory(member=member)
    ReservationFactory(session=session, user=member, paid_with_pass=card, credits_spent=1, unit_price=Decimal("0"))
    path = tmp_path / "r.csv"
    call_command("export_reservations", "--from", "2026-04-01", "--to", "2026-04-30", "--output", str(path))
    rows = read(path.read_bytes())
    assert rows[0][0] == "Date du cours" and rows[0][15] == "Présence"
    line = next(r for r in rows[1:] if r[5] == "Zoé Müller")
    assert line[:3] == ["02/04/2026", "18:30", "Pole Intermédiaire"]
    assert line[7:10] == ["2", "25,00", "50,00"] and line[15] == "Présent(e)"
    other = next(r for r in rows[1:] if r[6] == member.email)
    assert other[10:14] == ["Carte de cours", "Carte 10 cours", "1", "0,00"]
    assert len(rows) == 3


def test_members_passes_and_subscriptions_exports(api_client, staff, member):
    PassFactory(member=member, title="Carte 5 cours été")
    api_client.force_authenticate(staff)
    today = member.date_joined.astimezone(PARIS).date().isoformat()
    members = read(api_client.get("/api/exports/members", {"start": today, "end": today}).content)
    assert members[0] == [
        "Prénom",
        "Nom",
        "E-mail",
        "Téléphone",
        "Code postal",
        "Ville",
        "Rôle",
        "Inscrit(e) le",
        "Actif",
        "Absences",
    ]
    assert any(r[2] == member.email for r in members[1:])
    passes = read(api_client.get("/api/exports/passes", {"start": today, "end": today}).content)
    assert passes[1][3] == "Carte 5 cours été" and passes[1][0] == f"{member.first_name} {member.last_name}"
    subscriptions = read(api_client.get("/api/exports/subscriptions", {"start": today, "end": today}).content)
    assert subscriptions[0][3] == "Montant par période (€)" and len(subscriptions) == 1


def test_export_refusals_are_in_french(api_client, staff, member):
    api_client.force_authenticate(staff)
    bad = api_client.get("/api/exports/orders", {"start": "2026-03-31", "end": "2026-03-01"})
    assert bad.status_code == 409
    assert bad.json()["error"] == "La date de fin doit être le jour de début ou après, sur cinq ans au plus."
    garbled = api_client.get("/api/exports/orders", {"start": "01/03/2026", "end": "2026-03-02"})
    assert garbled.status_code == 400
    assert "Les dates de l'export doivent être au format AAAA-MM-JJ." in str(garbled.json())
    unknown = api_client.get("/api/exports/nope", {"start": "2026-03-01", "end": "2026-03-02"})
    assert unknown.status_code == 404 and unknown.json()["error"] == "Cet export n'existe pas."
    api_client.force_authenticate(member)
    assert api_client.get("/api/exports/orders", {"start": "2026-03-01", "end": "2026-03-02"}).status_code == 403
