"""One error contract for every domain.

A service refuses an action by raising an `ApplicationError` (or its domain's subclass): the French message shown to
the person, a stable `code` a client can branch on, the HTTP `status` an API answers, and the `field` at fault when
there is one. `studio.api.exception_handler` turns it into the body the islands read:

    {"error": message, "message": message, "code": code, "errors": {field: [message]}, ...extra}

so no API view catches a domain error by hand, and no status is chosen by comparing message strings.

Each domain keeps its French texts as `MSG_*` constants (tests import them) and may list them in its error class's
`messages` table keyed by code, so `raise ReservationError.of("session_full")` reads the text from one place.
"""

from typing import Any, ClassVar

BAD_REQUEST = 400
FORBIDDEN = 403
NOT_FOUND = 404
CONFLICT = 409
TOO_MANY_REQUESTS = 429
BAD_GATEWAY = 502
SERVICE_UNAVAILABLE = 503


class ApplicationError(Exception):
    """A refused action: a French `message`, a `code`, the HTTP `status` to answer, and the `field` at fault.

    `extra` keys are added to the error body as they are (e.g. `resendUrl`); `retry_after` (seconds), on a refusal
    that time lifts (a limit per hour), is answered as the Retry-After header."""

    status: ClassVar[int] = BAD_REQUEST
    default_code: ClassVar[str] = "invalid"
    # code → French text (may hold `{placeholders}` filled by `of(**params)`); code → status when not the default.
    messages: ClassVar[dict[str, str]] = {}
    statuses: ClassVar[dict[str, int]] = {}
    retry_after: int | None = None

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        field: str | None = None,
        extra: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.status = status or self.statuses.get(self.code) or type(self).status
        self.field = field
        self.extra = dict(extra or {})
        self.retry_after = retry_after

    @classmethod
    def of(cls, code: str, *, field: str | None = None, status: int | None = None, **params) -> "ApplicationError":
        """The error named `code` in this class's table, its message filled with `params`."""
        text = cls.messages[code]
        return cls(text.format(**params) if params else text, code=code, field=field, status=status)

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"error": self.message, "message": self.message, "code": self.code}
        if self.field:
            data["errors"] = {self.field: [self.message]}
        data.update(self.extra)
        return data

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r}, status={self.status})"
