"""Student and job-seeker rates: the member confirms the status at purchase (a required checkbox, and an
optional proof checked by its content and size like every upload, media_library.uploads); staff see it and can end
the reduced plan (payments/subscriptions/services/staff.py, subscription_end_reduced)."""

import logging
import math
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from media_library.uploads import IMAGE_FORMATS_WEBP, UploadRejected, check_image
from studio.errors import NOT_FOUND, TOO_MANY_REQUESTS, ApplicationError

from ..models import PaymentOrder
from ..subscriptions.models import ReducedRateDeclaration, ReducedRateProof, ReducedStatus, SubscriptionPlan

MSG_REDUCED_CONFIRM = (
    "Ce tarif réduit est réservé aux étudiant(e)s et aux demandeur(se)s d'emploi : cochez la case pour confirmer "
    "votre statut."
)
MSG_REDUCED_STATUS = "Indiquez votre statut : étudiant(e) ou demandeur(se) d'emploi."
MSG_PROOF_NOT_FOUND = "Ce justificatif est introuvable : envoyez-le de nouveau."
MSG_PROOF_TYPES = "Le justificatif doit être une photo ou un scan JPEG, PNG, GIF ou WebP."
MSG_PROOF_MISSING = "Choisissez le fichier du justificatif."
MSG_PROOF_TOO_MANY = "Vous avez déjà envoyé {limit} justificatifs en moins d'une heure : réessayez dans {minutes} min."
REDUCED_WORDS = ("étudiant", "etudiant", "demandeur d'emploi", "demandeur d’emploi")


class ReducedRateError(ApplicationError):
    default_code = "reduced_rate_invalid"
    messages = {
        "reduced_confirm": MSG_REDUCED_CONFIRM,
        "reduced_status": MSG_REDUCED_STATUS,
        "proof_not_found": MSG_PROOF_NOT_FOUND,
        "proof_types": MSG_PROOF_TYPES,
        "proof_missing": MSG_PROOF_MISSING,
        "proof_too_many": MSG_PROOF_TOO_MANY,
    }
    statuses = {"proof_not_found": NOT_FOUND, "proof_too_many": TOO_MANY_REQUESTS}


logger = logging.getLogger(__name__)

# Proofs are identity documents: a member sends a few per hour at most (REDUCED_PROOFS_PER_HOUR), and one that no
# purchase names is deleted, file and row, a day after it was sent (`reduced_proofs_unattached_delete`).
DEFAULT_REDUCED_PROOFS_PER_HOUR = 5
PROOF_WINDOW = timedelta(hours=1)
UNATTACHED_PROOF_KEPT = timedelta(days=1)


@dataclass(frozen=True)
class ReducedClaim:
    """What the member sent with a purchase: the status declared, the checkbox, the proof uploaded before."""

    status: str = ""
    confirmed: bool = False
    proof_id: int | None = None


def tariff_is_reduced(tariff) -> bool:
    """A student or job-seeker rate: as the tariff's subscription plan says, else as its title says."""
    plan = SubscriptionPlan.objects.filter(tariff=tariff).only("reduced_rate").first()
    if plan is not None and plan.reduced_rate is not None:
        return plan.reduced_rate
    title = (tariff.title or "").lower()
    return any(word in title for word in REDUCED_WORDS)


def reduced_claim_check(*, user, tariff, claim: ReducedClaim | None) -> ReducedRateProof | None:
    """Refuse the purchase of a reduced rate without the member's confirmation (400, in French, nothing created).
    Answers the member's own proof, if one was named."""
    if not tariff_is_reduced(tariff):
        return None
    claim = claim or ReducedClaim()
    if not claim.confirmed:
        raise ReducedRateError.of("reduced_confirm", field="reduced_confirmed")
    if claim.status not in ReducedStatus.values:
        raise ReducedRateError.of("reduced_status", field="reduced_status")
    if claim.proof_id is None:
        return None
    proof = None
    if 0 < claim.proof_id < 2**31:
        proof = ReducedRateProof.objects.filter(pk=claim.proof_id, member=user).first()
    if proof is None:
        raise ReducedRateError.of("proof_not_found", field="reduced_proof_id")
    return proof


def reduced_declaration_record(*, order: PaymentOrder, claim: ReducedClaim | None, proof) -> None:
    """Keep the member's declaration with the purchase order (called once the order exists, in its transaction).
    The proof's row is locked first, so the deletion of unattached proofs either waits for this purchase (and then
    spares the proof) or deleted it already (then the declaration keeps the status only)."""
    if claim is None or not claim.confirmed or claim.status not in ReducedStatus.values:
        return
    if proof is not None:
        proof = ReducedRateProof.objects.select_for_update().filter(pk=proof.pk).first()
    ReducedRateDeclaration.objects.get_or_create(order=order, defaults={"status": claim.status, "proof": proof})


def reduced_proof_upload(*, user, upload) -> ReducedRateProof:
    """A proof (student card, France Travail certificate) as an image, checked by its bytes and size."""
    if upload is None:
        raise ReducedRateError.of("proof_missing", field="file")
    try:
        checked = check_image(
            upload, max_bytes=settings.MAX_IMAGE_UPLOAD_BYTES, formats=IMAGE_FORMATS_WEBP, type_message=MSG_PROOF_TYPES
        )
    except UploadRejected as exc:
        raise ReducedRateError(exc.message, code="proof_rejected", field="file") from None
    with transaction.atomic():
        # The member's row lock makes concurrent uploads count one after the other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
        _proof_quota_check(member_id=user.pk)
        proof = ReducedRateProof(member=user)
        proof.file.save(f"{uuid.uuid4().hex}.{checked.extension}", ContentFile(checked.data), save=False)
        proof.save()
    return proof


def _proof_quota_check(*, member_id: int) -> None:
    """At most REDUCED_PROOFS_PER_HOUR proofs in any 60 minutes (None: no limit); past it, 429 with the minutes
    until the oldest of them leaves the window."""
    limit = getattr(settings, "REDUCED_PROOFS_PER_HOUR", DEFAULT_REDUCED_PROOFS_PER_HOUR)
    if limit is None:
        return
    limit = max(int(limit), 1)
    now = timezone.now()
    recent = list(
        ReducedRateProof.objects.filter(member_id=member_id, uploaded_at__gt=now - PROOF_WINDOW)
        .order_by("-uploaded_at")
        .values_list("uploaded_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return
    # A place frees when the limit-th most recent upload leaves the window, an hour after it came.
    wait = max(math.ceil((recent[-1] + PROOF_WINDOW - now).total_seconds()), 1)
    error = ReducedRateError.of("proof_too_many", field="file", limit=limit, minutes=math.ceil(wait / 60))
    error.retry_after = wait
    raise error


def reduced_proofs_unattached_delete() -> int:
    """Delete the proofs no purchase names, a day after their upload: the row, then the file once that commits.
    Idempotent and safe when two schedulers run it at once (rows locked, skipping those another run or a purchase
    holds). Returns how many were deleted."""
    cutoff = timezone.now() - UNATTACHED_PROOF_KEPT
    attached = ReducedRateDeclaration.objects.filter(proof_id=OuterRef("pk"))
    with transaction.atomic():
        proofs = list(
            ReducedRateProof.objects.select_for_update(skip_locked=True)
            .filter(uploaded_at__lte=cutoff)
            .exclude(Exists(attached))
            .order_by("pk")
            .values_list("pk", "file")
        )
        ReducedRateProof.objects.filter(pk__in=[pk for pk, _ in proofs]).delete()
        names = [name for _, name in proofs if name]
        transaction.on_commit(lambda: _proof_files_delete(names))
    return len(proofs)


def _proof_files_delete(names: list[str]) -> None:
    storage = ReducedRateProof._meta.get_field("file").storage
    for name in names:
        try:
            storage.delete(name)
        except OSError:  # the next run will not see the row again: say so, the file is an identity document
            logger.exception("Could not delete the proof file %s", name)
