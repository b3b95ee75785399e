"""Issue 16 attacked again from outside (run: .venv/bin/python security/outside_attack.py); see __main__."""
