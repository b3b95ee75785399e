"""Class cards and subscriptions bought online pay for reservations; members cancel; staff adjust passes."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Pass, PassAdjustment, PassAdjustmentAction, PassKind, PassOrigin, Reservation
from bookings.models import ReservationStatus as RS
from bookings.services.cancellation import (
    MSG_CANCEL_NOT_CONFIRMED,
    MSG_CANCELLED_CREDIT_PASS,
    MSG_CANCELLED_CREDITS_RETURNED,
    MSG_CANCELLED_SUBSCRIPTION,
    bookings_release_for_refund,
)
from bookings.services.common import MSG_ALREADY_RESERVED, MSG_RESERVATION_NOT_FOUND, MSG_SESSION_FULL
from bookings.services.late_cancellation import (
    CANCELLATION_CREDIT_MONTHS,
    LATE_BACK_CREDITS,
    LATE_KEPT_CREDITS,
    MSG_CANCELLED_LATE,
)
from bookings.services.pass_admin import (
    MSG_CREDITS_BELOW_ZERO,
    MSG_CREDITS_INVALID,
    MSG_DATE_INVALID,
    MSG_END_BEFORE_START,
    MSG_MEMBER_NOT_FOUND,
    MSG_NOTHING_TO_CHANGE,
    MSG_PASS_GRANTED,
    MSG_PASS_UPDATED,
    MSG_REASON_REQUIRED,
    MSG_SUBSCRIPTION_HAS_NO_CREDITS,
)
from bookings.services.passes import (
    MSG_BOOKED_WITH_PASS,
    MSG_PASS_EXPIRED,
    MSG_PASS_NO_CREDITS,
    MSG_PASS_NOT_ENOUGH_CREDITS,
    MSG_PASS_NOT_FOUND,
    MSG_PASS_NOT_VALID_ON_SESSION,
    MSG_PASS_SUBSCRIPTION_ALONE,
    add_months,
    pass_grant_for_order,
    reservation_book_with_pass,
)
from bookings.services.reservations import reservation_hold
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory, TariffFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_fulfil
from payments.tests.conftest import tariff_payload

pytestmark = pytest.mark.django_db

RESERVE = "/api/reservations-courses"
MINE = "/api/passes/mine"
PASSES = "/api/passes"


def cancel_url(reservation_id):
    return f"/api/reservations-courses/{reservation_id}/cancel"


@pytest.fixture
def card_tariff(db):
    return TariffFactory(
        title="Carte 10 cours",
        type="forfait",
        price=Decimal("190.00"),
        pass_credits=10,
        pass_validity_months=6,
    )


@pytest.fixture
def annual_tariff(db):
    return TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        pass_unlimited=True,
        pass_validity_months=12,
    )


def buy(api_client, user, tariff, quantity=1):
    """The simulator's path: create-order, the buyer approves, capture (docs/decisions.md 15)."""
    api_client.force_authenticate(user)
    created = api_client.post("/api/paypal/create-order", tariff_payload(tariff, user, quantity), format="json")
    assert created.status_code == 201, created.json()
    order_id = created.json()["id"]
    approved = api_client.post("/api/paypal/simulator/approve", {"orderId": order_id}, format="json")
    assert approved.status_code == 200, approved.json()
    captured = api_client.post("/api/paypal/capture-payment", {"orderId": order_id}, format="json")
    assert captured.status_code == 200 and captured.json()["status"] == "COMPLETED", captured.json()
    return PaymentOrder.objects.get(order_id=order_id)


def book(api_client, user, session, pass_id, participants=1):
    api_client.force_authenticate(user)
    return api_client.post(
        RESERVE,
        {
            "session_id": session.pk,
            "pass_id": pass_id,
            "participants": participants,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "email": user.email,
        },
        format="json",
    )


def future_session(days=3, **kwargs):
    start = (timezone.now() + timedelta(days=days)).replace(second=0, microsecond=0)
    return CourseSessionFactory(start=start, **kwargs)


# --- buying grants a pass ------------------------------------------------------------------------------------------


def test_buying_a_10_class_card_then_booking_three_sessions_leaves_7_credits(api_client, member, card_tariff):
    order = buy(api_client, member, card_tariff)
    (card,) = api_client.get(MINE).json()
    today = timezone.localdate()
    assert card["kind"] == PassKind.CARD and card["title"] == "Carte 10 cours"
    assert (card["credits_total"], card["credits_left"]) == (10, 10)
    assert card["starts_on"] == today.isoformat()
    assert card["expires_on"] == add_months(today, 6).isoformat()
    assert Pass.objects.get().source_order == order

    sessions = [future_session(days=d) for d in (2, 3, 4)]
    for session in sessions:
        response = book(api_client, member, session, card["id"])
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["status"] == RS.CONFIRMED
        assert body["message"] == MSG_BOOKED_WITH_PASS.format(title="Carte 10 cours")
        assert body["paid_with_pass"] == {"id": card["id"], "title": "Carte 10 cours", "kind": "card"}
        assert body["credits_spent"] == 1

    assert Pass.objects.get().credits_left == 7
    assert api_client.get(MINE).json()[0]["credits_left"] == 7
    assert Reservation.objects.filter(status=RS.CONFIRMED, paid_with_pass_id=card["id"]).count() == 3
    assert PaymentOrder.objects.count() == 1  # no card payment for the three classes
    rows = api_client.get(f"/api/course-feedback/user/{member.pk}").json()["results"]
    assert [row["paid_with_pass"]["title"] for row in rows] == ["Carte 10 cours"] * 3
    spends = PassAdjustment.objects.filter(action=PassAdjustmentAction.SPEND)
    assert sorted(spends.values_list("credits_delta", flat=True)) == [-1, -1, -1]


def test_a_card_spends_one_credit_per_participant(api_client, member):
    card = PassFactory(member=member, credits_total=10)
    response = book(api_client, member, future_session(), card.pk, participants=3)
    assert response.status_code == 201, response.json()
    card.refresh_from_db()
    assert card.credits_left == 7
    assert Reservation.objects.get().credits_spent == 3


def test_capturing_twice_grants_one_pass(api_client, member, card_tariff):
    order = buy(api_client, member, card_tariff)
    again = api_client.post("/api/paypal/capture-payment", {"orderId": order.order_id}, format="json")
    assert again.status_code == 200
    payment_order_fulfil(order_id=order.order_id)  # a late webhook
    assert Pass.objects.count() == 1
    assert PassAdjustment.objects.filter(action=PassAdjustmentAction.PURCHASE).count() == 1


def test_quantity_multiplies_the_credits_of_one_card(api_client, member, card_tariff):
    buy(api_client, member, card_tariff, quantity=2)
    card = Pass.objects.get()
    assert (card.credits_total, card.credits_left) == (20, 20)
    assert card.expires_on == add_months(timezone.localdate(), 6)


def test_a_subscription_is_unlimited_for_its_period_and_a_second_one_follows_it(api_client, member, annual_tariff):
    buy(api_client, member, annual_tariff)
    today = timezone.localdate()
    first = Pass.objects.get()
    assert first.kind == PassKind.SUBSCRIPTION and first.credits_left is None
    assert (first.starts_on, first.expires_on) == (today, add_months(today, 12) - timedelta(days=1))

    buy(api_client, member, annual_tariff)
    second = Pass.objects.exclude(pk=first.pk).get()
    assert second.starts_on == first.expires_on + timedelta(days=1)


def test_a_tariff_that_grants_nothing_gives_no_pass(api_client, member):
    buy(api_client, member, TariffFactory(price=Decimal("25.00")))
    assert PaymentOrder.objects.get().status == PaymentStatus.COMPLETED
    assert not Pass.objects.exists()


def test_the_eight_demo_offers_say_what_they_grant():
    from courses.seed_data import TARIFFS

    grants = {
        t["title"]: (t.get("pass_credits"), t.get("pass_validity_months"), t.get("pass_unlimited")) for t in TARIFFS
    }
    assert grants["Cours à l'unité"] == (1, 1, False)
    assert grants["Carte 10 cours"] == (10, 6, False)
    assert grants["Abonnement annuel illimité"] == (0, 12, True)
    assert grants["Abonnement 6 mois illimité"] == (0, 6, True)
    assert grants["Abonnement trimestriel"] == (0, 3, True)
    assert sum(1 for credits, months, unlimited in grants.values() if months) == 8


# --- booking with a pass: the rules ---------------------------------------------------------------------------------


def test_an_expired_pass_cannot_be_used(api_client, member):
    today = timezone.localdate()
    expired = PassFactory(member=member, starts_on=today - timedelta(days=200), expires_on=today - timedelta(days=1))
    response = book(api_client, member, future_session(), expired.pk)
    assert response.status_code == 409  # the pass as it stands refuses it: a conflict
    assert response.json()["error"] == MSG_PASS_EXPIRED.format(date=expired.expires_on.strftime("%d/%m/%Y"))
    expired.refresh_from_db()
    assert expired.credits_left == 10 and not Reservation.objects.exists()
    assert api_client.get(MINE).json()[0]["state"] == "expired"


def test_a_pass_must_be_valid_on_the_day_of_the_session(api_client, member):
    today = timezone.localdate()
    card = PassFactory(member=member, expires_on=today + timedelta(days=1))
    response = book(api_client, member, future_session(days=5), card.pk)
    assert response.status_code == 409
    assert response.json()["error"] == MSG_PASS_NOT_VALID_ON_SESSION.format(
        start=today.strftime("%d/%m/%Y"), end=card.expires_on.strftime("%d/%m/%Y")
    )


def test_a_subscription_covers_the_member_alone(api_client, member):
    subscription = PassFactory(member=member, subscription=True)
    refused = book(api_client, member, future_session(), subscription.pk, participants=2)
    assert refused.status_code == 409 and refused.json()["error"] == MSG_PASS_SUBSCRIPTION_ALONE
    ok = book(api_client, member, future_session(), subscription.pk, participants=1)
    assert ok.status_code == 201 and ok.json()["credits_spent"] == 0
    subscription.refresh_from_db()
    assert subscription.credits_left is None


def test_not_enough_credits_and_no_credit(api_client, member):
    card = PassFactory(member=member, credits_total=10, credits_left=1)
    refused = book(api_client, member, future_session(), card.pk, participants=2)
    assert refused.status_code == 409
    assert refused.json()["error"] == MSG_PASS_NOT_ENOUGH_CREDITS.format(credits=1)
    assert book(api_client, member, future_session(), card.pk).status_code == 201
    empty = book(api_client, member, future_session(days=4), card.pk)
    assert empty.status_code == 409 and empty.json()["error"] == MSG_PASS_NO_CREDITS


def test_someone_elses_pass_is_not_found(api_client, member, other_member):
    card = PassFactory(member=other_member)
    response = book(api_client, member, future_session(), card.pk)
    assert response.status_code == 404 and response.json()["error"] == MSG_PASS_NOT_FOUND
    for pass_id in ("abc", 10**12):  # not an id at all: refused at the API boundary (typed inputs)
        response = book(api_client, member, future_session(), pass_id)
        assert response.status_code == 400 and response.json()["errors"] == {"pass_id": [MSG_PASS_NOT_FOUND]}
    card.refresh_from_db()
    assert card.credits_left == 10


def test_a_full_session_takes_no_credit(api_client, member):
    session = future_session(max_attendees=1)
    ReservationFactory(session=session)
    card = PassFactory(member=member)
    response = book(api_client, member, session, card.pk)
    assert response.status_code == 409 and response.json()["error"] == MSG_SESSION_FULL
    card.refresh_from_db()
    assert card.credits_left == 10


def test_a_hold_waiting_for_card_payment_can_be_paid_with_the_pass_instead(api_client, member):
    session = future_session()
    held = reservation_hold(
        user=member, session_id=session.pk, participants=1, first_name="E", last_name="P", email=member.email
    )
    card = PassFactory(member=member)
    response = book(api_client, member, session, card.pk)
    assert response.status_code == 201 and response.json()["id"] == held.pk
    held.refresh_from_db()
    assert held.status == RS.CONFIRMED and held.paid_with_pass == card and held.hold_expires_at is None
    again = book(api_client, member, session, card.pk)
    assert again.status_code == 409 and again.json()["error"] == MSG_ALREADY_RESERVED


def test_visitor_cannot_book_with_a_pass(api_client, member):
    card = PassFactory(member=member)
    response = api_client.post(RESERVE, {"session_id": future_session().pk, "pass_id": card.pk}, format="json")
    assert response.status_code == 401


# --- cancellation ---------------------------------------------------------------------------------------------------


def test_cancelling_in_time_returns_the_credit_and_frees_the_seat(api_client, member, other_member):
    session = future_session(days=3, max_attendees=1)
    card = PassFactory(member=member)
    reservation_id = book(api_client, member, session, card.pk).json()["id"]
    card.refresh_from_db()
    assert card.credits_left == 9

    response = api_client.post(cancel_url(reservation_id))
    assert response.status_code == 200, response.json()
    assert response.json()["message"] == MSG_CANCELLED_CREDITS_RETURNED.format(credits=1, title="Carte 10 cours")
    card.refresh_from_db()
    assert card.credits_left == 10
    assert Reservation.objects.get(pk=reservation_id).status == RS.CANCELLED
    assert PassAdjustment.objects.filter(action=PassAdjustmentAction.RETURN, credits_delta=1).count() == 1
    # The freed seat is bookable at once.
    other_card = PassFactory(member=other_member)
    assert book(api_client, other_member, session, other_card.pk).status_code == 201


def test_cancelling_inside_the_window_is_a_late_cancellation(api_client, member):
    session = future_session(days=0, max_attendees=5)
    session.start = timezone.now() + timedelta(hours=23)
    session.end = session.start + timedelta(hours=1)
    session.save()
    card = PassFactory(member=member)
    reservation_id = book(api_client, member, session, card.pk).json()["id"]
    response = api_client.post(cancel_url(reservation_id))
    assert response.status_code == 200, response.json()
    assert response.json()["late"] is True
    assert response.json()["message"] == MSG_CANCELLED_LATE.format(
        what=LATE_KEPT_CREDITS.format(credits=1), back=LATE_BACK_CREDITS
    )
    card.refresh_from_db()
    assert card.credits_left == 9  # kept by the studio while nobody takes the seat
    assert Reservation.objects.get(pk=reservation_id).status == RS.CANCELLED


def test_the_window_is_the_course_s_own(api_client, member):
    card = PassFactory(member=member)
    session = future_session(days=3)
    session.course.free_cancellation_hours = 96
    session.course.save()
    reservation_id = book(api_client, member, session, card.pk).json()["id"]
    rows = api_client.get(f"/api/course-feedback/user/{member.pk}").json()["results"]
    assert rows[0]["can_cancel"] is True and rows[0]["cancel_is_late"] is True
    response = api_client.post(cancel_url(reservation_id))
    assert response.json()["late"] is True


def test_cancelling_a_reservation_paid_by_card_gives_a_credit_pass(api_client, member):
    reservation = ReservationFactory(user=member, session=future_session(days=5), participants=2)
    api_client.force_authenticate(member)
    response = api_client.post(cancel_url(reservation.pk))
    assert response.status_code == 200, response.json()
    today = timezone.localdate()
    expires = add_months(today, CANCELLATION_CREDIT_MONTHS)
    assert response.json()["message"] == MSG_CANCELLED_CREDIT_PASS.format(credits=2, date=expires.strftime("%d/%m/%Y"))
    credit = Pass.objects.get()
    assert (credit.kind, credit.origin, credit.credits_left, credit.expires_on) == (
        PassKind.CARD,
        PassOrigin.CANCELLATION,
        2,
        expires,
    )
    assert credit.source_reservation == reservation
    assert response.json()["credit_pass"]["id"] == credit.pk
    # Cancelling again changes nothing.
    again = api_client.post(cancel_url(reservation.pk))
    assert again.status_code == 409 and again.json()["error"] == MSG_CANCEL_NOT_CONFIRMED
    assert Pass.objects.count() == 1


def test_cancelling_a_subscription_booking_frees_the_place(api_client, member):
    subscription = PassFactory(member=member, subscription=True)
    reservation_id = book(api_client, member, future_session(), subscription.pk).json()["id"]
    response = api_client.post(cancel_url(reservation_id))
    assert response.json()["message"] == MSG_CANCELLED_SUBSCRIPTION
    assert Pass.objects.count() == 1


def test_a_member_cannot_cancel_someone_elses_reservation(api_client, member, other_member):
    reservation = ReservationFactory(user=other_member, session=future_session())
    api_client.force_authenticate(member)
    response = api_client.post(cancel_url(reservation.pk))
    assert response.status_code == 404 and response.json()["error"] == MSG_RESERVATION_NOT_FOUND
    assert api_client.post(cancel_url(10**12)).status_code == 404
    reservation.refresh_from_db()
    assert reservation.status == RS.CONFIRMED
    api_client.force_authenticate(None)
    assert api_client.post(cancel_url(reservation.pk)).status_code in (401, 403)


# --- staff ----------------------------------------------------------------------------------------------------------


def test_passes_apis_are_staff_only(api_client, member):
    card = PassFactory()
    for method, path in (
        ("get", PASSES),
        ("post", PASSES),
        ("get", f"{PASSES}/{card.pk}"),
        ("put", f"{PASSES}/{card.pk}"),
    ):
        assert getattr(api_client, method)(path, {}, format="json").status_code == 401
    api_client.force_authenticate(member)
    for method, path in (
        ("get", PASSES),
        ("post", PASSES),
        ("get", f"{PASSES}/{card.pk}"),
        ("put", f"{PASSES}/{card.pk}"),
    ):
        assert getattr(api_client, method)(path, {}, format="json").status_code == 403
    assert api_client.get(MINE).json() == []  # a member sees only their own passes


def test_staff_grant_a_tariff_and_a_custom_card(api_client, supervisor, member, card_tariff):
    api_client.force_authenticate(supervisor)
    refused = api_client.post(PASSES, {"member_email": member.email, "tariff_id": card_tariff.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == MSG_REASON_REQUIRED
    unknown = api_client.post(PASSES, {"member_email": "nobody@example.fr", "reason": "x"}, format="json")
    assert unknown.json()["error"] == MSG_MEMBER_NOT_FOUND

    granted = api_client.post(
        PASSES, {"member_email": member.email.upper(), "tariff_id": card_tariff.pk, "reason": "Geste commercial"}
    )
    assert granted.status_code == 201, granted.json()
    body = granted.json()
    assert body["message"] == MSG_PASS_GRANTED
    assert (body["credits_left"], body["origin"], body["member_id"]) == (10, "staff", member.pk)

    custom = api_client.post(
        PASSES,
        {
            "member_email": member.email,
            "kind": "card",
            "credits": 3,
            "expires_on": "2020-01-01",
            "reason": "Cours offerts",
        },
        format="json",
    )
    assert custom.json()["error"].startswith(MSG_END_BEFORE_START.split("(")[0])
    far = (timezone.localdate() + timedelta(days=30)).isoformat()
    custom = api_client.post(
        PASSES,
        {"member_email": member.email, "kind": "card", "credits": 3, "expires_on": far, "reason": "Cours offerts"},
        format="json",
    )
    assert custom.status_code == 201 and custom.json()["credits_left"] == 3
    grant = PassAdjustment.objects.get(pass_ref_id=custom.json()["id"])
    assert (grant.action, grant.by, grant.reason) == (PassAdjustmentAction.GRANT, supervisor, "Cours offerts")


def test_staff_add_credits_and_extend_with_a_logged_reason(api_client, staff, member):
    card = PassFactory(member=member, credits_total=10, credits_left=2)
    api_client.force_authenticate(staff)
    url = f"{PASSES}/{card.pk}"
    assert api_client.put(url, {"credits_delta": 2}, format="json").json()["error"] == MSG_REASON_REQUIRED
    nothing = api_client.put(url, {"reason": "rien"}, format="json")
    assert nothing.json()["error"] == MSG_NOTHING_TO_CHANGE
    below = api_client.put(url, {"credits_delta": -3, "reason": "erreur"}, format="json")
    assert below.json()["error"] == MSG_CREDITS_BELOW_ZERO.format(credits=2)
    bad = api_client.put(url, {"credits_delta": "deux", "reason": "erreur"}, format="json")
    assert bad.json()["error"] == MSG_CREDITS_INVALID
    bad_date = api_client.put(url, {"expires_on": "31/12/2030", "reason": "erreur"}, format="json")
    assert bad_date.json()["error"] == MSG_DATE_INVALID

    new_end = card.expires_on + timedelta(days=60)
    response = api_client.put(
        url,
        {"credits_delta": 3, "expires_on": new_end.isoformat(), "reason": "Blessure, 2 mois d'arrêt"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["message"] == MSG_PASS_UPDATED
    assert (body["credits_left"], body["credits_total"], body["expires_on"]) == (5, 13, new_end.isoformat())
    actions = {a["action"]: a for a in body["adjustments"]}
    assert actions["credits"]["credits_delta"] == 3 and actions["credits"]["reason"] == "Blessure, 2 mois d'arrêt"
    assert actions["extend"]["expires_on_before"] == card.expires_on.isoformat()
    assert actions["extend"]["expires_on_after"] == new_end.isoformat()

    subscription = PassFactory(member=member, subscription=True)
    refused = api_client.put(f"{PASSES}/{subscription.pk}", {"credits_delta": 1, "reason": "x"}, format="json")
    assert refused.json()["error"] == MSG_SUBSCRIPTION_HAS_NO_CREDITS
    assert api_client.put(f"{PASSES}/999999", {"credits_delta": 1, "reason": "x"}, format="json").status_code == 404
    assert api_client.get(f"{PASSES}/{10**12}").status_code == 404


def test_staff_list_is_paginated_searchable_in_fixed_queries(api_client, staff, django_assert_num_queries):
    for _ in range(3):
        PassFactory()
    emma = UserFactory(first_name="Emma", last_name="Zola")
    PassFactory(member=emma)
    api_client.force_authenticate(staff)
    api_client.get(PASSES)  # warm the session/auth queries
    with django_assert_num_queries(2):  # the count, then the page (member and tariff joined)
        response = api_client.get(PASSES, {"page": 1, "page_size": 10})
    assert response.json()["count"] == 4
    for _ in range(6):
        PassFactory()
    with django_assert_num_queries(2):
        response = api_client.get(PASSES, {"page": 1, "page_size": 10})
    assert len(response.json()["results"]) == 10
    found = api_client.get(PASSES, {"search": "zola"}).json()
    assert [row["member_id"] for row in found["results"]] == [emma.pk]


def test_staff_detail_and_member_list_in_fixed_queries(api_client, staff, member, django_assert_num_queries):
    card = PassFactory(member=member)
    for days in (2, 3, 4):
        reservation_book_with_pass(
            user=member,
            session_id=future_session(days=days).pk,
            pass_id=card.pk,
            participants=1,
            first_name="E",
            last_name="P",
            email=member.email,
        )
    PassFactory(member=member, subscription=True)
    api_client.force_authenticate(staff)
    api_client.get(PASSES)
    with django_assert_num_queries(2):  # pass + ledger (with staff and reservations joined)
        detail = api_client.get(f"{PASSES}/{card.pk}").json()
    assert len(detail["adjustments"]) == 3 and detail["adjustments"][0]["reservation"]["title"]

    api_client.force_authenticate(member)
    api_client.get(MINE)
    with django_assert_num_queries(1):
        mine = api_client.get(MINE).json()
    assert [p["state"] for p in mine] == ["active", "active"]


# --- pages and demo data --------------------------------------------------------------------------------------------


def test_profile_shows_the_members_passes(client, member, other_member):
    today = timezone.localdate()
    PassFactory(member=member, credits_total=10, credits_left=7)
    PassFactory(
        member=member, title="Vieille carte", expires_on=today - timedelta(days=1), starts_on=today - timedelta(days=90)
    )
    PassFactory(member=other_member, title="Pas la mienne")
    client.force_login(member)
    html = client.get("/user/profile").content.decode()
    assert "Mes cartes et abonnements" in html
    assert "7 crédits restants sur 10" in html
    assert (
        f"jusqu&#x27;au {(today + timedelta(days=180)):%d/%m/%Y}" in html
        or f"jusqu'au {(today + timedelta(days=180)):%d/%m/%Y}" in html
    )
    assert "Expirée" in html and "Pas la mienne" not in html
    assert html.index("Carte 10 cours") < html.index("Vieille carte")  # usable passes first


def test_profile_without_pass_links_to_the_tariffs(client, member):
    client.force_login(member)
    html = client.get("/user/profile").content.decode()
    assert "Vous n&#x27;avez pas encore de carte" in html or "Vous n'avez pas encore de carte" in html


def test_my_courses_page_leaves_each_course_its_own_window(client, member):
    client.force_login(member)
    response = client.get("/my-courses")
    assert "cancellationHours" not in response.content.decode()  # each row carries its free_cancellation_text


def test_seed_gives_the_demo_member_a_card_once():
    from bookings import seed
    from courses.management.commands.seed_demo import seed_accounts, seed_catalogue

    seed_accounts()
    seed_catalogue()
    seed.run()
    seed.run()
    (demo,) = Pass.objects.filter(member__email=seed.DEMO_MEMBER_EMAIL)
    assert (demo.title, demo.credits_total, demo.credits_left) == ("Carte 10 cours", 10, 8)


def test_a_refunded_order_takes_back_its_pass_once(member, card_tariff):
    order = PaymentOrder.objects.create(
        order_id="SIM-REFUND-1",
        user=member,
        email=member.email,
        first_name=member.first_name,
        last_name=member.last_name,
        title=card_tariff.title,
        amount=card_tariff.price,
        tariff=card_tariff,
        quantity=1,
        status=PaymentStatus.COMPLETED,
    )
    card = pass_grant_for_order(order=order)
    order.granted_pass = card  # what the capture does with the pass it is given
    order.save(update_fields=["granted_pass"])
    assert card.credits_left == 10
    bookings_release_for_refund(order=order)
    bookings_release_for_refund(order=order)
    card.refresh_from_db()
    assert card.credits_left == 0
    assert card.expires_on == timezone.localdate() - timedelta(days=1)
    assert PassAdjustment.objects.filter(pass_ref=card, action=PassAdjustmentAction.REFUND).count() == 1
