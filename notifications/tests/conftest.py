import pytest

from .push_service import PushService, vapid_key_pair


@pytest.fixture
def vapid(settings):
    private, public = vapid_key_pair()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    return public


@pytest.fixture
def push_service(vapid):
    service = PushService(vapid_public_key=vapid).start()
    yield service
    service.stop()
