"""Run by `make bench` inside `manage.py shell` of the measured checkout, after the class opening: what the database
says of the 12-place class, to hold against what the members were told. Reads BENCH_CHECK (JSON: session, the
[reservation id, order id] pairs the clients saw captured); prints one JSON line.
"""

import json
import os
from collections import Counter

from django.db.models import Sum

from bookings.models import Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry
from courses.models import CourseSession
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder

ARGS = json.loads(os.environ["BENCH_CHECK"])
session = CourseSession.objects.get(pk=ARGS["session"])
reservations = Reservation.objects.filter(session=session)
confirmed = reservations.filter(status=ReservationStatus.CONFIRMED)
confirmed_ids = set(confirmed.values_list("pk", flat=True))
completed = list(
    PaymentOrder.objects.filter(reservation__session=session, status=PaymentStatus.COMPLETED).values_list(
        "reservation_id", "order_id", "capture_id"
    )
)
paid = Counter(reservation_id for reservation_id, _order, _capture in completed)
simulated = Counter(
    SimulatedProviderOrder.objects.filter(
        order_id__in=[order for _r, order, _c in completed], status="COMPLETED"
    ).values_list("order_id", flat=True)
)
seen = {tuple(pair) for pair in ARGS["seen_captured"]}
print(
    json.dumps(
        {
            "places": session.max_attendees,
            "seats_confirmed": confirmed.aggregate(n=Sum("participants"))["n"] or 0,
            "reservations_confirmed": len(confirmed_ids),
            "holds_left": reservations.filter(status=ReservationStatus.HELD).count(),
            "completed_orders": len(completed),
            "confirmed_paid_once": sum(1 for r in confirmed_ids if paid[r] == 1),
            "confirmed_unpaid": sorted(r for r in confirmed_ids if paid[r] == 0),
            "paid_twice": sorted(r for r, n in paid.items() if n > 1),
            "paid_not_confirmed": sorted(r for r in paid if r not in confirmed_ids),
            "orders_without_capture": sorted(o for _r, o, c in completed if not c),
            "provider_not_captured": sorted(o for _r, o, _c in completed if simulated[o] != 1),
            "seen_not_in_database": sorted(
                list(pair) for pair in seen if pair not in {(r, o) for r, o, _c in completed}
            ),
            "waitlist_entries": WaitlistEntry.objects.filter(session=session).count(),
        }
    )
)
