"""One selector per block of the owner's view, each a fixed number of queries whatever the data."""

from .classes import class_stats
from .members import member_stats
from .money import money_stats
from .upcoming import upcoming_stats

__all__ = ["class_stats", "member_stats", "money_stats", "upcoming_stats"]
