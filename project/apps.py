from django.apps import AppConfig


class ProjectConfig(AppConfig):
    """The project top: the root URLs, the pages that gather several apps (the sitemap) and the bench's seed.

    It is the one package allowed to import every app; nothing imports it (Django finds it through ROOT_URLCONF and
    INSTALLED_APPS). The shared core, `studio`, imports no app (.importlinter)."""

    name = "project"
    verbose_name = "Site"
