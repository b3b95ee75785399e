from io import StringIO

from django.core.management import call_command
from py_vapid import Vapid

from .push_service import unb64url


def test_the_command_prints_a_key_pair_pywebpush_signs_with():
    out = StringIO()
    call_command("push_vapid_keys", stdout=out)
    values = dict(line.split("=", 1) for line in out.getvalue().split())
    vapid = Vapid.from_string(private_key=values["WEBPUSH_VAPID_PRIVATE_KEY"])
    assert vapid.public_key.public_numbers().x.to_bytes(32, "big") == unb64url(values["WEBPUSH_VAPID_PUBLIC_KEY"])[1:33]
