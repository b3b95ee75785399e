from django.core.management.base import BaseCommand, CommandError

from operations import backups


class Command(BaseCommand):
    help = (
        "Restaure une sauvegarde (les plus récentes, sauf si nommées) : la base de données indiquée est écrasée, les "
        "fichiers envoyés et privés de même nom remplacés. Arrêtez le site, le worker et le planificateur avant."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", default="default", help="l'alias de DATABASES à écraser (default)")
        parser.add_argument("--db-file", help="le fichier de la base (par défaut le plus récent)")
        parser.add_argument("--uploads-file", help="l'archive des fichiers envoyés (par défaut la plus récente)")
        parser.add_argument("--private-file", help="l'archive des fichiers privés (par défaut la plus récente)")
        parser.add_argument("--passphrase", help="la phrase secrète de la clé GnuPG, pour une sauvegarde chiffrée")
        parser.add_argument("--noinput", action="store_false", dest="interactive", help="ne demande rien")

    def handle(self, *args, database, db_file, uploads_file, private_file, passphrase, interactive, **options):
        from dbbackup.storage import StorageError

        try:
            names = [db_file or backups.latest("db"), uploads_file or backups.latest(backups.UPLOADS)]
            names.append(private_file or backups.latest(backups.PRIVATE))
        except StorageError as exc:
            raise CommandError(f"Aucune sauvegarde à restaurer : {exc}") from exc
        self.stdout.write("Restauration de :\n" + "\n".join(f"  {name}" for name in names))
        if interactive and input(f"La base « {database} » sera écrasée. Continuer ? [o/N] ").strip().lower() != "o":
            raise CommandError("Restauration annulée.")
        backups.restore(
            database=database, db_file=names[0], uploads_file=names[1], private_file=names[2], passphrase=passphrase
        )
        self.stdout.write(self.style.SUCCESS("Restauration terminée. Lancez `manage.py migrate` puis le site."))
