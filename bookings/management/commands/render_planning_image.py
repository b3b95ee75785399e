from django.conf import settings
from django.core.management.base import BaseCommand

from bookings.planning_image import render_planning


class Command(BaseCommand):
    help = "Redessine static/img/planning.jpg (onglet « Planning (image) ») à partir de l'emploi du temps."

    def handle(self, *args, **options):
        path = render_planning(settings.BASE_DIR / "static" / "img" / "planning.jpg", settings.STUDIO["name"])
        self.stdout.write(f"Image écrite : {path}")
