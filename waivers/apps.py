from django.apps import AppConfig


class WaiversConfig(AppConfig):
    name = "waivers"
    verbose_name = "Questionnaire de santé, décharge et règlement intérieur"
