"""A console mail backend a person can read (make run, make dev): the headers decoded, the text part, the names of
the attachments, instead of the raw MIME message."""

import sys
import threading

from django.core.mail.backends.base import BaseEmailBackend

RULE = "-" * 79


class ReadableConsoleBackend(BaseEmailBackend):
    def __init__(self, *args, stream=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.stream = stream or sys.stdout
        self._lock = threading.RLock()

    def send_messages(self, email_messages):
        with self._lock:
            for message in email_messages:
                lines = [
                    RULE,
                    f"De : {message.from_email}",
                    f"À : {', '.join(message.to)}",
                    *([f"Répondre à : {', '.join(message.reply_to)}"] if message.reply_to else []),
                    f"Objet : {message.subject}",
                    "",
                    message.body.rstrip(),
                ]
                names = [a[0] if isinstance(a, tuple) else a.get_filename() for a in message.attachments]
                if names:
                    lines += ["", f"Pièces jointes : {', '.join(str(n) for n in names)}"]
                self.stream.write("\n".join(lines) + "\n" + RULE + "\n")
            self.stream.flush()
        return len(email_messages)
