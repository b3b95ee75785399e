"""Student and job-seeker rates (issue 19): the member confirms the status at purchase (a required checkbox, and an
optional proof checked by its content and size like every upload, media_library.uploads); staff see it and can end
the reduced plan (subscription_staff.subscription_end_reduced)."""

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile

from media_library.uploads import IMAGE_FORMATS_WEBP, UploadRejected, check_image
from studio.errors import NOT_FOUND, ApplicationError

from ..models import PaymentOrder, ReducedRateDeclaration, ReducedRateProof, ReducedStatus, SubscriptionPlan

MSG_REDUCED_CONFIRM = (
    "Ce tarif réduit est réservé aux étudiant(e)s et aux demandeur(se)s d'emploi : cochez la case pour confirmer "
    "votre statut."
)
MSG_REDUCED_STATUS = "Indiquez votre statut : étudiant(e) ou demandeur(se) d'emploi."
MSG_PROOF_NOT_FOUND = "Ce justificatif est introuvable : envoyez-le de nouveau."
MSG_PROOF_TYPES = "Le justificatif doit être une photo ou un scan JPEG, PNG, GIF ou WebP."
MSG_PROOF_MISSING = "Choisissez le fichier du justificatif."
REDUCED_WORDS = ("étudiant", "etudiant", "demandeur d'emploi", "demandeur d’emploi")


class ReducedRateError(ApplicationError):
    default_code = "reduced_rate_invalid"
    messages = {
        "reduced_confirm": MSG_REDUCED_CONFIRM,
        "reduced_status": MSG_REDUCED_STATUS,
        "proof_not_found": MSG_PROOF_NOT_FOUND,
        "proof_types": MSG_PROOF_TYPES,
        "proof_missing": MSG_PROOF_MISSING,
    }
    statuses = {"proof_not_found": NOT_FOUND}


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
    """Keep the member's declaration with the purchase order (called once the order exists)."""
    if claim is None or not claim.confirmed or claim.status not in ReducedStatus.values:
        return
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
    proof = ReducedRateProof(member=user)
    proof.file.save(f"{uuid.uuid4().hex}.{checked.extension}", ContentFile(checked.data), save=False)
    proof.save()
    return proof
