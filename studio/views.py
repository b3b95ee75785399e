from urllib.parse import quote, urlparse

from django.conf import settings
from django.http import HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader

from .api import MSG_NOT_FOUND
from .cache import cache_public_page
from .pages import simple_page
from .terms import terms_text, terms_version

# The site's publisher and host for the legal notice; a deployment overrides them with settings.STUDIO_LEGAL.
LEGAL_DEFAULTS = {
    "legal_form": "Entreprise individuelle",
    "siret": "912 345 678 00017",
    "host_name": "OVH SAS",
    "host_address": "2 rue Kellermann, 59100 Roubaix, France",
    "host_phone": "1007",
    "host_url": "https://www.ovhcloud.com",
}


@cache_public_page
def legal_notice(request):
    return render(
        request,
        "pages/mentions_legales.html",
        {
            "page_title": "Mentions légales",
            "page_description": "Mentions légales du studio : éditeur, hébergeur, propriété intellectuelle, médiation.",
            "legal": {**LEGAL_DEFAULTS, **getattr(settings, "STUDIO_LEGAL", {})},
            "mediator": settings.CONSUMER_MEDIATOR,
        },
    )


@cache_public_page
def terms_of_sale(request):
    return render(
        request,
        "pages/cgv.html",
        {
            "page_title": "Conditions générales de vente",
            "page_description": "Conditions générales de vente du studio : prix, paiement, droit de rétractation.",
            "terms_html": terms_text(),
            "terms_version": terms_version(),
        },
    )


accessibility = cache_public_page(
    simple_page(
        "pages/accessibilite.html",
        "Déclaration d'accessibilité",
        "Déclaration d'accessibilité du site du studio : état de conformité, contenus non accessibles, contact.",
    )
)
privacy_policy = cache_public_page(
    simple_page(
        "pages/politique_confidentialite.html",
        "Politique de confidentialité",
        "Quelles données le studio collecte, pourquoi, combien de temps il les garde, les cookies et vos droits.",
    )
)
why_us = cache_public_page(
    simple_page(
        "pages/choisir_nous.html",
        "Pourquoi nous choisir",
        "Petits groupes, professeures diplômées, ambiance bienveillante : pourquoi choisir notre studio.",
    )
)


def _handle(url: str) -> str:
    """The account name in a social-network profile address: https://www.instagram.com/name -> name."""
    return urlparse(url).path.strip("/").split("/")[0].lstrip("@")


def social_embeds() -> list[dict]:
    studio = settings.STUDIO
    facebook = (
        "https://www.facebook.com/plugins/page.php?href="
        + quote(studio["facebook_url"], safe="")
        + "&tabs=timeline&width=500&height=600&small_header=false&adapt_container_width=true&hide_cover=false"
        "&show_facepile=true"
    )
    return [
        {
            "name": "Facebook",
            "src": facebook,
            "url": studio["facebook_url"],
            "label": "Le fil de la page Facebook du studio",
        },
        {
            "name": "Instagram",
            "src": f"https://www.instagram.com/{quote(_handle(studio['instagram_url']))}/embed",
            "url": studio["instagram_url"],
            "label": "Le fil du profil Instagram du studio",
        },
        {
            "name": "TikTok",
            "src": f"https://www.tiktok.com/embed/@{quote(_handle(studio['tiktok_url']))}",
            "url": studio["tiktok_url"],
            "label": "Le fil du profil TikTok du studio",
        },
    ]


@cache_public_page
def social(request):
    return render(
        request,
        "pages/blog_facebook.html",
        {
            "page_title": "Le studio sur les réseaux",
            "page_description": "Suivez le studio sur Facebook, Instagram et TikTok : démonstrations et soirées.",
            "embeds": social_embeds(),
        },
    )


def robots(request):
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        "Disallow: /django-admin/",
        "Disallow: /api/",
        "Disallow: /user/",
        "Disallow: /my-courses",
        "Disallow: /tarifs/commander",
        f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}",
        "",
    ]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


def page_not_found(request, exception=None):
    if request.path.startswith("/api/"):  # an API path no route matches (e.g. /api/users/abc): the API's JSON 404
        return JsonResponse({"error": MSG_NOT_FOUND, "message": MSG_NOT_FOUND}, status=404)
    return render(request, "404.html", {"page_title": "Page non trouvée"}, status=404)


def server_error(request):
    # No context processors that touch the database: the failure may be the database itself.
    return HttpResponseServerError(loader.get_template("500.html").render({}))
