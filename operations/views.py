"""Health checks for an uptime monitor or a load balancer (docs/operations.md, "Health checks and alerts").

- `GET /healthz`: the process answers. Nothing else is read (no database, no cache): a load balancer keeps sending
  requests to a process that answers, whatever the services behind it do.
- `GET /readyz`: the database, the cache, the scheduler's and the worker's signs of life, the outbox's oldest unsent
  mail and the last backup's age; 200 when all are well, 503 with `failing` naming the checks that are not. Ages
  and flags only, never a member's data; five queries whatever the site holds. It also raises or closes the admins'
  alerts (one more query when one changes), so a stopped scheduler is still noticed by the monitor's polling.
"""

import logging

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .alerts import alerts_update
from .checks import readiness

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def readyz(request):
    state = readiness()
    try:
        alerts_update(state)
    except Exception:  # noqa: BLE001 - the monitor still gets its answer; the scheduler's tick tries again
        logger.exception("Readiness: the alerts could not be updated")
    failing = state.failing
    response = JsonResponse(
        {"status": "failing" if failing else "ok", "failing": failing, "checks": state.checks},
        status=503 if failing else 200,
    )
    # A 503 here is the answer the monitor asked for, not a page's error: Django would log it as one every 30 s, and
    # the error reports (mail or Sentry) would carry it. The alerts say what is wrong instead.
    response._has_been_logged = True
    return response
