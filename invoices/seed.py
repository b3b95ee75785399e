"""Demo data (`make seed`): the seeded completed payments get their invoices, as real ones would at capture."""

from .services import invoices_issue_missing


def run(*, stdout=None) -> None:
    done = invoices_issue_missing()
    if stdout is not None:
        stdout.write(f"Factures de démonstration : {done['invoices']} émises, {done['credit_notes']} avoirs.")
