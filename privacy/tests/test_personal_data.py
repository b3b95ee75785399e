"""A member's personal data (docs/decisions.md 34, 37): "Télécharger mes données" answers everything held about
them as JSON; "Supprimer mon compte" (their password) or staff on their request erase it everywhere, cancel their
future bookings as their own cancellation would, end every session and token, and keep the accounting records."""

import json
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.files.base import ContentFile
from django.db import connection, models, reset_queries
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import escape

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from bookings.models import Pass, PassOrigin, Reservation, ReservationStatus
from bookings.services.availability import session_seats_left
from bookings.tests.factories import CourseFeedbackFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory, TariffFactory
from invoices.models import Invoice, InvoiceKind
from invoices.tests.helpers import pay_reservation, pay_tariff
from messaging.tests.factories import ContactMessageFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ReducedRateProof, Subscription, SubscriptionStatus
from privacy.export import COOKIES_NOTE
from privacy.services import (
    MSG_ACCOUNT_DELETED,
    MSG_ACCOUNT_ERASED_BY_STAFF,
    MSG_PASSWORD_REQUIRED,
    MSG_PASSWORD_WRONG,
    MSG_SELF_ERASE,
    MSG_STAFF_ACCOUNT,
    MSG_USER_NOT_FOUND,
)
from quotes.tests.factories import PartyReservationFactory, RoomRentalRequestFactory
from studio.api import MSG_NOT_AUTHENTICATED

pytestmark = pytest.mark.django_db

EXPORT = "/api/users/me/export"
ME = "/api/users/me"
IDENTITY = {
    "first_name": "Ophélie",
    "last_name": "Vasseur-Dumont",
    "email": "ophelie.vasseur@example.fr",
    "phone": "0698765432",
    "address": "17 impasse des Glycines",
}


@pytest.fixture
def ophelie(db):
    return UserFactory(**IDENTITY, postal_code="69007", city="Lyon")


def _hold(member, session, participants=1):
    return Reservation.objects.create(
        session=session,
        user=member,
        participants=participants,
        unit_price=session.price_per_participant,
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
        status=ReservationStatus.HELD,
        hold_expires_at=timezone.now() + timedelta(minutes=15),
    )


def a_month_of_classes(api_client, member):
    """What a member leaves behind: a class paid by card (invoice), a class card bought online (invoice), a class
    booked with it tomorrow morning (too late to cancel), a hold being paid, a party request, messages, a rental
    request, a review, the outbox's receipts."""
    paid_session = CourseSessionFactory(start=timezone.now() + timedelta(days=5), max_attendees=4)
    pay_reservation(api_client, member, _hold(member, paid_session, participants=2))
    five = TariffFactory(
        title="Carte 5 cours", price=Decimal("100.00"), type="forfait", pass_credits=5, pass_validity_months=6
    )
    card = pay_tariff(api_client, member, five)
    soon = CourseSessionFactory(start=timezone.now() + timedelta(hours=5), max_attendees=3)
    ReservationFactory(
        session=soon, user=member, paid_with_pass=card.granted_pass, credits_spent=1, message="Je viens avec ma sœur"
    )
    Pass.objects.filter(pk=card.granted_pass_id).update(credits_left=4)  # the credit that booking spent
    held_session = CourseSessionFactory(start=timezone.now() + timedelta(days=9), max_attendees=2)
    _hold(member, held_session)
    PartyReservationFactory(
        user=member,
        first_name=member.first_name,
        last_name=member.last_name,
        title="EVJF d'Ophélie Vasseur-Dumont",
        message="Appelez-moi au 0698765432",
    )
    ContactMessageFactory(
        user=member,
        name="Ophélie Vasseur-Dumont",
        email=member.email,
        phone=member.phone,
        subject="Mon adresse",
        text="J'habite 17 impasse des Glycines.",
    )
    RoomRentalRequestFactory(name="Ophélie Vasseur-Dumont", email=member.email, phone=member.phone, user=member)
    CourseFeedbackFactory(user=member, comment="Merci, signé Ophélie Vasseur-Dumont")
    proof = ReducedRateProof(member=member)
    proof.file.save("carte-etudiante.png", ContentFile(b"\x89PNG student card"), save=True)
    return {
        "proof": proof.file.name,
        "paid_session": paid_session,
        "soon": soon,
        "held_session": held_session,
        "card": card,
    }


# --- export -----------------------------------------------------------------------------------------------------


@pytest.mark.database  # the scan and the queries run on PostgreSQL too
def test_the_export_holds_everything_about_the_member_and_nothing_of_others(
    api_client, ophelie, other_member, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        a_month_of_classes(api_client, ophelie)
    ContactMessageFactory(user=other_member, email=other_member.email, subject="Autre membre")
    api_client.force_authenticate(ophelie)
    reset_queries()  # the log holds 9,000 queries at most: start counting from an empty one
    with CaptureQueriesContext(connection) as small:
        response = api_client.get(EXPORT)
    queries = len(small)
    assert queries <= 21  # one per section (the push section: its switches, its browsers)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith(f'attachment; filename="donnees-personnelles-{ophelie.pk}-')
    data = json.loads(response.content)
    assert data["profile"]["email"] == IDENTITY["email"] and data["profile"]["phone"] == IDENTITY["phone"]
    assert data["profile"]["address"] == IDENTITY["address"]
    assert {b["participants"] for b in data["bookings"]} == {2, 1}
    assert len(data["bookings"]) == 3
    assert [p["amount"] for p in data["payments"]] == ["50.00", "100.00"]
    assert [i["total_amount"] for i in data["invoices"]] == ["50.00", "100.00"]
    assert data["invoices"][0]["pdf_url"].endswith(f"/api/invoices/{Invoice.objects.order_by('pk')[0].pk}/pdf")
    assert data["passes"][0]["title"] == "Carte 5 cours" and data["passes"][0]["credits_total"] == 5
    assert data["party_requests"][0]["message"] == "Appelez-moi au 0698765432"
    assert [m["subject"] for m in data["messages"]] == ["Mon adresse"]
    assert data["room_rental_requests"][0]["phone"] == IDENTITY["phone"]
    assert data["feedback"][0]["comment"] == "Merci, signé Ophélie Vasseur-Dumont"
    assert data["consents"] == {
        "reminder_day_before": True,
        "reminder_cancellation_deadline": True,
        "calendar_feed_enabled": False,
        "cookies": COOKIES_NOTE,
    }
    assert data["subscriptions"] == []
    assert len(data["reduced_rate"]["proofs_uploaded_at"]) == 1
    assert "Autre membre" not in response.content.decode()

    # Twice the history, the same queries.
    with django_capture_on_commit_callbacks(execute=True):
        a_month_of_classes(api_client, ophelie)
    api_client.force_authenticate(ophelie)
    reset_queries()
    with django_assert_max_num_queries(queries):
        assert len(api_client.get(EXPORT).json()["bookings"]) == 6


def test_the_export_reads_only_the_course_titles_it_shows(api_client, ophelie, django_capture_on_commit_callbacks):
    """A booking or a review names its course by title: the export does not load each course's whole row (its
    description, pictures and their renditions), once per booking of a long history."""
    with django_capture_on_commit_callbacks(execute=True):
        a_month_of_classes(api_client, ophelie)
    api_client.force_authenticate(ophelie)
    with CaptureQueriesContext(connection) as export:
        data = api_client.get(EXPORT).json()
    assert len(data["bookings"]) == 3 and data["bookings"][0]["course"] and data["feedback"][0]["course"]
    course_columns = {
        column
        for query in export.captured_queries
        for column in re.findall(r'"courses_course"\."(\w+)"', query["sql"].split(" FROM ")[0])
    }
    assert course_columns <= {"title"}


def test_staff_export_a_members_data_and_nobody_else_does(api_client, ophelie, other_member, supervisor):
    api_client.force_authenticate(supervisor)
    response = api_client.get(f"/api/users/{ophelie.pk}/export")
    assert response.status_code == 200 and response.json()["profile"]["email"] == IDENTITY["email"]
    missing = api_client.get("/api/users/99999999/export")
    assert missing.status_code == 404 and missing.json()["message"] == MSG_USER_NOT_FOUND
    api_client.force_authenticate(other_member)
    assert api_client.get(f"/api/users/{ophelie.pk}/export").status_code == 403
    assert api_client.get(EXPORT).json()["profile"]["email"] == other_member.email
    api_client.force_authenticate(None)
    assert api_client.get(EXPORT).status_code in (401, 403)


# --- deletion ---------------------------------------------------------------------------------------------------


def _text_fields(model):
    return [
        f.name
        for f in model._meta.concrete_fields
        if isinstance(f, (models.CharField, models.TextField, models.JSONField)) and f.name != "password"
    ]


def where_is(needle: str) -> list[str]:
    """Every table and text column (of every installed app, Django's own included) that still holds `needle`."""
    found = []
    for model in apps.get_models(include_auto_created=True):
        for name in _text_fields(model):
            if model._default_manager.filter(**{f"{name}__icontains": needle}).exists():
                found.append(f"{model._meta.db_table}.{name}")
    return found


@pytest.mark.database  # the scan and the queries run on PostgreSQL too
def test_deleting_the_account_erases_the_member_everywhere_frees_their_seats_and_keeps_the_books(
    api_client, client, ophelie, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        history = a_month_of_classes(api_client, ophelie)
    assert where_is(IDENTITY["email"])  # the scan does find what is there
    assert ReducedRateProof._meta.get_field("file").storage.exists(history["proof"])
    tokens = api_client.post(
        "/api/users/login", {"email": IDENTITY["email"], "password": DEFAULT_PASSWORD}, format="json"
    ).json()
    client.force_login(ophelie)
    paid_before = sorted(PaymentOrder.objects.values_list("amount", flat=True))
    invoiced_before = list(Invoice.objects.order_by("pk").values_list("number", "total_amount"))

    api_client.force_authenticate(ophelie)
    refused = api_client.delete(ME, {"password": "pas-le-bon"}, format="json")
    assert refused.status_code == 400 and refused.json()["message"] == MSG_PASSWORD_WRONG
    assert refused.json()["errors"] == {"password": [MSG_PASSWORD_WRONG]}
    empty = api_client.delete(ME, {}, format="json")
    assert empty.status_code == 400 and empty.json()["errors"]["password"] == [MSG_PASSWORD_REQUIRED]
    assert User.objects.get(pk=ophelie.pk).is_active

    with django_capture_on_commit_callbacks(execute=True):
        done = api_client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json")
    assert done.status_code == 200 and done.json() == {"message": MSG_ACCOUNT_DELETED}

    for value in IDENTITY.values():
        assert where_is(value) == [], value
    proofs = ReducedRateProof._meta.get_field("file").storage
    assert not ReducedRateProof.objects.exists() and not proofs.exists(history["proof"])
    assert where_is("Vasseur") == [] and where_is("Ophélie") == []

    # Future seats are free: the card-paid class became an 'avoir' (in time), the late one and the hold are gone.
    for session in (history["paid_session"], history["soon"], history["held_session"]):
        assert session_seats_left(session=session) == session.max_attendees
    assert not Reservation.objects.filter(user=ophelie, status__in=("held", "confirmed")).exists()
    avoir = Pass.objects.get(member=ophelie, origin=PassOrigin.CANCELLATION)
    assert avoir.credits_total == 2  # as the member's own cancellation in time gives
    assert Pass.objects.get(pk=history["card"].granted_pass_id).credits_left == 4  # late: the credit stays spent

    # The books still add up: the same payments and invoices, numbers and amounts, under a pseudonym.
    assert sorted(PaymentOrder.objects.values_list("amount", flat=True)) == paid_before
    assert PaymentOrder.objects.filter(status=PaymentStatus.COMPLETED).count() == 2
    assert list(Invoice.objects.order_by("pk").values_list("number", "total_amount")) == invoiced_before
    assert not Invoice.objects.filter(kind=InvoiceKind.CREDIT_NOTE).exists()
    assert set(Invoice.objects.values_list("customer_name", flat=True)) == {f"Client n° {ophelie.pk} (compte supprimé)"}

    # Every session and token is over.
    assert client.get("/user/profile").status_code == 302
    api_client.force_authenticate(None)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['token']}")
    assert api_client.get("/api/users/profile").status_code == 401
    api_client.credentials()
    renewed = api_client.post("/api/users/token/refresh", {"refresh": tokens["refresh"]}, format="json")
    assert renewed.status_code == 401 and renewed.json()["error"] == MSG_NOT_AUTHENTICATED
    login = api_client.post(
        "/api/users/login", {"email": IDENTITY["email"], "password": DEFAULT_PASSWORD}, format="json"
    )
    assert login.status_code == 401


def test_deleting_stops_a_subscription_so_nothing_more_is_charged(
    api_client, ophelie, django_capture_on_commit_callbacks
):
    annual = TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    with django_capture_on_commit_callbacks(execute=True):
        pay_tariff(api_client, ophelie, annual)
    api_client.force_authenticate(ophelie)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json").status_code == 200
    subscription = Subscription.objects.get()
    assert subscription.status == SubscriptionStatus.CANCELLED
    assert not subscription.charges.filter(status__in=("due", "failed", "processing")).exists()


def test_staff_delete_a_members_account_on_request_but_not_staff_accounts(
    api_client, ophelie, supervisor, staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        history = a_month_of_classes(api_client, ophelie)
    api_client.force_authenticate(supervisor)
    assert api_client.post(f"/api/users/{staff.pk}/erase").json()["message"] == MSG_STAFF_ACCOUNT
    assert api_client.post(f"/api/users/{supervisor.pk}/erase").json()["message"] == MSG_SELF_ERASE
    assert api_client.post("/api/users/99999999/erase").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        done = api_client.post(f"/api/users/{ophelie.pk}/erase")
    assert done.status_code == 200 and done.json() == {"message": MSG_ACCOUNT_ERASED_BY_STAFF}
    assert where_is(IDENTITY["email"]) == [] and where_is(IDENTITY["last_name"]) == []
    assert session_seats_left(session=history["paid_session"]) == 4
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(f"/api/users/{ophelie.pk}/erase").status_code == 200  # again: nothing left to erase
    api_client.force_authenticate(UserFactory())
    assert api_client.post(f"/api/users/{staff.pk}/erase").status_code == 403


def test_a_staff_account_is_not_deleted_by_its_owner(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 409 and response.json()["message"] == MSG_STAFF_ACCOUNT
    assert User.objects.get(pk=staff.pk).is_active


# --- pages ------------------------------------------------------------------------------------------------------


def test_the_profile_offers_the_download_and_the_deletion(client, ophelie, staff):
    client.force_login(ophelie)
    page = client.get("/user/profile").content.decode()
    assert "Mes données personnelles" in page
    assert 'href="/api/users/me/export"' in page and "Télécharger mes données" in page
    assert 'href="/user/delete-account"' in page and "Supprimer mon compte" in page
    client.force_login(staff)
    assert "Supprimer mon compte" not in client.get(f"/user/profile/{ophelie.pk}").content.decode()
    assert MSG_STAFF_ACCOUNT in client.get("/user/profile").content.decode()


def test_the_deletion_page_asks_for_the_password_then_logs_out(client, ophelie):
    client.force_login(ophelie)
    page = client.get("/user/delete-account")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Supprimer définitivement mon compte" in text and 'autocomplete="current-password"' in text
    wrong = client.post("/user/delete-account", {"password": "faux"})
    assert wrong.status_code == 400 and escape(MSG_PASSWORD_WRONG) in wrong.content.decode()
    done = client.post("/user/delete-account", {"password": DEFAULT_PASSWORD}, follow=True)
    assert escape(MSG_ACCOUNT_DELETED) in done.content.decode()
    assert client.get("/user/profile").status_code == 302
    assert User.objects.get(pk=ophelie.pk).email == f"compte-supprime-{ophelie.pk}@anonyme.invalid"
    client.logout()
    assert client.get("/user/delete-account").status_code == 302


def test_the_deleted_accounts_stored_sessions_are_removed_by_a_task(
    client, ophelie, other_member, django_capture_on_commit_callbacks
):
    from django.contrib.sessions.models import Session
    from django.test import Client

    phone, laptop, someone_else = Client(), Client(), Client()
    phone.force_login(ophelie)
    laptop.force_login(ophelie)
    someone_else.force_login(other_member)
    assert Session.objects.count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        assert phone.post("/user/delete-account", {"password": DEFAULT_PASSWORD}).status_code == 302
    # The phone's session ended with the logout, the laptop's was removed by the task; the other member's stays.
    owners = [session.get_decoded().get("_auth_user_id") for session in Session.objects.all()]
    assert str(ophelie.pk) not in owners and owners.count(str(other_member.pk)) == 1
    assert laptop.get("/user/profile").status_code == 302
    assert someone_else.get("/user/profile").status_code == 200


def test_a_payment_staff_recorded_for_the_members_e_mail_is_erased_too(
    api_client, ophelie, staff, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(staff)
    desk = {
        "order_id": "DESK-7",
        "email": IDENTITY["email"],
        "first_name": "Ophélie",
        "last_name": "Vasseur-Dumont",
        "title": "Cours particulier",
        "amount": "60.00",
        "date": "2030-01-10",
        "time": "18:30",
        "status": "COMPLETED",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post("/api/paypal/orders", desk, format="json").status_code == 201
    invoice = Invoice.objects.get()
    assert invoice.member is None and invoice.customer_name == "Ophélie Vasseur-Dumont"
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(f"/api/users/{ophelie.pk}/erase").status_code == 200
    assert where_is(IDENTITY["email"]) == [] and where_is("Vasseur") == []
    invoice.refresh_from_db()
    assert (invoice.number, invoice.total_amount) == (f"{timezone.localdate().year}-000001", Decimal("60.00"))
