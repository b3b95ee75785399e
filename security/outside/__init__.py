"""The security review's defects attacked again from outside (run: .venv/bin/python security/outside_attack.py);
__main__ lists them."""
