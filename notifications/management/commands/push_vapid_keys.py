"""`manage.py push_vapid_keys`: a new VAPID key pair for the environment (docs/decisions.md 53). Changing the pair
later makes every browser subscribe again (push services refuse a key the subscription was not made with)."""

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Print a new VAPID key pair as the WEBPUSH_VAPID_* environment variables."

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = _b64url(key.private_numbers().private_value.to_bytes(32, "big"))
        public = _b64url(
            key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        )
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}\nWEBPUSH_VAPID_PUBLIC_KEY={public}\n")
