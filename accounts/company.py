"""A customer's company (docs/decisions.md 54): its invoices name it, with its SIREN and VAT number.

A SIREN is nine digits whose last is a Luhn check key (INSEE); La Poste's SIRENs (356 000 000) are the known
exception, valid when their digits sum to a multiple of 5. A VAT number is two letters and up to 12 characters
(FR: a two-character key then the SIREN)."""

import re

MSG_SIREN_INVALID = "Le numéro SIREN doit compter 9 chiffres et sa clé de contrôle être juste."
MSG_VAT_NUMBER_INVALID = "Le numéro de TVA intracommunautaire doit commencer par le code du pays (ex. FR12345678901)."
MSG_COMPANY_NAME_REQUIRED = "Indiquez le nom de la société pour y ajouter un SIREN ou un numéro de TVA."

VAT_NUMBER = re.compile(r"^[A-Z]{2}[0-9A-Z]{2,12}$")
LA_POSTE = "356000000"


def siren_normalised(value: str) -> str:
    """The SIREN without its spaces ("123 456 782" -> "123456782")."""
    return re.sub(r"[\s.\u00a0]", "", value or "")


def siren_is_valid(siren: str) -> bool:
    if len(siren) != 9 or not siren.isdigit():
        return False
    if siren == LA_POSTE:
        return True
    total = 0
    for index, char in enumerate(reversed(siren)):
        digit = int(char) * (2 if index % 2 else 1)
        total += digit - 9 if digit > 9 else digit
    return total % 10 == 0


def vat_number_normalised(value: str) -> str:
    return re.sub(r"[\s.\-\u00a0]", "", value or "").upper()


def vat_number_is_valid(number: str) -> bool:
    return bool(VAT_NUMBER.match(number))
