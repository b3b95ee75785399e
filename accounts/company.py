"""A customer's company (docs/decisions.md 54): its invoices name it, with its SIREN and VAT number.

A SIREN is nine digits whose last is a Luhn check key (INSEE); La Poste's SIRENs (356 000 000) are the known
exception, valid when their digits sum to a multiple of 5. A VAT number is two letters and up to 12 characters
(FR: a two-character key then the SIREN)."""

import re

from studio.errors import ApplicationError

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


class CompanyError(ApplicationError):
    """A company's number that cannot be right: refused before anything is saved."""

    messages = {
        "siren_invalid": MSG_SIREN_INVALID,
        "vat_number_invalid": MSG_VAT_NUMBER_INVALID,
        "company_name_required": MSG_COMPANY_NAME_REQUIRED,
    }


COMPANY_MAX_LENGTHS = {"company_name": 200, "company_siren": 9, "company_vat_number": 20, "company_address": 300}


def company_cleaned(data: dict, *, current: dict | None = None) -> dict:
    """The company fields present in `data`, normalised and checked (with the `current` ones for those absent):
    a SIREN by its Luhn key, a VAT number by its shape, and a name whenever a number is given."""
    changes = {field: (data.get(field) or "").strip() for field in COMPANY_MAX_LENGTHS if field in data}
    if "company_siren" in changes:
        changes["company_siren"] = siren_normalised(changes["company_siren"])
        if changes["company_siren"] and not siren_is_valid(changes["company_siren"]):
            raise CompanyError.of("siren_invalid", field="company_siren")
    if "company_vat_number" in changes:
        changes["company_vat_number"] = vat_number_normalised(changes["company_vat_number"])
        if changes["company_vat_number"] and not vat_number_is_valid(changes["company_vat_number"]):
            raise CompanyError.of("vat_number_invalid", field="company_vat_number")
    merged = {**(current or {}), **changes}
    if (merged.get("company_siren") or merged.get("company_vat_number")) and not merged.get("company_name"):
        raise CompanyError.of("company_name_required", field="company_name")
    return changes
