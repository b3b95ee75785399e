"""What quotes announce to the apps above them (payments), which it does not import."""

from django.dispatch import Signal

# Sent after the commit when a request whose deposit was paid is refused or cancelled, with `sender` the concrete
# request model and `request_id`: payments refunds the deposit (in a task).
quoted_request_closed = Signal()
