import re
from datetime import datetime, timedelta
from decimal import Decimal
from unittest import mock

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import DatabaseError
from django.utils import timezone
from freezegun import freeze_time

from courses import selectors
from courses.models import TariffType
from courses.selectors import MSG_NO_COURSE_THAT_DAY, MSG_NO_UPCOMING_SESSION
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory, TestimonialFactory
from courses.views import HOME_SECTIONS, MSG_COURSE_NOT_FOUND, MSG_LOGIN_TO_ORDER, MSG_TARIFFS_FETCH_ERROR

pytestmark = pytest.mark.django_db


def paris(*args):
    return timezone.make_aware(datetime(*args), timezone.get_current_timezone())


def section_is_shown(html, key):
    tag = re.search(rf'<section id="section-{key}"[^>]*>', html).group(0)
    return " hidden" not in tag


# --- Home ------------------------------------------------------------------------------------------------------


def test_home_shows_the_address_section_by_default_and_all_five_links(client):
    html = client.get("/").text
    assert section_is_shown(html, "adresse")
    for key, label in HOME_SECTIONS:
        assert f'href="?section={key}#sections"' in html
        assert label in html
        if key != "adresse":
            assert not section_is_shown(html, key)
    assert 'data-scroll-top hidden aria-label="Revenir en haut"' in html


def test_home_section_link_works_without_javascript(client):
    html = client.get("/?section=avis").text
    assert section_is_shown(html, "avis")
    assert not section_is_shown(html, "adresse")
    assert 'data-section-link="avis" aria-current="true"' in html
    assert section_is_shown(client.get("/?section=nimporte").text, "adresse")


@freeze_time("2025-03-12 10:00:00+01:00")
def test_home_course_cards_show_the_next_session_or_none(client):
    planned = CourseFactory(title="Cerceau aérien")
    CourseSessionFactory(course=planned, start=paris(2025, 3, 1, 18, 0))
    CourseSessionFactory(course=planned, start=paris(2025, 3, 14, 19, 0))
    CourseSessionFactory(course=planned, start=paris(2025, 3, 21, 19, 0))
    unplanned = CourseFactory(title="Cabaret")
    CourseSessionFactory(course=unplanned, start=paris(2025, 3, 5, 18, 0))

    html = client.get("/?section=cours").text

    assert f'href="/courses/{planned.pk}?from=home"' in html
    assert f'href="/courses/{unplanned.pk}?from=home"' in html
    assert "Prochaine session : <time" in html and "vendredi 14 mars à 19h00" in html
    assert "21 mars" not in html and "1 mars" not in html
    cabaret_card = html[html.index("Cabaret") :]
    assert MSG_NO_UPCOMING_SESSION in cabaret_card[: cabaret_card.index("</li>")]


def test_home_query_count_is_the_same_for_3_and_300_sessions(client, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    courses = CourseFactory.create_batch(3)
    TestimonialFactory.create_batch(3)
    for course in courses:
        CourseSessionFactory(course=course)

    def count():
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/?section=cours").status_code == 200
        return len(queries)

    with_3 = count()
    start = timezone.now() + timedelta(days=1)
    for i in range(297):
        CourseSessionFactory(course=courses[i % 3], start=start + timedelta(hours=i))
    CourseFactory.create_batch(5)
    assert count() == with_3
    assert with_3 <= 6


def test_home_flip_cards_are_buttons_and_the_reviews_wait_for_consent(client):
    TestimonialFactory(name="Sophie", message="Un studio formidable.")
    html = client.get("/?section=avis").text
    assert html.count('class="flip-card" aria-pressed="false" data-flip-card') == 3
    assert "Un studio formidable." in html
    assert "<iframe" not in html
    assert 'data-src="https://www.google.com/maps?' in html
    assert 'data-src="https://www.openstreetmap.org/export/embed.html?' in html


def test_home_is_cached_for_visitors_and_refreshed_when_courses_change(client, django_assert_num_queries):
    client.get("/?section=cours")
    with django_assert_num_queries(0):
        client.get("/?section=cours")
    CourseFactory(title="Nouveau cours de barre")
    assert "Nouveau cours de barre" in client.get("/?section=cours").text


# --- Course detail ---------------------------------------------------------------------------------------------


def test_unknown_course_answers_404_with_the_message(client):
    response = client.get("/courses/999999")
    assert response.status_code == 404
    assert MSG_COURSE_NOT_FOUND in response.text


@freeze_time("2025-03-12 10:00:00+01:00")
def test_course_detail_shows_the_course_the_next_sessions_and_reserve(client):
    course = CourseFactory(title="Exotic Pole", duration=75, level="Intermédiaire", description="Fluidité.")
    CourseSessionFactory(course=course, start=paris(2025, 3, 10, 19, 30))
    CourseSessionFactory(course=course, start=paris(2025, 3, 18, 19, 30), instructor="Léa Garnier")
    html = client.get(f"/courses/{course.pk}").text
    assert "<h1>Exotic Pole</h1>" in html
    assert "Durée : 1 h 15" in html and "Niveau : Intermédiaire" in html and "Fluidité." in html
    assert 'href="/tarifs">Réserver</a>' in html
    assert "mardi 18 mars 2025, 19h30" in html and "Léa Garnier" in html
    assert "10 mars" not in html
    assert "Retour à l'accueil" not in html


def test_course_detail_from_home_offers_the_way_back(client):
    course = CourseFactory()
    html = client.get(f"/courses/{course.pk}?from=home").text
    assert """<a class="back-link" href="/?section=cours">← Retour à l'accueil</a>""" in html


def test_course_without_sessions_says_so(client):
    assert MSG_NO_UPCOMING_SESSION in client.get(f"/courses/{CourseFactory().pk}").text


def test_course_without_video_plays_the_default_one(client):
    html = client.get(f"/courses/{CourseFactory(video_url='').pk}").text
    assert selectors.DEFAULT_COURSE_VIDEO in html


def test_youtube_video_waits_for_consent(client):
    course = CourseFactory(video_url="https://www.youtube.com/watch?v=abc123XYZ")
    html = client.get(f"/courses/{course.pk}").text
    assert 'data-src="https://www.youtube-nocookie.com/embed/abc123XYZ"' in html
    assert "<iframe" not in html


# --- Weekly ----------------------------------------------------------------------------------------------------


@freeze_time("2025-03-12 10:00:00+01:00")
def test_weekly_shows_the_sessions_of_the_week_and_empty_days(client):
    course = CourseFactory(title="K-pop ados")
    CourseSessionFactory(course=course, start=paris(2025, 3, 12, 16, 0))
    html = client.get("/weekly").text
    assert "Mercredi" in html and "16h00" in html and "K-pop ados" in html
    assert html.count(MSG_NO_COURSE_THAT_DAY) == 5
    assert "← Retour au planning" in html


@freeze_time("2025-03-12 10:00:00+01:00")
def test_weekly_follows_staff_changes(client):
    session = CourseSessionFactory(course=CourseFactory(title="Cabaret"), start=paris(2025, 3, 13, 18, 30))
    assert "18h30" in client.get("/weekly").text
    session.start, session.end = paris(2025, 3, 13, 20, 0), paris(2025, 3, 13, 21, 0)
    session.save()
    html = client.get("/weekly").text
    assert "20h00" in html and "18h30" not in html


def test_weekly_query_count_is_fixed(client, django_assert_num_queries):
    CourseSessionFactory.create_batch(20, start=timezone.now() + timedelta(hours=1))
    with django_assert_num_queries(1):
        client.get("/weekly")


# --- Tariffs ---------------------------------------------------------------------------------------------------


def test_tarifs_cards_come_from_the_database(client):
    course = CourseFactory()
    single = TariffFactory(title="Cours à l'unité", course=course)
    party = TariffFactory(title="EVJF / EVG", type=TariffType.EVENT)
    html = client.get("/tarifs").text
    assert "Cours à l&#x27;unité" in html and "25,00\u00a0€" in html
    card = html[html.index(f'id="tarif-{single.pk}"') :]
    card = card[: card.index("</li>")]
    assert f'data-tariff-id="{single.pk}"' in card and 'data-tariff-price="25.00"' in card
    assert ">Commander</button>" in card
    assert f'href="/courses/{course.pk}"' in card
    party_card = html[html.index(f'id="tarif-{party.pk}"') :]
    party_card = party_card[: party_card.index("</li>")]
    assert 'href="/evjf-evg"' in party_card
    assert "Commander" not in party_card


def test_tarifs_says_so_when_the_tariffs_cannot_be_read(client):
    with mock.patch("courses.selectors.tariff_list", side_effect=DatabaseError("boom")):
        response = client.get("/tarifs")
    assert response.status_code == 200
    assert MSG_TARIFFS_FETCH_ERROR in response.text


def test_tarifs_query_count_is_fixed(client, django_assert_num_queries):
    TariffFactory.create_batch(10, course=CourseFactory())
    with django_assert_num_queries(2):  # the tariffs, then the courses each one covers (one prefetch for all)
        client.get("/tarifs")


def test_tarifs_page_lists_eight_offers_with_a_buy_button_each(client):
    carte = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"))
    html = client.get("/tarifs-page").text
    assert f'data-tariff-id="{carte.pk}" data-tariff-title="Carte 10 cours" data-tariff-price="190.00"' in html
    assert html.count("data-tariff-order ") == 8
    assert html.count(">Acheter<span") == 8
    html = html.replace("\u00a0", " ")  # euros keep a no-break space before the sign
    for label in ("Cours à l", "Carte 10 cours", "190,00 €", "55,00 € par mois", "44,00 €", "85,00 €", "65,00 €"):
        assert label in html
    assert "120,00 €" in html and "100,00 €" in html


def test_ordering_sends_a_visitor_to_login_with_the_message(client):
    tariff = TariffFactory()
    response = client.get(f"/tarifs/commander?tarif={tariff.pk}")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Ftarifs"
    assert [str(m) for m in get_messages(response.wsgi_request)] == [MSG_LOGIN_TO_ORDER]


def test_ordering_from_the_price_list_comes_back_to_it(client):
    response = client.get("/tarifs/commander?retour=/tarifs-page")
    assert response["Location"] == "/login?next=%2Ftarifs-page"
    assert client.get("/tarifs/commander?retour=https://evil.example")["Location"] == "/login?next=%2Ftarifs"


def test_ordering_as_a_member_opens_the_order_on_the_tarifs_page(client, member):
    client.force_login(member)
    tariff = TariffFactory()
    response = client.get(f"/tarifs/commander?tarif={tariff.pk}")
    assert response["Location"] == f"/tarifs?commander={tariff.pk}"
