"""The offers' demo data (`manage.py seed_demo`), idempotent."""

from .gift_card_seed import gift_cards_seed
from .promo_seed import promo_seed


def run(*, stdout=None):
    gift_cards_seed(stdout=stdout)
    promo_seed(stdout=stdout)
