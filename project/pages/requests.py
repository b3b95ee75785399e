"""The member's requests (docs/decisions.md 17): "Mes demandes" lists their EVJF/EVG and room-rental requests with their
status; each request's page shows the quote, the history, the deposit to pay (the payment widget) and a cancel button
while it is not confirmed. Another member's request is a 404. The pages gather quotes' requests and payments' widget,
so they sit in the top layer."""

from django.contrib import messages as django_messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from bookings.views.common import member_props
from payments.selectors import payment_client_config
from quotes.history import history
from quotes.selectors import party_requests_of_member, rental_requests_of_member
from quotes.services import parties, rentals
from quotes.workflow import QuoteError, euros
from studio.decorators import login_required_page

MSG_REQUEST_CANCELLED = "Votre demande est annulée."
MSG_NO_REQUESTS = "Vous n'avez encore fait aucune demande."
KINDS = {"evjf": "party", "location": "rental"}


def _party_row(party, viewer) -> dict:
    return {
        "kind": "evjf",
        "id": party.pk,
        "title": f"{party.get_event_type_display()}",
        "label": parties.party_label(party),
        "request": party,
        "details": [
            ("Date souhaitée", f"{party.date:%d/%m/%Y} à {party.time:%H:%M}"),
            ("Participants", str(party.participants)),
            *(
                [("Devis", f"{party.quote_participants} participants, {party.quote_spectators} spectateurs")]
                if party.quote_participants
                else []
            ),
        ],
        "history": history(party, party.events.all(), viewer=viewer, sent_by=party.user_id),
    }


def _rental_row(rental, viewer) -> dict:
    return {
        "kind": "location",
        "id": rental.pk,
        "title": f"Location de salle – {rental.event_type}",
        "label": rentals.rental_label(rental),
        "request": rental,
        "details": [("Date souhaitée", f"{rental.date:%d/%m/%Y} à {rental.time:%H:%M}")],
        "history": history(rental, rental.events.all(), viewer=viewer, sent_by=rental.user_id),
    }


def _with_money(row: dict) -> dict:
    request = row["request"]
    row["quote_amount"] = euros(request.quote_amount) if request.quote_amount else ""
    row["deposit_amount"] = euros(request.deposit_amount) if request.deposit_amount else ""
    row["url"] = f"/user/requests/{row['kind']}/{row['id']}"
    return row


@login_required_page
def my_requests_page(request):
    user = request.user
    rows = [_with_money(_party_row(p, user)) for p in party_requests_of_member(user=user)]
    rows += [_with_money(_rental_row(r, user)) for r in rental_requests_of_member(user=user)]
    rows.sort(key=lambda row: row["request"].created_at, reverse=True)
    return render(
        request,
        "quotes/my_requests.html",
        {
            "page_title": "Mes demandes",
            "page_description": "Vos demandes d'EVJF/EVG et de location de salle, leur devis et leur suivi.",
            "rows": rows,
            "empty": MSG_NO_REQUESTS,
        },
    )


def _own_row(request, kind: str, request_id: int) -> dict:
    if kind == "evjf":
        party = party_requests_of_member(user=request.user).filter(pk=request_id).first()
        row = _party_row(party, request.user) if party else None
    elif kind == "location":
        rental = rental_requests_of_member(user=request.user).filter(pk=request_id).first()
        row = _rental_row(rental, request.user) if rental else None
    else:
        row = None
    if row is None:
        raise Http404("Demande introuvable.")
    return _with_money(row)


@login_required_page
def my_request_page(request, kind: str, request_id: int):
    row = _own_row(request, kind, request_id)
    target = row["request"]
    deposit_props = None
    if target.deposit_due:
        deposit_props = {
            "kind": KINDS[kind],
            "requestId": target.pk,
            "amount": f"{target.deposit_amount:.2f}",
            "title": f"Acompte – {row['label']}",
            "payer": member_props(request),
            "paymentConfig": payment_client_config(),
        }
    return render(
        request,
        "quotes/my_request.html",
        {
            "page_title": row["title"],
            "page_description": "Le suivi de votre demande : statut, devis, acompte et historique.",
            "row": row,
            "deposit_props": deposit_props,
        },
    )


@login_required_page
@require_POST
def my_request_cancel(request, kind: str, request_id: int):
    row = _own_row(request, kind, request_id)
    try:
        if kind == "evjf":
            parties.party_cancel(party_id=row["id"], member=request.user)
        else:
            rentals.rental_cancel(rental_id=row["id"], member=request.user)
    except QuoteError as exc:
        django_messages.error(request, exc.message)
    else:
        django_messages.success(request, MSG_REQUEST_CANCELLED)
    return redirect(row["url"])
