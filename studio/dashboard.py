"""The staff back office page (/admin/dashboard and its sections): one island, the address selects the section.

The page is served with the island's first frame already in it (templates/dashboard/_opening.html): the sidebar;
for the overview its heading, its period and the sentence saying which days it covers; for the sessions their
filters. The staff member sees them
as soon as the page arrives, on a phone too, instead of once React and the section's code have run; the island's
first render replaces them with the same markup."""

import re
from datetime import date, timedelta

from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from .decorators import staff_required_page

PAGE_TITLE = "Tableau de bord"

# The sidebar's sections in the product's order, as the island lists them (frontend/src/islands/dashboard/sections.js;
# a test keeps the two lists equal).
SECTIONS = (
    ("overview", "Vue d'ensemble"),
    ("users", "Utilisateurs"),
    ("courses", "Cours"),
    ("tarifs", "Tarifs"),
    ("testimonials", "Témoignages"),
    ("instructors", "Professeurs"),
    ("team", "Équipe"),
    ("contact-messages", "Messages de contact"),
    ("sessions", "Sessions"),
    ("slider", "Slider"),
    ("media", "Médias"),
    ("slideshow", "Diaporama"),
    ("orders", "Commandes"),
    ("reservations", "Réservations"),
    ("parties", "EVJF/EVG"),
    ("rentals", "Locations de salle"),
    ("closures", "Fermetures"),
    ("desk", "Caisse"),
    ("passes", "Cartes et abonnements"),
    ("subscriptions", "Abonnements mensuels"),
    ("emails", "E-mails non remis"),
    ("promo-codes", "Codes promo"),
    ("exports", "Exports"),
    ("health", "Santé et décharge"),
    ("gift-cards", "Cartes cadeaux"),
    ("accounting", "Comptabilité"),
)

# The overview's periods, each running up to today (frontend/src/islands/dashboard/sections/overview/period.js).
PERIODS = (
    ("week", "Cette semaine"),
    ("month", "Ce mois"),
    ("30days", "30 derniers jours"),
    ("season", "Cette saison"),
    ("custom", "Personnalisée"),
)
DEFAULT_PERIOD = "month"

# The session list's "when" filter (frontend/src/islands/dashboard/sections/SessionFilters.jsx); upcoming by default.
SESSION_WHEN = (
    ("upcoming", "À venir"),
    ("past", "Passées"),
    ("cancelled", "Annulées"),
    ("full", "Complètes"),
    ("", "Toutes"),
)
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTHS = "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()


def dashboard_props(user) -> dict:
    """What the island needs to know about the viewer: its role decides what the browser offers
    (the APIs enforce docs/decisions.md 11 on their own)."""
    return {
        "user": {"id": user.pk, "role": user.role, "name": user.get_full_name()},
        # The Django admin stays available to admins (operators).
        "djangoAdminUrl": reverse("admin:index") if user.is_admin else "",
    }


def period_range(period: str, today: date) -> tuple[date, date] | None:
    """(first day, last day) of a named period ending today; None for "custom". The season starts on 1 September."""
    if period == "week":
        return today - timedelta(days=today.weekday()), today
    if period == "month":
        return today.replace(day=1), today
    if period == "30days":
        return today - timedelta(days=29), today
    if period == "season":
        return date(today.year if today.month >= 9 else today.year - 1, 9, 1), today
    return None


def overview_choice(query, today: date) -> dict:
    """The period the overview opens on, from the address (?period=, and ?from=&to= for a custom one), as the island
    reads it. `first`/`last` are None when the island would tell no period (a custom range it cannot read)."""
    period = query.get("period") if query.get("period") in dict(PERIODS) else DEFAULT_PERIOD
    if period == "custom":
        first, last = query.get("from", ""), query.get("to", "")
        if not (_DAY.match(first) and _DAY.match(last)):
            first, last = period_range(DEFAULT_PERIOD, today)
            return {"period": period, "first": first, "last": last}
        try:
            first, last = date.fromisoformat(first), date.fromisoformat(last)
        except ValueError:
            return {"period": period, "first": None, "last": None, "from": first, "to": last}
        if first > last:
            return {"period": period, "first": None, "last": None, "from": first.isoformat(), "to": last.isoformat()}
        return {"period": period, "first": first, "last": last}
    first, last = period_range(period, today)
    return {"period": period, "first": first, "last": last}


def day_label(day: date) -> str:
    """ "1 mars 2026", as the overview writes a day."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def range_sentence(first: date, last: date) -> str:
    """The overview's account of its period and the previous one of the same length."""
    days = (last - first).days + 1
    previous_last = first - timedelta(days=1)
    previous_first = previous_last - timedelta(days=days - 1)
    count = f"{days:,}".replace(",", "\u202f")  # as Intl.NumberFormat("fr-FR") groups thousands
    return (
        f"Du {day_label(first)} au {day_label(last)} ({count} jour{'s' if days > 1 else ''}), comparé à la période "
        f"précédente, du {day_label(previous_first)} au {day_label(previous_last)}."
    )


def _opening(request, section: str) -> dict:
    """What the page shows before the island runs (templates/dashboard/_opening.html)."""
    opening = {"sections": SECTIONS, "section": section}
    if section == "overview":
        choice = overview_choice(request.GET, timezone.localdate())
        first, last = choice["first"], choice["last"]
        opening.update(
            periods=PERIODS,
            choice=choice,
            custom_from=choice.get("from", first.isoformat() if first else ""),
            custom_to=choice.get("to", last.isoformat() if last else ""),
            sentence=range_sentence(first, last) if first else "",
        )
    elif section == "sessions":
        query = request.GET
        opening.update(
            when_options=SESSION_WHEN,
            when=query["when"] if "when" in query else "upcoming",
            instructor=query.get("instructor", ""),
            search=query.get("search", ""),
        )
    return opening


@staff_required_page
def dashboard(request, section="overview"):
    return render(
        request,
        "dashboard/dashboard.html",
        {
            "page_title": PAGE_TITLE,
            "section": section,
            "dashboard_props": dashboard_props(request.user),
            "opening": _opening(request, section),
        },
    )
