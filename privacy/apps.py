from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """A member's personal data (docs/decisions.md 34, 37): the export and the account's deletion. The top layer under
    `project`: it may import every app, because deleting an account touches all of them in one transaction."""

    name = "privacy"
    verbose_name = "Données personnelles"
