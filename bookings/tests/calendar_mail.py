"""Reading the iCalendar files of a sent mail as a mail client does, from the MIME message itself."""

from email import message_from_bytes, policy


def calendar_parts(mail) -> list[tuple[str, str | None, str]]:
    """The text/calendar parts of a sent mail: (content type, its `method` parameter, the text), in order."""
    parsed = message_from_bytes(mail.message().as_bytes(), policy=policy.default)
    return [
        (part.get_content_type(), part.get_param("method"), part.get_content())
        for part in parsed.walk()
        if part.get_content_type() == "text/calendar"
    ]


def calendar_filenames(mail) -> list[str]:
    parsed = message_from_bytes(mail.message().as_bytes(), policy=policy.default)
    return [part.get_filename() for part in parsed.walk() if part.get_content_type() == "text/calendar"]
