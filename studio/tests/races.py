"""Race helpers shared by the apps' concurrency tests: run calls at the same moment, each in its own thread and
database connection. It lives in the shared core's tests so that any app's tests may import it."""

import threading

from django.db import connection

from studio.errors import ApplicationError

# Bounds on a race, so that a call that never returns fails the test instead of holding the whole run.
START_TIMEOUT_S = 20
FINISH_TIMEOUT_S = 60


def outcomes(*calls):
    """Run the calls at once, each in its own thread and connection: what each returned, or the exception it raised
    (a refusal is an outcome too), one per call, in the order they finished."""
    barrier = threading.Barrier(len(calls), timeout=START_TIMEOUT_S)
    found = []

    def run(call):
        try:
            barrier.wait()
            found.append(call())
        except Exception as exc:  # noqa: BLE001 - an outcome, sorted by the caller
            found.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=FINISH_TIMEOUT_S)
    stuck = sum(thread.is_alive() for thread in threads)
    assert not stuck, f"{stuck} of {len(threads)} calls still running after {FINISH_TIMEOUT_S} s"
    return found


def race(*calls):
    """Run the calls at once: (results, refusals, crashes), a refusal being the ApplicationError a call raised (its
    French message in `.message`), a crash anything else raised, as text."""
    results, refusals, crashes = [], [], []
    for outcome in outcomes(*calls):
        if isinstance(outcome, ApplicationError):
            refusals.append(outcome)
        elif isinstance(outcome, Exception):
            crashes.append(repr(outcome))
        else:
            results.append(outcome)
    return results, refusals, crashes


def run_together(*calls):
    """Run the calls at once; what each raised, as text, for the test to assert on (an empty list: none raised)."""
    _, refusals, crashes = race(*calls)
    return [repr(refusal) for refusal in refusals] + crashes
