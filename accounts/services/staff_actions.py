"""The log of what staff do on a client's behalf (docs/decisions.md 50), written by each app's service in the same
transaction as the action itself, so a line exists exactly when the action happened."""

from ..models import StaffAction, User


def staff_action_record(*, member: User, staff: User, action: str, summary: str) -> StaffAction:
    """One line of the client's history: `action` is a short code (`client_created`, `booked`, `cancelled`,
    `desk_sale`, …), `summary` the French sentence shown ("Cours réservé : Pole débutant, 12/12/2026 19:00")."""
    staff_name = staff.get_full_name().strip() or staff.email
    return StaffAction.objects.create(
        member=member, staff=staff, staff_name=staff_name[:300], action=action[:30], summary=summary[:300]
    )
