"""The adversarial suite for what the phone and the back office added: QR check-in codes (forged, signed for another
purpose, shown at another class, scanned by a member), the push's one-tap accept (forged, tampered, another
member's), push subscriptions pointing into the studio's network, the accountant's files (who may download them,
and a company named like a formula), and the health answers (nobody but the member and the admins).

Each attack fails safely: refused in French, nothing changed, never a 500."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core import signing
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.checkin_codes import MSG_CHECKIN_FORGED, checkin_code
from bookings.models import Reservation
from bookings.models_operations import Attendance, WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services import waitlist_accept as accept
from bookings.services.cancellation import reservation_cancel
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory, TariffFactory
from invoices.tests.helpers import pay_tariff
from notifications import services as push
from notifications.models import PushSubscription
from waivers.models import Questionnaire
from waivers.seed import run as seed_waivers

pytestmark = [pytest.mark.django_db, pytest.mark.database]

PARIS = ZoneInfo("Europe/Paris")
NOW = "2026-03-10 17:00:00+00:00"
AFTERNOON = datetime(2026, 12, 1, 15, 0, tzinfo=PARIS)
CLASS_START = datetime(2026, 12, 2, 18, 30, tzinfo=PARIS)
ACCEPT = "/api/waitlist/offers/accept"
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


# --- QR check-in ----------------------------------------------------------------------------------------------


@pytest.fixture
def open_class(db):
    """A class starting within the hour (its sheet is open), taught by Léa, with Emma booked."""
    lea = InstructorFactory(name="Léa Garnier", user=UserFactory(role=Role.INSTRUCTOR))
    with freeze_time(NOW):
        start = timezone.now() + timedelta(minutes=30)
        session = CourseSessionFactory(
            course=CourseFactory(title="Pole Débutant"), instructor=lea, start=start, end=start + timedelta(hours=1)
        )
    return session, ReservationFactory(session=session, first_name="Emma", last_name="Petit")


def _scan(api_client, session, code):
    return api_client.post(f"/api/course-sessions/{session.pk}/check-in", {"code": code}, format="json")


@freeze_time(NOW)
def test_a_code_signed_for_another_purpose_is_no_check_in_code(api_client, staff, open_class):
    session, emma = open_class
    payload = f"{emma.pk}.{session.pk}"
    elsewhere = [
        signing.Signer(sep=".").sign(payload),  # the secret key without the check-in salt
        signing.Signer(salt="bookings.waitlist.accept", sep=".").sign(payload),
        signing.Signer(salt="bookings.checkin", sep=".", algorithm="sha1").sign(payload),
        checkin_code(reservation_id=emma.pk, session_id=session.pk)[:-1] + "A",
    ]
    api_client.force_authenticate(staff)
    for code in elsewhere:
        answer = _scan(api_client, session, code)
        assert (answer.status_code, answer.json()["error"]) == (400, MSG_CHECKIN_FORGED), code
    assert not Attendance.objects.exists()


@freeze_time(NOW)
def test_a_member_booked_in_the_class_cannot_scan_their_own_or_anyone_elses_code(api_client, open_class):
    session, emma = open_class
    api_client.force_authenticate(emma.user)
    answer = _scan(api_client, session, checkin_code(reservation_id=emma.pk, session_id=session.pk))
    assert answer.status_code == 403 and answer.json()["error"]
    assert not Attendance.objects.exists()


@freeze_time(NOW)
def test_another_instructor_cannot_scan_on_a_class_they_do_not_teach(api_client, open_class):
    session, emma = open_class
    other = InstructorFactory(user=UserFactory(role=Role.INSTRUCTOR))
    api_client.force_authenticate(other.user)
    answer = _scan(api_client, session, checkin_code(reservation_id=emma.pk, session_id=session.pk))
    assert answer.status_code in (403, 404) and answer.json()["error"]
    assert not Attendance.objects.exists()


# --- The push's one-tap accept ---------------------------------------------------------------------------------


@pytest.fixture
def offer(django_capture_on_commit_callbacks):
    """A member with a class card, offered the seat a booked member freed."""
    with freeze_time(AFTERNOON):
        session = CourseSessionFactory(max_attendees=1, start=CLASS_START)
        booked = ReservationFactory(session=session)
        member = UserFactory()
        card = PassFactory(member=member, credits_left=4)
        wl.waitlist_join(user=member, session_id=session.pk)
        with django_capture_on_commit_callbacks(execute=True):
            reservation_cancel(user=booked.user, reservation_id=booked.pk)
        entry = WaitlistEntry.objects.get(user=member)
        assert entry.status == WaitlistStatus.OFFERED
    return entry, card


def test_an_accept_token_altered_to_name_another_member_or_entry_is_refused(api_client, offer, other_member):
    entry, card = offer
    token = accept.accept_token(entry)
    body, signature = token.rsplit(":", 1)
    tampered = [
        signing.dumps({"e": entry.pk, "u": other_member.pk}, salt="bookings.waitlist.accept.other"),
        signing.dumps({"e": entry.pk, "u": entry.user_id}),  # no salt: another use of the secret key
        f"{body}:{signature[:-2]}AA",
        checkin_code(reservation_id=entry.reservation_id, session_id=entry.session_id),
    ]
    with freeze_time(AFTERNOON):
        for forged in tampered:
            answer = api_client.post(ACCEPT, {"token": forged}, format="json")
            assert answer.status_code in (400, 404), forged
            assert answer.json()["error"] == accept.MSG_ACCEPT_LINK_INVALID
    entry.refresh_from_db()
    card.refresh_from_db()
    assert entry.status == WaitlistStatus.OFFERED and card.credits_left == 4


def test_an_accept_token_older_than_a_day_is_refused(api_client, offer):
    entry, card = offer
    with freeze_time(AFTERNOON):
        token = accept.accept_token(entry)
    with freeze_time(AFTERNOON + timedelta(days=1, minutes=1)):
        answer = api_client.post(ACCEPT, {"token": token}, format="json")
    assert answer.json()["error"] == accept.MSG_ACCEPT_LINK_INVALID
    card.refresh_from_db()
    assert card.credits_left == 4


def test_another_member_posting_the_token_books_only_its_owner_once(api_client, offer, other_member):
    """The token is the offer's owner's authority for that one offer: whoever posts it, the seat goes to the owner,
    paid with the owner's card, once."""
    entry, card = offer
    api_client.force_authenticate(other_member)
    with freeze_time(AFTERNOON):
        token = accept.accept_token(entry)
        assert api_client.post(ACCEPT, {"token": token}, format="json").json()["booked"] is True
        again = api_client.post(ACCEPT, {"token": token}, format="json")
    assert again.json()["error"] == accept.MSG_ACCEPT_OFFER_OVER
    assert not Reservation.objects.filter(user=other_member).exists()
    card.refresh_from_db()
    assert card.credits_left == 3


# --- Push subscriptions pointing inside ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1:8000/django-admin/",
        "https://localhost/api/users",
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.5/",
        "https://[::1]/",
        "https://intranet.studio.local/push",
        "https://fcm.googleapis.com.attacker.example/fcm/send/x",
        "https://user@fcm.googleapis.com@10.0.0.5/",
    ],
)
def test_a_push_subscription_cannot_point_the_worker_at_another_address(api_client, member, settings, endpoint):
    settings.WEBPUSH_ALLOW_HTTP_ENDPOINTS = False  # as in production
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = "public", "private"
    api_client.force_authenticate(member)
    body = {"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH}}
    answer = api_client.post("/api/push/subscriptions", body, format="json")
    assert answer.status_code == 400 and answer.json()["message"] == push.MSG_ENDPOINT_INVALID
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "https://wns2-par02p.notify.windows.com/w/?token=abc",
    ],
)
def test_the_browsers_push_services_are_taken(api_client, member, settings, endpoint):
    settings.WEBPUSH_ALLOW_HTTP_ENDPOINTS = False
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = "public", "private"
    api_client.force_authenticate(member)
    body = {"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH}}
    assert api_client.post("/api/push/subscriptions", body, format="json").status_code in (200, 201)
    assert PushSubscription.objects.get().endpoint == endpoint


# --- The accountant's files -----------------------------------------------------------------------------------

PERIOD = {"start": "2027-02-01", "end": "2027-02-28"}


@pytest.fixture
def formula_company(api_client, member):
    member.company_name = "=1+1"
    member.company_siren = "732829320"
    member.company_address = "@SUM(A1) 3 rue du Plat, 69002 Lyon"
    member.last_name = "+33 Dupont"
    member.save()
    with freeze_time("2027-02-10 10:00"):
        return pay_tariff(api_client, member, TariffFactory(price=Decimal("190.00"), type="forfait"))


@pytest.mark.parametrize("path", ["/api/accounting/journal", "/api/accounting/fec"])
def test_members_and_instructors_download_no_accounts(api_client, member, path):
    instructor = UserFactory(role=Role.INSTRUCTOR)
    for reader in (None, member, instructor):
        api_client.force_authenticate(reader)
        answer = api_client.get(path, PERIOD)
        assert answer.status_code in (401, 403), reader
        assert answer.json()["error"]


def test_a_company_named_like_a_formula_is_text_in_the_journal_and_the_fec(api_client, staff, formula_company):
    api_client.force_authenticate(staff)
    journal = api_client.get("/api/accounting/journal", PERIOD)
    fec = api_client.get("/api/accounting/fec", PERIOD)
    assert journal.status_code == 200 and fec.status_code == 200
    for text, separator in ((journal.content.decode("utf-8-sig"), ";"), (fec.content.decode("utf-8"), "\t")):
        cells = [cell.strip('"') for line in text.splitlines()[1:] for cell in line.split(separator)]
        assert any("1+1" in cell for cell in cells), "the company is in the file"
        formulas = [cell for cell in cells if cell[:1] in ("=", "+", "@") or cell.lstrip(" ")[:1] in ("=", "@")]
        assert formulas == []


# --- The health answers ---------------------------------------------------------------------------------------


def test_no_back_office_route_but_the_admins_shows_a_members_health_answers(client, api_client, member, supervisor):
    seed_waivers()
    questionnaire = Questionnaire.objects.order_by("-version").first()
    questions = [q["text"] for q in questionnaire.questions] if isinstance(questionnaire.questions, list) else []
    api_client.force_authenticate(member)
    body = {"questionnaire_version": 1, "waiver_version": 1, "house_rules_version": 1, "accepted": True}
    declared = api_client.post("/api/health/declaration", {**body, "answers": [True] * 4}, format="json")
    assert declared.status_code == 201, declared.json()
    instructor = UserFactory(role=Role.INSTRUCTOR)
    for reader in (supervisor, instructor, UserFactory()):
        api_client.force_authenticate(reader)
        client.force_login(reader)
        answers = [
            api_client.get(f"/api/users/{member.pk}/health-declaration"),
            api_client.get(f"/api/users/{member.pk}/export"),
            api_client.get(f"/api/users/{member.pk}/history"),
            api_client.get(f"/api/users/{member.pk}"),
            api_client.get("/api/users"),
            client.get(f"/user/profile/{member.pk}"),
        ]
        for answer in answers:
            assert answer.status_code != 500
            text = answer.content.decode("utf-8", "replace")
            assert '"answers"' not in text, (reader.role, answer.request["PATH_INFO"])
            for question in questions:
                assert question not in text, (reader.role, answer.request["PATH_INFO"])


def test_a_company_named_like_a_formula_or_markup_is_plain_text_in_the_factur_x_xml(api_client, formula_company):
    """The Factur-X XML keeps the buyer's legal name exactly as written (docs/decisions.md 61): it is read by
    accounting software as XML, where the name is escaped text, never markup nor a formula cell."""
    import facturx
    from lxml import etree

    from invoices.documents import invoice_document
    from invoices.facturx import NS
    from invoices.models import Invoice

    invoice = Invoice.objects.get(payment_order=formula_company)
    invoice.customer_company_name = '=1+1 <Name>"&</Name>'
    _, xml = facturx.get_xml_from_pdf(invoice_document(invoice=invoice), check_xsd=True)
    assert b"<Name>" not in xml.replace(b"<ram:Name>", b"")
    buyer = etree.fromstring(xml).find(".//ram:BuyerTradeParty/ram:Name", NS)
    assert buyer.text == '=1+1 <Name>"&</Name>'
