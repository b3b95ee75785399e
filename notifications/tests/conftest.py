import pytest

from .push_service import running_push_service


@pytest.fixture
def push_service(settings):
    with running_push_service(settings) as service:
        yield service


@pytest.fixture
def vapid(push_service):
    return push_service.vapid_public_key
