"""Payments' pages: the download of a reduced-rate proof."""

import mimetypes

from django.http import FileResponse, Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from studio.decorators import login_required_page

from .services.withdrawal import WithdrawalError, payment_order_withdraw, withdrawal_preview
from .subscriptions.models import ReducedRateProof
from .subscriptions.selectors import reduced_proof_for_reader


def reduced_proof_url(proof: ReducedRateProof) -> str:
    """Where staff and the member read a proof: this view, never the storage's address (it has none)."""
    return reverse("reduced-proof-file", args=[proof.pk])


@require_GET
def reduced_proof_file(request, proof_id: int):
    """The proof's file for the member who sent it and for staff; 404 for anyone else, logged in or not, as for a
    proof that does not exist. Sent as a download: a browser never renders the member's file in the site's origin."""
    proof = reduced_proof_for_reader(proof_id=proof_id, user=request.user)
    if proof is None:
        raise Http404
    try:
        content = proof.file.storage.open(proof.file.name, "rb")
    except OSError:  # the row outlived its file (deleted by hand, a failed restore): nothing to send
        raise Http404 from None
    extension = proof.file.name.rsplit(".", 1)[-1].lower() if "." in proof.file.name else ""
    filename = f"justificatif-{proof.pk}.{extension}" if extension else f"justificatif-{proof.pk}"
    content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    response = FileResponse(content, as_attachment=True, filename=filename, content_type=content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


WITHDRAWAL_TITLE = "Exercer mon droit de rétractation"


@login_required_page
@require_http_methods(["GET", "POST"])
def withdrawal_page(request, order_id: str):
    """The member's withdrawal from a class card (docs/decisions.md 47): what it does, then, posted, done once."""
    context = {"page_title": WITHDRAWAL_TITLE, "page_description": ""}
    try:
        if request.method == "POST":
            _order, context["done_message"] = payment_order_withdraw(user=request.user, order_id=order_id)
        else:
            context["preview"] = withdrawal_preview(user=request.user, order_id=order_id)
    except WithdrawalError as error:
        context["error"] = error.message
        return render(request, "payments/withdrawal.html", context, status=error.status)
    return render(request, "payments/withdrawal.html", context)
