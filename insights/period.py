"""A period of whole Paris days, the previous period of the same length, and the chart's bucket."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

PARIS = ZoneInfo("Europe/Paris")
# Up to about a quarter the money is drawn week by week, beyond it month by month.
WEEKLY_UP_TO_DAYS = 92


def paris_midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=PARIS)


@dataclass(frozen=True)
class Period:
    """From `first_day` to `last_day` included, in Europe/Paris."""

    first_day: date
    last_day: date

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    @property
    def start(self) -> datetime:
        return paris_midnight(self.first_day)

    @property
    def end(self) -> datetime:
        """The first instant after the period (Paris midnight after `last_day`)."""
        return paris_midnight(self.last_day + timedelta(days=1))

    def previous(self) -> "Period":
        """The same number of days, ending the day before this period starts."""
        last = self.first_day - timedelta(days=1)
        return Period(first_day=last - timedelta(days=self.days - 1), last_day=last)

    @property
    def bucket(self) -> str:
        return "week" if self.days <= WEEKLY_UP_TO_DAYS else "month"

    def bucket_starts(self) -> list[date]:
        """Every week's Monday, or every month's first day, that the period touches, in order."""
        if self.bucket == "week":
            day = self.first_day - timedelta(days=self.first_day.weekday())
            starts = []
            while day <= self.last_day:
                starts.append(day)
                day += timedelta(days=7)
            return starts
        day = self.first_day.replace(day=1)
        starts = []
        while day <= self.last_day:
            starts.append(day)
            day = (day.replace(day=28) + timedelta(days=4)).replace(day=1)
        return starts
