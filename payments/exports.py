"""CSV exports for the studio's accounts (issue 20, DECISIONS.md 39): UTF-8 with a byte-order mark, `;` between
columns, decimal comma, dates DD/MM/YYYY and times HH:MM in Europe/Paris, French headers, so that French Excel and
LibreOffice open them as they are. Each covers a date range (Paris days, both included).

Payments sits above bookings, courses and accounts (README, "Layers"), so it can read every table exported here. Each
export streams its rows in a fixed number of queries (select_related, one annotation)."""

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.utils import timezone

from accounts.models import User
from bookings.models import Pass, Reservation

from .models import PaymentOrder, Subscription

BOM = "\ufeff"


def fr_decimal(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}".replace(".", ",")


def fr_date(value: date | datetime | None) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = timezone.localtime(value).date()
    return f"{value:%d/%m/%Y}"


def fr_time(value: datetime | None) -> str:
    return "" if value is None else f"{timezone.localtime(value):%H:%M}"


def csv_text(headers: list[str], rows: Iterable[list]) -> str:
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(headers)
    for row in rows:
        writer.writerow(["" if cell is None else cell for cell in row])
    return buffer.getvalue()


def _bounds(start: date, end: date) -> tuple[datetime, datetime]:
    tz = timezone.get_default_timezone()
    return (
        timezone.make_aware(datetime.combine(start, time.min), tz),
        timezone.make_aware(datetime.combine(end + timedelta(days=1), time.min), tz),
    )


def _member(user) -> str:
    return f"{user.first_name} {user.last_name}".strip() if user else ""


def orders_rows(start: date, end: date):
    low, high = _bounds(start, end)
    orders = PaymentOrder.objects.filter(created_at__gte=low, created_at__lt=high).order_by("created_at", "pk")
    for o in orders:
        yield [
            o.order_id,
            fr_date(o.created_at),
            fr_time(o.created_at),
            f"{o.first_name} {o.last_name}".strip(),
            o.email,
            o.title,
            fr_decimal(o.amount),
            o.get_status_display(),
            o.get_provider_display(),
            fr_date(o.completed_at),
            fr_date(o.refunded_at),
            o.refund_id,
            o.provider_note,
        ]


ORDERS_HEADERS = [
    "Commande",
    "Date",
    "Heure",
    "Nom",
    "E-mail",
    "Objet",
    "Montant (€)",
    "Statut",
    "Moyen de paiement",
    "Payée le",
    "Remboursée le",
    "Remboursement",
    "Note",
]


def reservations_rows(start: date, end: date):
    low, high = _bounds(start, end)
    reservations = (
        Reservation.objects.filter(session__start__gte=low, session__start__lt=high)
        .select_related("session__course", "session__instructor", "paid_with_pass", "attendance")
        .order_by("session__start", "last_name", "pk")
    )
    for r in reservations:
        attendance = getattr(r, "attendance", None)
        if r.paid_with_pass_id:
            payment = f"{r.paid_with_pass.get_kind_display()} ({r.paid_with_pass.title})"
        elif attendance is not None and attendance.paid_at_desk:
            payment = "Payé à l'accueil"
        else:
            payment = "Carte bancaire" if r.total_amount else "Gratuit"
        yield [
            fr_date(r.session.start),
            fr_time(r.session.start),
            r.session.course.title,
            r.session.instructor_name,
            "Annulé" if r.session.status == "cancelled" else "",
            f"{r.first_name} {r.last_name}".strip(),
            r.email,
            r.participants,
            fr_decimal(r.unit_price),
            fr_decimal(r.total_amount),
            payment,
            r.get_status_display(),
            attendance.get_status_display() if attendance else "",
            "Oui" if attendance and attendance.walk_in else "",
        ]


RESERVATIONS_HEADERS = [
    "Date du cours",
    "Heure",
    "Cours",
    "Professeur",
    "Cours annulé",
    "Membre",
    "E-mail",
    "Participants",
    "Prix par participant (€)",
    "Total (€)",
    "Paiement",
    "Statut",
    "Présence",
    "Ajouté(e) à l'accueil",
]


def members_rows(start: date, end: date):
    low, high = _bounds(start, end)
    members = (
        User.objects.filter(date_joined__gte=low, date_joined__lt=high)
        .annotate(no_shows=no_shows_subquery_for_user())
        .order_by("date_joined", "pk")
    )
    for u in members:
        yield [
            u.first_name,
            u.last_name,
            u.email,
            u.phone,
            u.postal_code,
            u.city,
            u.get_role_display(),
            fr_date(u.date_joined),
            "Oui" if u.is_active else "Non",
            u.no_shows,
        ]


def no_shows_subquery_for_user():
    """The member's no-shows, for a queryset of users (the subquery's OuterRef("user") is their pk)."""
    from django.db.models import Count, OuterRef, Subquery
    from django.db.models.functions import Coalesce

    from bookings.models import Attendance, AttendanceStatus

    return Coalesce(
        Subquery(
            Attendance.objects.filter(reservation__user=OuterRef("pk"), status=AttendanceStatus.ABSENT)
            .values("reservation__user")
            .annotate(n=Count("pk"))
            .values("n")[:1]
        ),
        0,
    )


MEMBERS_HEADERS = [
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


def passes_rows(start: date, end: date):
    low, high = _bounds(start, end)
    passes = Pass.objects.filter(created_at__gte=low, created_at__lt=high).select_related("member")
    for p in passes.order_by("created_at", "pk"):
        yield [
            _member(p.member),
            p.member.email,
            p.get_kind_display(),
            p.title,
            p.get_origin_display(),
            p.credits_total,
            p.credits_left,
            fr_date(p.starts_on),
            fr_date(p.expires_on),
            fr_date(p.created_at),
        ]


PASSES_HEADERS = [
    "Membre",
    "E-mail",
    "Type",
    "Intitulé",
    "Origine",
    "Crédits accordés",
    "Crédits restants",
    "Valable du",
    "Valable jusqu'au",
    "Créée le",
]


def subscriptions_rows(start: date, end: date):
    low, high = _bounds(start, end)
    subscriptions = Subscription.objects.filter(created_at__gte=low, created_at__lt=high).select_related("member")
    for s in subscriptions.order_by("created_at", "pk"):
        yield [
            _member(s.member),
            s.member.email,
            s.title,
            fr_decimal(s.amount),
            s.period_months,
            s.periods_committed,
            s.periods_paid,
            fr_date(s.starts_on),
            s.get_status_display(),
            fr_date(s.created_at),
        ]


SUBSCRIPTIONS_HEADERS = [
    "Membre",
    "E-mail",
    "Intitulé",
    "Montant par période (€)",
    "Période (mois)",
    "Périodes d'engagement",
    "Périodes payées",
    "Début",
    "Statut",
    "Souscrit le",
]


@dataclass(frozen=True)
class Export:
    name: str
    title: str
    headers: list[str]
    rows: object


EXPORTS = {
    "orders": Export("commandes-et-remboursements", "Commandes et remboursements", ORDERS_HEADERS, orders_rows),
    "reservations": Export("reservations", "Réservations et présences", RESERVATIONS_HEADERS, reservations_rows),
    "members": Export("membres", "Membres", MEMBERS_HEADERS, members_rows),
    "passes": Export("cartes-et-abonnements", "Cartes et abonnements", PASSES_HEADERS, passes_rows),
    "subscriptions": Export("abonnements", "Abonnements", SUBSCRIPTIONS_HEADERS, subscriptions_rows),
}


def export_csv(kind: str, *, start: date, end: date) -> tuple[str, str]:
    """The file name and the CSV text of an export."""
    export = EXPORTS[kind]
    return f"{export.name}-{start:%Y-%m-%d}-{end:%Y-%m-%d}.csv", csv_text(export.headers, export.rows(start, end))
