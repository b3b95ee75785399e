"""The gift cards as a CSV for the accounts: each text cell neutralised so that no spreadsheet reads it as a formula
(studio/spreadsheets.py)."""

from studio.spreadsheets import CellType, Column, table_csv

from .models import GiftCard, GiftCardStatus

GIFT_CARD_COLUMNS = (
    Column("Code", CellType.CODE),
    Column("Type"),
    Column("Tarif"),
    Column("Montant initial", CellType.MONEY),
    Column("Solde", CellType.MONEY),
    Column("Statut"),
    Column("Achetée le", CellType.DATE),
    Column("Valable jusqu'au", CellType.DATE),
    Column("Acheteur"),
    Column("E-mail de l'acheteur"),
    Column("Bénéficiaire"),
    Column("E-mail du bénéficiaire"),
    Column("Envoi le", CellType.DATE),
    Column("Envoyée le", CellType.DATE),
)


def gift_cards_csv() -> str:
    cards = (
        GiftCard.objects.exclude(status=GiftCardStatus.PENDING).select_related("tariff").order_by("purchased_at", "id")
    )
    rows = (
        (
            card.code,
            card.get_kind_display(),
            card.tariff.title if card.tariff_id else "",
            card.initial_amount,
            card.balance,
            card.get_status_display(),
            card.purchased_at,
            card.expires_on,
            card.buyer_name,
            card.buyer_email,
            card.recipient_name,
            card.recipient_email,
            card.send_on,
            card.sent_at,
        )
        for card in cards.iterator(chunk_size=500)
    )
    return table_csv(GIFT_CARD_COLUMNS, rows)
