"""Public pages: home, course detail, weekly timetable, tariffs."""

import logging
from urllib.parse import urlencode

from django.contrib import messages
from django.db import DatabaseError
from django.shortcuts import redirect, render

from studio.cache import cache_public_page, cached_public

from . import selectors, structured_data

logger = logging.getLogger(__name__)

MSG_COURSE_NOT_FOUND = "Le cours demandé est introuvable."
MSG_TARIFFS_FETCH_ERROR = "Erreur lors de la récupération des tarifs."
# Ordering a tariff needs a logged-in visitor.
MSG_LOGIN_TO_ORDER = "Vous devez être connecté pour effectuer une réservation."

# The home link bar: one section shown at a time, the address by default.
HOME_SECTIONS = [
    ("adresse", "Adresse"),
    ("cours", "Nos Cours"),
    ("pourquoi", "Pourquoi Nous Choisir"),
    ("presentation", "Présentation"),
    ("avis", "Avis"),
]
DEFAULT_HOME_SECTION = "adresse"
HOME_TESTIMONIALS = 6
# The three flip cards of 'Pourquoi Nous Choisir': front title, back text.
WHY_CARDS = [
    (
        "Des petits groupes",
        "Dix élèves au plus par cours : votre professeure vous corrige, vous pare et adapte chaque figure à votre "
        "niveau.",
    ),
    (
        "Des professeures diplômées",
        "Une équipe formée à la pole, aux agrès aériens et à la danse, pour progresser en sécurité, à votre rythme.",
    ),
    (
        "Une ambiance bienveillante",
        "Tous les corps, tous les âges, tous les niveaux : ici on s'encourage, on rit, et personne ne juge.",
    ),
]


@cache_public_page
def home(request):
    section = request.GET.get("section", DEFAULT_HOME_SECTION)
    if section not in dict(HOME_SECTIONS):
        section = DEFAULT_HOME_SECTION
    courses = cached_public("home:courses", selectors.course_list_with_next_session)
    testimonials = cached_public("home:testimonials", lambda: list(selectors.testimonial_list()[:HOME_TESTIMONIALS]))
    return render(
        request,
        "courses/home.html",
        {
            "page_title": "Accueil",
            "page_description": (
                "Studio de pole dance, cerceau aérien et cabaret : cours pour tous les niveaux en petits groupes, "
                "EVJF/EVG et location de salle."
            ),
            "sections": HOME_SECTIONS,
            "section": section,
            "courses": courses,
            "testimonials": testimonials,
            "why_cards": WHY_CARDS,
            "no_session_message": selectors.MSG_NO_UPCOMING_SESSION,
            "map_url": selectors.studio_map_embed_url(),
            "reviews_url": selectors.studio_reviews_embed_url(),
        },
    )


@cache_public_page
def course_detail(request, course_id):
    course = selectors.course_get(course_id=course_id)
    if course is None:
        return render(
            request,
            "courses/course_detail.html",
            {
                "page_title": "Cours introuvable",
                "page_description": MSG_COURSE_NOT_FOUND,
                "course": None,
                "not_found_message": MSG_COURSE_NOT_FOUND,
            },
            status=404,
        )
    sessions = selectors.course_upcoming_sessions(course=course)
    return render(
        request,
        "courses/course_detail.html",
        {
            "page_title": course.title,
            "page_description": f"{course.title} ({course.level}, {course.duration_display}) : "
            + course.description[:120],
            "course": course,
            "video": selectors.course_video(video_url=course.video_url),
            "default_video": selectors.DEFAULT_COURSE_VIDEO,
            "default_video_poster": selectors.DEFAULT_COURSE_VIDEO_POSTER,
            "sessions": sessions,
            "structured_data": structured_data.session_events(request, sessions),
            "share_image": structured_data.course_share_image(request, course),
            "no_session_message": selectors.MSG_NO_UPCOMING_SESSION,
            # The SPA's `fromHomePage` navigation flag, as a query parameter.
            "from_home": request.GET.get("from") == "home",
        },
    )


@cache_public_page
def weekly(request):
    timetable = selectors.weekly_timetable()
    return render(
        request,
        "courses/weekly.html",
        {
            "page_title": "Planning simplifié de la semaine",
            "page_description": "Les cours de pole dance, cerceau, cabaret et danse de la semaine, du lundi au samedi.",
            "timetable": timetable,
            "structured_data": structured_data.session_events(request, structured_data.timetable_sessions(timetable)),
            "empty_day_message": selectors.MSG_NO_COURSE_THAT_DAY,
        },
    )


def _tariffs_or_error():
    try:
        return list(selectors.tariff_list()), ""
    except DatabaseError:
        logger.exception("tariff list failed")
        return [], MSG_TARIFFS_FETCH_ERROR


@cache_public_page
def tariffs(request):
    tariffs, error = _tariffs_or_error()
    return render(
        request,
        "courses/tarifs.html",
        {
            "page_title": "Tarifs",
            "page_description": "Cours à l'unité, cartes de cours, abonnements et EVJF/EVG : les offres du studio.",
            "tariffs": tariffs,
            "error": error,
        },
    )


@cache_public_page
def tariffs_page(request):
    try:
        offers = selectors.price_list()
        error = ""
    except DatabaseError:
        logger.exception("price list failed")
        offers, error = [], MSG_TARIFFS_FETCH_ERROR
    return render(
        request,
        "courses/tarifs_page.html",
        {
            "page_title": "Grille tarifaire",
            "page_description": "Tous les prix du studio : cours à l'unité, carte 10 cours et abonnements.",
            "offers": offers,
            "error": error,
        },
    )


def tariff_order_start(request):
    """Where a 'Commander' button leads without JavaScript (the payments island opens its modal in place)."""
    back = request.GET.get("retour") if request.GET.get("retour") in ("/tarifs", "/tarifs-page") else "/tarifs"
    if not request.user.is_authenticated:
        messages.info(request, MSG_LOGIN_TO_ORDER)
        return redirect(f"/login?{urlencode({'next': back})}")
    tariff_id = request.GET.get("tarif", "")
    if tariff_id.isdigit():
        return redirect(f"{back}?{urlencode({'commander': tariff_id})}")
    return redirect(back)
