"""On PostgreSQL (real row locks): reduced-rate proofs sent all at once still stop at the hourly limit, and two
schedulers deleting unattached proofs at the same moment delete each once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from media_library.tests.files import png
from payments.services.reduced_rate import ReducedRateError, reduced_proof_upload, reduced_proofs_unattached_delete
from payments.subscriptions.models import ReducedRateProof

from .test_concurrency import _race_all

pytestmark = pytest.mark.postgres


def test_proofs_sent_at_once_stop_at_the_hourly_limit(member, settings):
    settings.REDUCED_PROOFS_PER_HOUR = 3
    results = _race_all([lambda: reduced_proof_upload(user=member, upload=png("carte.png")) for _ in range(6)])
    refused = [r for r in results if isinstance(r, ReducedRateError)]
    assert len(refused) == 3 and {r.code for r in refused} == {"proof_too_many"}
    assert ReducedRateProof.objects.filter(member=member).count() == 3


def test_two_schedulers_delete_each_unattached_proof_once(member, settings):
    settings.REDUCED_PROOFS_PER_HOUR = None
    for _ in range(4):
        reduced_proof_upload(user=member, upload=png("carte.png"))
    ReducedRateProof.objects.update(uploaded_at=timezone.now() - timedelta(days=2))
    results = _race_all([reduced_proofs_unattached_delete, reduced_proofs_unattached_delete])
    assert sorted(results) in ([0, 4], [1, 3], [2, 2]) and sum(results) == 4
    assert not ReducedRateProof.objects.exists()
