"""The `manage.py export_*` commands (issue 20, DECISIONS.md 39): one CSV export for a range of Paris days."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from ..exports import EXPORTS, export_csv


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"Date invalide : {text!r} (attendu AAAA-MM-JJ).") from None


class ExportCommand(BaseCommand):
    kind = ""

    @property
    def help(self):
        return f"{EXPORTS[self.kind].title} en CSV (UTF-8 avec BOM, « ; », virgule décimale, JJ/MM/AAAA)."

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="start", required=True, help="Premier jour, AAAA-MM-JJ (heure de Paris).")
        parser.add_argument("--to", dest="end", required=True, help="Dernier jour inclus, AAAA-MM-JJ.")
        parser.add_argument("--output", "-o", help="Fichier à écrire (par défaut : le nom de l'export, ici).")

    def handle(self, *args, start, end, output=None, **options):
        start, end = _day(start), _day(end)
        if end < start:
            raise CommandError("La date de fin doit être le jour de début ou après.")
        name, text = export_csv(self.kind, start=start, end=end)
        path = output or name
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        self.stdout.write(f"{path} : {text.count(chr(10)) - 1} ligne(s)")
