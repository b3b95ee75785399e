#!/usr/bin/env python
"""The security review's defects attacked again from outside: gunicorn, production settings, PostgreSQL, Redis.

Run:  .venv/bin/python security/outside_attack.py      (or: .venv/bin/python -m security.outside)
      (ATTACK_DB=studio_attack, ATTACK_REDIS_DB=5, ATTACK_WORKERS=2 by default; --keep-db skips the fresh database)

The attack itself lives in the package security/outside/: harness.py (server, seeding, clients, results), money.py
(defects 1, 2, 3, 7), accounts.py (4, 5, 9, 10), limits.py (6, 8), extra.py (attacks of our own), __main__.py (the
run; its docstring says what it does). Not collected by pytest (no test_ name).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from security.outside.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
