"""Payment writes, split by what they do (create, capture, refunds, webhooks, receipts, staff edits).

Callers and the submodules import each name from the module that defines it, except fulfilment's and the simulator
approval's, which `capture.py` gives with its own (fulfilment.py, simulator_approval.py). The lock order and the
capture invariant are documented in `capture.py`."""
