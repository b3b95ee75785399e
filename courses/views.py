from django.shortcuts import render

from studio.pages import simple_page

from .models import Course

home = simple_page(
    "courses/home.html",
    "Accueil",
    "Studio de pole dance, cerceau aérien et cabaret : cours pour tous les niveaux, EVJF/EVG et location de salle.",
)
weekly = simple_page("courses/weekly.html", "Planning simplifié de la semaine")
tariffs = simple_page("courses/tarifs.html", "Tarifs", "Cours à l'unité, cartes de cours et abonnements du studio.")
tariffs_page = simple_page("courses/tarifs_page.html", "Grille tarifaire")


MSG_COURSE_NOT_FOUND = "Le cours demandé est introuvable."


def course_detail(request, course_id):
    course = Course.objects.filter(pk=course_id).first()
    if course is None:
        return render(
            request,
            "courses/course_detail.html",
            {"page_title": "Cours introuvable", "course": None, "not_found_message": MSG_COURSE_NOT_FOUND},
            status=404,
        )
    return render(
        request,
        "courses/course_detail.html",
        {"page_title": course.title, "page_description": course.description[:155], "course": course},
    )
