"""What link previews and search engines read about the studio: the image a shared link shows (Open Graph) and
the studio as a schema.org DanceSchool (JSON-LD), from the studio's settings. Built from settings only: no query."""

import re

from django.conf import settings
from django.templatetags.static import static

# The picture a link to the site shows: the week's planning (static/img/planning.jpg, drawn at this size by
# bookings/planning_image.py), a JPEG as every preview reader takes, with the studio's name and its classes.
SHARE_IMAGE = "img/planning.jpg"
SHARE_IMAGE_SIZE = (1800, 1100)
SHARE_IMAGE_TYPE = "image/jpeg"
LOGO = "img/logo.svg"


def absolute(request, path: str) -> str:
    return request.build_absolute_uri(path)


def share_image(request) -> dict:
    width, height = SHARE_IMAGE_SIZE
    return {
        "url": absolute(request, static(SHARE_IMAGE)),
        "width": width,
        "height": height,
        "type": SHARE_IMAGE_TYPE,
        "alt": f"Planning des cours – {settings.STUDIO['name']}",
    }


def international_phone(phone: str) -> str:
    """A French number as the studio writes it ("04 78 00 00 00") in its international form ("+33 4 78 00 00 00")."""
    digits = re.sub(r"\D", "", phone)
    if len(digits) == 10 and digits.startswith("0"):
        national = digits[1:]
        return "+33 " + national[0] + " " + " ".join(national[i : i + 2] for i in range(1, 9, 2))
    return phone


def postal_address() -> dict:
    studio = settings.STUDIO
    return {
        "@type": "PostalAddress",
        "streetAddress": studio["address"],
        "postalCode": studio["postal_code"],
        "addressLocality": studio["city"],
        "addressCountry": studio.get("country_code", "FR"),
    }


def studio_place() -> dict:
    """Where classes take place: the studio's room, for an Event's location."""
    return {"@type": "Place", "name": settings.STUDIO["name"], "address": postal_address()}


def studio_reference(request) -> dict:
    """The studio named as an Event's organizer."""
    return {"@type": "DanceSchool", "name": settings.STUDIO["name"], "url": absolute(request, "/")}


def dance_school(request) -> dict:
    studio = settings.STUDIO
    same_as = [studio[key] for key in ("facebook_url", "instagram_url", "tiktok_url") if studio.get(key)]
    return {
        "@context": "https://schema.org",
        "@type": "DanceSchool",
        "@id": absolute(request, "/#studio"),
        "name": studio["name"],
        "url": absolute(request, "/"),
        "logo": absolute(request, static(LOGO)),
        "image": share_image(request)["url"],
        "telephone": international_phone(studio["phone"]),
        "email": studio["email"],
        "address": postal_address(),
        "geo": {"@type": "GeoCoordinates", "latitude": studio["latitude"], "longitude": studio["longitude"]},
        "openingHours": list(studio.get("opening_hours", [])),
        "sameAs": same_as,
    }
