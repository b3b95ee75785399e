"""What a member reads when Stripe refuses: a French sentence per documented code (docs.stripe.com/declines/codes and
docs.stripe.com/error-codes), never Stripe's English message.

A decline_code is looked up first (it is the bank's reason), then the error code. Lost, stolen or fraudulent cards get
the generic refusal on purpose: Stripe asks not to tell a possible fraudster why the card was refused.
"""

GENERIC_REFUSAL = "Votre banque a refusé le paiement."
GENERIC_FAILURE = "Le paiement n'a pas pu aboutir. Réessayez ou choisissez un autre moyen de paiement."
UNAVAILABLE = "Le paiement en ligne est momentanément indisponible. Réessayez dans quelques instants."
AUTHENTICATION_REQUIRED = "Votre banque demande de confirmer ce paiement : ouvrez le lien reçu pour le valider."
AUTHENTICATION_FAILED = "La vérification demandée par votre banque (3-D Secure) n'a pas abouti."
SEPA_REFUSED = "Le prélèvement a été refusé par votre banque."

MESSAGES = {
    # card declines (decline_code)
    "generic_decline": GENERIC_REFUSAL,
    "card_declined": GENERIC_REFUSAL,
    "do_not_honor": GENERIC_REFUSAL,
    "transaction_not_allowed": GENERIC_REFUSAL,
    "not_permitted": GENERIC_REFUSAL,
    "lost_card": GENERIC_REFUSAL,
    "stolen_card": GENERIC_REFUSAL,
    "pickup_card": GENERIC_REFUSAL,
    "fraudulent": GENERIC_REFUSAL,
    "merchant_blacklist": GENERIC_REFUSAL,
    "security_violation": GENERIC_REFUSAL,
    "insufficient_funds": "Fonds insuffisants.",
    "expired_card": "Cette carte a expiré.",
    "incorrect_cvc": "Le cryptogramme visuel (CVC) est incorrect.",
    "invalid_cvc": "Le cryptogramme visuel (CVC) est incorrect.",
    "incorrect_number": "Le numéro de carte est incorrect.",
    "invalid_number": "Le numéro de carte est incorrect.",
    "invalid_expiry_month": "La date d'expiration de la carte est incorrecte.",
    "invalid_expiry_year": "La date d'expiration de la carte est incorrecte.",
    "incorrect_pin": "Le code de la carte est incorrect.",
    "card_velocity_exceeded": "Le plafond de votre carte est atteint.",
    "withdrawal_count_limit_exceeded": "Le plafond de votre carte est atteint.",
    "card_not_supported": "Cette carte n'accepte pas ce type de paiement.",
    "currency_not_supported": "Cette carte n'accepte pas les paiements en euros.",
    "processing_error": "Une erreur est survenue pendant le traitement de la carte. Réessayez dans quelques instants.",
    "try_again_later": "Une erreur est survenue pendant le traitement de la carte. Réessayez dans quelques instants.",
    "issuer_not_available": "Votre banque ne répond pas. Réessayez dans quelques instants.",
    "authentication_required": AUTHENTICATION_REQUIRED,
    "payment_intent_authentication_failure": AUTHENTICATION_FAILED,
    "setup_intent_authentication_failure": AUTHENTICATION_FAILED,
    # SEPA direct debit failures
    "payment_method_provider_decline": SEPA_REFUSED,
    "debit_not_authorized": SEPA_REFUSED,
    "account_closed": "Ce compte bancaire est clôturé.",
    "bank_account_restricted": SEPA_REFUSED,
    "no_account": "Ce compte bancaire est introuvable.",
    "invalid_bank_account_iban": "L'IBAN saisi est incorrect.",
    # requests our side got wrong or that cannot be done again
    "charge_already_refunded": "Ce paiement a déjà été remboursé.",
    "amount_too_small": "Le montant est trop faible pour un paiement en ligne.",
    "payment_intent_unexpected_state": "Ce paiement n'est plus modifiable : rechargez la page.",
    "setup_intent_unexpected_state": "Cet enregistrement n'est plus modifiable : rechargez la page.",
    "resource_missing": GENERIC_FAILURE,
}


def french_message(*, code: str = "", decline_code: str = "") -> str:
    return MESSAGES.get(decline_code) or MESSAGES.get(code) or GENERIC_FAILURE
