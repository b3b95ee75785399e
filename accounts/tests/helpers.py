import re

from accounts.tests.factories import DEFAULT_PASSWORD

VALID_REGISTRATION = {
    "last_name": "Bernard",
    "first_name": "Chloé",
    "phone": "0611223344",
    "email": "chloe@example.fr",
    "address": "3 rue Mercière",
    "postal_code": "69002",
    "city": "Lyon",
    "country": "France",
    "password": "Cerceau-Lyon-2026",
    "confirmPassword": "Cerceau-Lyon-2026",
    "acceptCGU": True,
}

LINK_RE = re.compile(r"http://[^\s\"<]+/(confirm-email|confirm-new-email|reset-password)/([A-Za-z0-9_\-]+)")


def link_token(message, kind):
    """The token of the confirm-email or reset-password link in an e-mail's text body."""
    for match in LINK_RE.finditer(message.body):
        if match.group(1) == kind:
            return match.group(2)
    raise AssertionError(f"no {kind} link in: {message.body}")


__all__ = ["DEFAULT_PASSWORD", "VALID_REGISTRATION", "link_token"]
