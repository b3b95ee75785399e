"""The background processes' signs of life. One row per process, overwritten: nothing grows."""

from django.utils import timezone

from .models import Heartbeat


def heartbeat_record(name: str, *, now=None) -> None:
    now = now or timezone.now()
    if not Heartbeat.objects.filter(name=name).update(beat_at=now):
        Heartbeat.objects.get_or_create(name=name, defaults={"beat_at": now})
