"""Run the due jobs of subscriptions "as of" a day, to try billing by period without waiting."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from ...subscriptions.services.lifecycle import subscription_charges_run


class Command(BaseCommand):
    help = "Prélève les échéances d'abonnement dues à la date donnée (par défaut aujourd'hui)."

    def add_arguments(self, parser):
        parser.add_argument("--as-of", dest="as_of", help="Date AAAA-MM-JJ (défaut : aujourd'hui).")

    def handle(self, *args, as_of=None, **options):
        day = None
        if as_of:
            try:
                day = date.fromisoformat(as_of)
            except ValueError as exc:
                raise CommandError("Date invalide : utilisez le format AAAA-MM-JJ.") from exc
        outcome = subscription_charges_run(as_of=day)
        self.stdout.write(
            f"Échéances payées : {outcome['paid']}, refusées : {outcome['failed']}, "
            f"prélèvements SEPA envoyés : {outcome['processing']}, "
            f"ignorées : {outcome['skipped']}, abonnements terminés : {outcome['ended']}, "
            f"invitations à renouveler : {outcome['invited']}."
        )
