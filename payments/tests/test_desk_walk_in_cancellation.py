"""A walk-in paid at the desk, then the class cancelled by the studio (docs/decisions.md 27, 38). No card payment
was taken, so nothing goes through the provider: the member is told the desk refunds them, and staff see it in the
cancellation report ("Payé à l'accueil : à rembourser à l'accueil", with the amount), not "Non payé". A walk-in
cannot be added to a class already cancelled: refused with a French message that says so."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.cancellation_emails import PAYMENT_AT_DESK, PAYMENT_REFUNDED
from bookings.services.attendance import MSG_WALK_IN_CANCELLED
from bookings.services.class_cancellation import course_session_cancel
from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentOrder
from payments.selectors import CANCELLATION_OUTCOME_LABELS

WALK_IN = "/api/course-sessions/{}/walk-ins"
REPORT = "/api/course-sessions/{}/cancellation"
REASON = "Dégât des eaux : l'étage est fermé aujourd'hui."


@pytest.fixture
def class_soon(db):
    start = timezone.now() + timedelta(minutes=30)
    return CourseSessionFactory(
        start=start, end=start + timedelta(minutes=75), max_attendees=5, price_per_participant=Decimal("25.00")
    )


def test_a_desk_paid_walk_in_of_a_cancelled_class_is_refunded_at_the_desk(
    api_client, staff, member, class_soon, mailoutbox, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(staff)
    added = api_client.post(
        WALK_IN.format(class_soon.pk), {"email": member.email, "paid_with": "desk", "participants": 2}, format="json"
    )
    assert added.status_code == 201, added.json()
    reservation = class_soon.reservations.get(user=member)
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=class_soon.pk, reason=REASON)

    # The member: told the desk refunds the 50 € they paid there, never that their card is refunded.
    mail = next(m for m in mailoutbox if m.to == [member.email] and "Cours annulé" in m.subject)
    assert PAYMENT_AT_DESK.format(amount="50,00") in mail.body
    assert "Vous aviez réglé 50,00 € à l'accueil : le studio vous les rembourse à l'accueil." in mail.body
    assert PAYMENT_REFUNDED.format(amount="50,00") not in mail.body
    assert f"Motif : {REASON}" in mail.body  # a text e-mail: apostrophes as typed, never HTML entities
    assert "&#x27;" not in mail.body
    assert not PaymentOrder.objects.filter(reservation=reservation).exists()
    # Staff: the report says what to do, with the amount.
    with django_assert_max_num_queries(8):
        report = api_client.get(REPORT.format(class_soon.pk))
    assert report.status_code == 200, report.json()
    line = next(r for r in report.json()["results"] if r["reservation_id"] == reservation.pk)
    assert line["outcome"] == "desk"
    assert line["outcome_label"] == CANCELLATION_OUTCOME_LABELS["desk"] == "Payé à l'accueil : à rembourser à l'accueil"
    assert line["amount"] == "50.00" and line["order_id"] == ""
    assert report.json()["refunds_pending"] == 0


def test_no_walk_in_can_be_added_to_a_cancelled_class(api_client, staff, member, class_soon):
    course_session_cancel(session_id=class_soon.pk, reason=REASON)
    api_client.force_authenticate(staff)
    for paid_with in ("desk", "pass"):
        response = api_client.post(
            WALK_IN.format(class_soon.pk), {"email": member.email, "paid_with": paid_with}, format="json"
        )
        assert response.status_code == 409
        assert response.json()["error"] == MSG_WALK_IN_CANCELLED
        assert MSG_WALK_IN_CANCELLED == (
            "Ce cours est annulé : personne ne peut y être ajouté, ni avec une carte ou un abonnement, ni payé à "
            "l'accueil."
        )
    assert not class_soon.reservations.exists()
