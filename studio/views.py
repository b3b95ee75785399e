from django.shortcuts import render

from .pages import simple_page

legal_notice = simple_page(
    "pages/mentions_legales.html",
    "Mentions légales",
    "Mentions légales du studio : éditeur, hébergeur et propriété intellectuelle.",
)
privacy_policy = simple_page(
    "pages/politique_confidentialite.html",
    "Politique de confidentialité",
    "Quelles données le studio collecte, pourquoi, combien de temps, et vos droits.",
)
social = simple_page(
    "pages/blog_facebook.html", "Le studio sur les réseaux", "Suivez le studio sur Facebook, Instagram et TikTok."
)
why_us = simple_page(
    "pages/choisir_nous.html",
    "Pourquoi nous choisir",
    "Petits groupes, professeures diplômées, ambiance bienveillante : pourquoi choisir notre studio.",
)


def page_not_found(request, exception=None):
    return render(request, "404.html", {"page_title": "Page non trouvée"}, status=404)


def server_error(request):
    # No context processors that touch the database: the failure may be the database itself.
    from django.http import HttpResponseServerError
    from django.template import loader

    return HttpResponseServerError(loader.get_template("500.html").render({}))
