from payments.tests.conftest import fake_paypal, make_reservation, paypal_settings  # noqa: F401 - shared fixtures
