from django.core.management.base import BaseCommand, CommandError

from operations import alerts, backups


class Command(BaseCommand):
    help = (
        "Sauvegarde maintenant la base de données, les fichiers envoyés et les fichiers privés dans le stockage des "
        "sauvegardes (compressés, chiffrés si BACKUP_GPG_RECIPIENT), en gardant les BACKUP_KEEP dernières."
    )

    def handle(self, *args, **options):
        try:
            run = backups.backup_run()
        except Exception as exc:
            alerts.alerts_check()
            raise CommandError(f"La sauvegarde a échoué : {exc}") from exc
        alerts.alerts_check()
        self.stdout.write(self.style.SUCCESS("Sauvegarde terminée :"))
        for name in run.files:
            self.stdout.write(f"  {name}")
