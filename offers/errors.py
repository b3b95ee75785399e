"""The offers' refusals in French (studio/errors.py's contract)."""

from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

MSG_GIFT_CARD_NOT_FOUND = "Ce code de carte cadeau n'existe pas."
MSG_GIFT_CARD_INACTIVE = "Cette carte cadeau n'est pas utilisable."
MSG_GIFT_CARD_EXPIRED = "Cette carte cadeau a expiré."
MSG_GIFT_CARD_BALANCE = "Le solde de la carte cadeau ne suffit pas : il reste {balance}."
MSG_GIFT_CARD_AMOUNT = "Le montant d'un mouvement de carte cadeau ne peut pas être nul."


class GiftCardError(ApplicationError):
    default_code = "gift_card_invalid"
    messages = {
        "gift_card_not_found": MSG_GIFT_CARD_NOT_FOUND,
        "gift_card_inactive": MSG_GIFT_CARD_INACTIVE,
        "gift_card_expired": MSG_GIFT_CARD_EXPIRED,
        "gift_card_balance": MSG_GIFT_CARD_BALANCE,
        "gift_card_amount": MSG_GIFT_CARD_AMOUNT,
    }
    statuses = {"gift_card_not_found": NOT_FOUND, "gift_card_balance": CONFLICT}
