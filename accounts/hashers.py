"""Password hashing parameters.

Argon2id with OWASP's first recommended configuration (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1): a
memory-hard hash that costs an attacker's GPU far more per guess than PBKDF2-SHA256 at 1,500,000 iterations, and
costs the server ~40 ms per login on one core instead of ~380 ms. Hashes made with other parameters or hashers are
upgraded when their owner next logs in (Django's `must_update`).
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class StudioArgon2PasswordHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
