"""CSV and .xlsx exports for the studio's accounts (docs/decisions.md 39). The CSV: UTF-8 with a byte-order mark,
`;` between columns, decimal comma, dates DD/MM/YYYY and times HH:MM in Europe/Paris, French headers; the .xlsx: the
same table with typed cells (amounts in euros, dates, phone numbers and postcodes as text), which a spreadsheet opens
without an import wizard. Both are written by `studio.spreadsheets`, which neutralises every text cell a spreadsheet
would read as a formula. Each covers a date range (Paris days, both included).

Payments sits above bookings, courses and accounts (README, "Layers"), so it can read every table exported here. Each
export streams its rows in a fixed number of queries (select_related, annotations)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import Count, DecimalField, Exists, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from bookings.models import Pass, Reservation
from bookings.models_operations import Attendance, AttendanceStatus
from studio.spreadsheets import CSV_CONTENT_TYPE, XLSX_CONTENT_TYPE, CellType, Column, table_csv, table_xlsx

from .models import PaymentOrder, PaymentStatus
from .subscriptions.models import Subscription

FILE_FORMATS = {"csv": CSV_CONTENT_TYPE, "xlsx": XLSX_CONTENT_TYPE}

TEXT, PHONE, CODE = CellType.TEXT, CellType.PHONE, CellType.CODE
INTEGER, MONEY, DATE, TIME = CellType.INTEGER, CellType.MONEY, CellType.DATE, CellType.TIME

# How a seat was paid (the reservations export's "Paiement"), besides a class card or a subscription (their kind's
# name): what it brought in is in "Encaissé (€)", so that the column sums to the money received for the seats.
PAID_ONLINE = "Paiement en ligne"
PAID_AT_DESK = "Payé à l'accueil"
PAYMENT_REFUNDED = "Remboursé"
PAYMENT_DUE = "À régler"
PAYMENT_FREE = "Gratuit"


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
            o.created_at,
            o.created_at,
            f"{o.first_name} {o.last_name}".strip(),
            o.email,
            o.title,
            o.amount,
            o.get_status_display(),
            o.get_provider_display(),
            o.completed_at,
            o.refunded_at,
            o.refund_id,
            o.provider_note,
        ]


ORDERS_COLUMNS = [
    Column("Commande", width=24),
    Column("Date", DATE),
    Column("Heure", TIME, width=8),
    Column("Nom", width=24),
    Column("E-mail", width=30),
    Column("Objet", width=30),
    Column("Montant (€)", MONEY),
    Column("Statut"),
    Column("Moyen de paiement", width=20),
    Column("Payée le", DATE),
    Column("Remboursée le", DATE),
    Column("Remboursement", width=20),
    Column("Note", width=30),
]


def _orders_of_reservation(*statuses: str):
    return PaymentOrder.objects.filter(reservation=OuterRef("pk"), status__in=statuses)


def _labels(model, field: str) -> dict:
    """A field's value → label, as `get_<field>_display()` reads them (an unknown value shows as itself)."""
    return dict(model._meta.get_field(field).flatchoices)


def reservation_payment(
    *, pass_kind: str, paid_online: Decimal, refunded_online: bool, at_desk: bool, total_amount: Decimal
) -> tuple[str, Decimal]:
    """How the seats were paid and the money they brought in. A card credit or a subscription brings in nothing (the
    pass was paid when it was sold: its order is in the orders export); a payment online brings in what was captured
    and kept, even when the reservation was cancelled in time and became an 'avoir'; a payment at the desk brings in
    the seats at their price; a refund, a hold not yet paid and a free seat bring in nothing. `pass_kind` is the label
    of the card or subscription that paid (empty if none); `at_desk`: paid at the desk and not with a pass."""
    received = paid_online + (total_amount if at_desk else Decimal("0"))
    if pass_kind:
        return pass_kind, received
    if paid_online:
        return PAID_ONLINE, received
    if refunded_online:
        return PAYMENT_REFUNDED, received
    if at_desk:
        return PAID_AT_DESK, received
    if not total_amount:
        return PAYMENT_FREE, received
    return PAYMENT_DUE, received


# What a row reads, as plain values: a month of a busy studio is a thousand bookings, each joining five tables, which
# as model instances (a reservation, its class, course, instructor, pass and attendance) cost far more than the file.
_RESERVATION_VALUES = (
    "session__start", "session__course__title", "session__instructor__name", "session__status",
    "first_name", "last_name", "email", "participants", "unit_price", "status", "credits_spent",
    "paid_with_pass_id", "paid_with_pass__kind", "paid_with_pass__title",
    "attendance__pk", "attendance__status", "attendance__walk_in", "attendance__paid_at_desk",
    "paid_online", "refunded_online",
)  # fmt: skip


def reservations_rows(start: date, end: date):
    low, high = _bounds(start, end)
    paid = _orders_of_reservation(PaymentStatus.COMPLETED).values("reservation").annotate(s=Sum("amount")).values("s")
    money = DecimalField(max_digits=10, decimal_places=2)
    reservations = (
        Reservation.objects.filter(session__start__gte=low, session__start__lt=high)
        .annotate(
            paid_online=Coalesce(Subquery(paid[:1], output_field=money), Value(Decimal("0")), output_field=money),
            refunded_online=Exists(
                _orders_of_reservation(PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED).filter(
                    completed_at__isnull=False
                )
            ),
        )
        .order_by("session__start", "last_name", "pk")
        .values_list(*_RESERVATION_VALUES)
    )
    statuses = _labels(Reservation, "status")
    pass_kinds = _labels(Pass, "kind")
    attendance_statuses = _labels(Attendance, "status")
    cent = Decimal("0.01")
    for (
        session_start, course_title, instructor_name, session_status,
        first_name, last_name, email, participants, unit_price, status, credits_spent,
        pass_id, pass_kind, pass_title,
        attendance_id, attendance_status, walk_in, paid_at_desk,
        paid_online, refunded_online,
    ) in reservations:  # fmt: skip
        total_amount = (unit_price * participants).quantize(cent)  # Reservation.total_amount
        attended = attendance_id is not None
        paid_by, received = reservation_payment(
            pass_kind=pass_kinds.get(pass_kind, pass_kind) if pass_id else "",
            paid_online=paid_online,
            refunded_online=refunded_online,
            at_desk=attended and paid_at_desk and not pass_id,
            total_amount=total_amount,
        )
        yield [
            session_start,
            session_start,
            course_title,
            instructor_name or "",  # CourseSession.instructor_name: '' without an instructor
            "Annulé" if session_status == "cancelled" else "",
            f"{first_name} {last_name}".strip(),
            email,
            participants,
            unit_price,
            total_amount,
            paid_by,
            pass_title if pass_id else "",
            credits_spent,
            received,
            statuses.get(status, status),
            attendance_statuses.get(attendance_status, attendance_status) if attended else "",
            "Oui" if attended and walk_in else "",
        ]


RESERVATIONS_COLUMNS = [
    Column("Date du cours", DATE),
    Column("Heure", TIME, width=8),
    Column("Cours", width=30),
    Column("Professeur", width=20),
    Column("Cours annulé"),
    Column("Membre", width=24),
    Column("E-mail", width=30),
    Column("Participants", INTEGER),
    Column("Prix par participant (€)", MONEY),
    # What the seats are worth at the class's price, whatever paid for them: not money received.
    Column("Valeur au prix du cours (€)", MONEY),
    Column("Paiement", width=20),
    Column("Carte ou abonnement", width=24),
    Column("Crédits utilisés", INTEGER),
    Column("Encaissé (€)", MONEY),
    Column("Statut", width=20),
    Column("Présence"),
    Column("Ajouté(e) à l'accueil"),
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
            u.date_joined,
            "Oui" if u.is_active else "Non",
            u.no_shows,
        ]


def no_shows_subquery_for_user():
    """The member's no-shows, for a queryset of users (the subquery's OuterRef("user") is their pk)."""
    return Coalesce(
        Subquery(
            Attendance.objects.filter(reservation__user=OuterRef("pk"), status=AttendanceStatus.ABSENT)
            .values("reservation__user")
            .annotate(n=Count("pk"))
            .values("n")[:1]
        ),
        0,
    )


MEMBERS_COLUMNS = [
    Column("Prénom", width=18),
    Column("Nom", width=18),
    Column("E-mail", width=30),
    Column("Téléphone", PHONE, width=16),
    Column("Code postal", CODE),
    Column("Ville", width=18),
    Column("Rôle"),
    Column("Inscrit(e) le", DATE),
    Column("Actif", width=8),
    Column("Absences", INTEGER),
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
            p.starts_on,
            p.expires_on,
            p.created_at,
        ]


PASSES_COLUMNS = [
    Column("Membre", width=24),
    Column("E-mail", width=30),
    Column("Type", width=16),
    Column("Intitulé", width=30),
    Column("Origine", width=24),
    Column("Crédits accordés", INTEGER),
    Column("Crédits restants", INTEGER),
    Column("Valable du", DATE),
    Column("Valable jusqu'au", DATE),
    Column("Créée le", DATE),
]


def subscriptions_rows(start: date, end: date):
    low, high = _bounds(start, end)
    subscriptions = Subscription.objects.filter(created_at__gte=low, created_at__lt=high).select_related("member")
    for s in subscriptions.order_by("created_at", "pk"):
        yield [
            _member(s.member),
            s.member.email,
            s.title,
            s.amount,
            s.period_months,
            s.periods_committed,
            s.periods_paid,
            s.starts_on,
            s.get_status_display(),
            s.created_at,
        ]


SUBSCRIPTIONS_COLUMNS = [
    Column("Membre", width=24),
    Column("E-mail", width=30),
    Column("Intitulé", width=30),
    Column("Montant par période (€)", MONEY),
    Column("Période (mois)", INTEGER),
    Column("Périodes d'engagement", INTEGER),
    Column("Périodes payées", INTEGER),
    Column("Début", DATE),
    Column("Statut"),
    Column("Souscrit le", DATE),
]


@dataclass(frozen=True)
class Export:
    name: str
    title: str
    columns: list[Column]
    rows: Callable[[date, date], Iterable[list]]


EXPORTS = {
    "orders": Export("commandes-et-remboursements", "Commandes et remboursements", ORDERS_COLUMNS, orders_rows),
    "reservations": Export("reservations", "Réservations et présences", RESERVATIONS_COLUMNS, reservations_rows),
    "members": Export("membres", "Membres", MEMBERS_COLUMNS, members_rows),
    "passes": Export("cartes-et-abonnements", "Cartes et abonnements", PASSES_COLUMNS, passes_rows),
    "subscriptions": Export("abonnements", "Abonnements", SUBSCRIPTIONS_COLUMNS, subscriptions_rows),
}


def export_file(kind: str, *, start: date, end: date, file_format: str = "csv") -> tuple[str, bytes]:
    """The file name and the content of an export, as CSV (UTF-8 with BOM) or .xlsx (`file_format`)."""
    export = EXPORTS[kind]
    name = f"{export.name}-{start:%Y-%m-%d}-{end:%Y-%m-%d}.{file_format}"
    rows = export.rows(start, end)
    if file_format == "xlsx":
        return name, table_xlsx(export.columns, rows, title=export.title)
    return name, table_csv(export.columns, rows).encode("utf-8")
