"""Payment writes, split by what they do (create, capture, refunds, webhooks, receipts, staff edits).

Callers and the submodules import each name from the module that defines it. The lock order and the capture invariant
are documented in `capture.py`."""
