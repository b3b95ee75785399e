"""The `manage.py export_*` commands (docs/decisions.md 39): one export for a range of Paris days, as CSV or
.xlsx."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from ..exports import EXPORTS, FILE_FORMATS, export_file


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"Date invalide : {text!r} (attendu AAAA-MM-JJ).") from None


class ExportCommand(BaseCommand):
    kind = ""

    @property
    def help(self):
        return f"{EXPORTS[self.kind].title} en CSV (UTF-8 avec BOM, « ; », virgule décimale, JJ/MM/AAAA) ou en .xlsx."

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="start", required=True, help="Premier jour, AAAA-MM-JJ (heure de Paris).")
        parser.add_argument("--to", dest="end", required=True, help="Dernier jour inclus, AAAA-MM-JJ.")
        parser.add_argument("--output", "-o", help="Fichier à écrire (par défaut : le nom de l'export, ici).")
        parser.add_argument(
            "--format", dest="file_format", choices=list(FILE_FORMATS), default="csv", help="csv (par défaut) ou xlsx."
        )

    def handle(self, *args, start, end, output=None, file_format="csv", **options):
        start, end = _day(start), _day(end)
        if end < start:
            raise CommandError("La date de fin doit être le jour de début ou après.")
        name, content = export_file(self.kind, start=start, end=end, file_format=file_format)
        path = output or name
        with open(path, "wb") as handle:
            handle.write(content)
        size = f"{content.count(b'\n') - 1} ligne(s)" if file_format == "csv" else f"{len(content)} octets"
        self.stdout.write(f"{path} : {size}")
