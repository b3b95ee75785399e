"""axe-core on the pages of a member's requests: 'Mes demandes', a quoted request with its deposit widget, the staff's
request dialog, and /user/messages writing a new message: no serious or critical violation."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from quotes.models import PartyReservation
from quotes.services import parties
from studio.tests.test_accessibility_e2e import _open, axe_page, serious_violations  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_request_pages_have_no_serious_violations(axe_page, live_server, member, staff):  # noqa: F811
    party = PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=20),
        time=time(15, 0),
        participants=8,
        email=member.email,
    )
    parties.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=2, deposit=Decimal("50"))
    problems = {}
    for path in ["/user/requests", f"/user/requests/evjf/{party.pk}"]:
        page = _open(axe_page, live_server, path, user=member)
        page.set_viewport_size({"width": 390, "height": 844})
        if path.endswith(str(party.pk)):
            page.get_by_role("button", name="Payer 50,00 €").wait_for()
        problems[path] = serious_violations(page)
        page.close()

    page = _open(axe_page, live_server, "/user/messages", user=member)
    page.get_by_role("button", name="Nouveau message").click()
    page.get_by_label("Sujet").wait_for()
    problems["new message"] = serious_violations(page)
    page.close()

    page = _open(axe_page, live_server, "/admin/parties", user=staff)
    page.get_by_role("button", name=f"Gérer la demande {party.pk}").click()
    page.locator("dialog[open]").first.wait_for(state="visible")
    problems["staff request dialog"] = serious_violations(page)
    page.close()
    assert {k: v for k, v in problems.items() if v} == {}
