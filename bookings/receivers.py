"""Receivers of the bookings app: a reservation's change refreshes the cached feeds of its session's weeks; a pass's
or reminder switches' change, its member's cached profile page (accounts/views.py, studio.auth_cache)."""

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from courses.models import CourseSession
from studio.auth_cache import bump_member_data

from .cache import bump_session_feeds
from .models import BookingPreferences, Pass, Reservation


def _session_of(reservation):
    if Reservation.session.is_cached(reservation):
        return reservation.session
    return CourseSession.objects.filter(pk=reservation.session_id).only("start", "end").first()


@receiver(post_save, sender=Reservation, dispatch_uid="bookings-feed-reservation-saved")
@receiver(post_delete, sender=Reservation, dispatch_uid="bookings-feed-reservation-deleted")
def reservation_changed(sender, instance, **kwargs):
    session = _session_of(instance)
    if session is None:
        return
    bump_session_feeds(session)
    # Again once the change is committed: a feed rebuilt meanwhile, from the data before it, is not kept.
    transaction.on_commit(lambda: bump_session_feeds(session))


@receiver(post_save, sender=Pass, dispatch_uid="bookings-member-pass-saved")
@receiver(post_delete, sender=Pass, dispatch_uid="bookings-member-pass-deleted")
def pass_changed(sender, instance, **kwargs):
    bump_member_data(instance.member_id)


@receiver(post_save, sender=BookingPreferences, dispatch_uid="bookings-member-preferences-saved")
@receiver(post_delete, sender=BookingPreferences, dispatch_uid="bookings-member-preferences-deleted")
def preferences_changed(sender, instance, **kwargs):
    bump_member_data(instance.user_id)
