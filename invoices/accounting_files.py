"""The accountant's files for a period (docs/decisions.md 54), both from `accounting.accounting_lines`:

- the journal, CSV as every export of the site (docs/decisions.md 39: UTF-8 with a byte-order mark, `;`, decimal
  comma, DD/MM/YYYY; studio/spreadsheets.py), which a spreadsheet opens as numbers and dates;
- the FEC ("fichier des écritures comptables", art. A47 A-1 du Livre des procédures fiscales): its 18 columns in
  their order, tab-separated, a header line, dates AAAAMMJJ, amounts with a decimal comma, no thousands separator;
  UTF-8. Named `<SIREN>FEC<AAAAMMJJ>.txt`, the date the period's last day."""

import re
from datetime import date

from django.conf import settings

from studio.spreadsheets import CellType, Column, neutralise, table_csv

from .accounting import accounting_lines

JOURNAL_COLUMNS = (
    Column("Journal"),
    Column("N° d'écriture"),
    Column("Date", CellType.DATE),
    Column("Compte", CellType.CODE),
    Column("Intitulé du compte"),
    Column("Compte client", CellType.CODE),
    Column("Client"),
    Column("Pièce"),
    Column("Libellé"),
    Column("Débit (€)", CellType.MONEY),
    Column("Crédit (€)", CellType.MONEY),
)
FEC_COLUMNS = (
    "JournalCode",
    "JournalLib",
    "EcritureNum",
    "EcritureDate",
    "CompteNum",
    "CompteLib",
    "CompAuxNum",
    "CompAuxLib",
    "PieceRef",
    "PieceDate",
    "EcritureLib",
    "Debit",
    "Credit",
    "EcritureLet",
    "DateLet",
    "ValidDate",
    "Montantdevise",
    "Idevise",
)
_FEC_UNSAFE = re.compile(r"[\t\r\n|]")


def _lines(start: date, end: date):
    return (line for line in accounting_lines(start=start, end=end) if line.debit or line.credit)


def journal_csv(*, start: date, end: date) -> tuple[str, str]:
    """(file name, CSV text)."""
    rows = (
        [
            line.journal[1],
            line.number,
            line.day,
            line.account[0],
            line.account[1],
            line.auxiliary[0],
            line.auxiliary[1],
            line.document,
            line.label,
            line.debit,
            line.credit,
        ]
        for line in _lines(start, end)
    )
    return f"journal-{start:%Y%m%d}-{end:%Y%m%d}.csv", table_csv(JOURNAL_COLUMNS, rows)


def _fec_text(value: str) -> str:
    # Accountants open the FEC in a spreadsheet too: a label never starts a formula (a company named "=1+1").
    return neutralise(_FEC_UNSAFE.sub(" ", value or ""))


def _fec_amount(amount) -> str:
    return f"{amount:.2f}".replace(".", ",")


def fec_file(*, start: date, end: date) -> tuple[str, str]:
    """(file name, FEC text)."""
    out = ["\t".join(FEC_COLUMNS)]
    for line in _lines(start, end):
        out.append(
            "\t".join(
                [
                    line.journal[0],
                    _fec_text(line.journal[1]),
                    line.number,
                    f"{line.day:%Y%m%d}",
                    line.account[0],
                    _fec_text(line.account[1]),
                    line.auxiliary[0],
                    _fec_text(line.auxiliary[1]),
                    line.document,
                    f"{line.document_day:%Y%m%d}",
                    _fec_text(line.label),
                    _fec_amount(line.debit),
                    _fec_amount(line.credit),
                    "",
                    "",
                    f"{line.day:%Y%m%d}",
                    "",
                    "",
                ]
            )
        )
    siren = re.sub(r"\D", "", settings.INVOICE_LEGAL["siret"])[:9]
    return f"{siren}FEC{end:%Y%m%d}.txt", "\r\n".join(out) + "\r\n"
