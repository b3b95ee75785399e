"""Contact-message APIs (docs/decisions.md 21). Thin: parse, call a service, shape.

An invalid payload answers 400 with the form's French message (`MSG_CONTACT_FAILED`, `MSG_REPLY_BLANK`) and the
messages per field; a refused write is a `MessagingError` answered by the shared exception handler (404 for a message
that does not exist): no view catches it.

Split by domain: `serializers` (inputs and answers), `common` (what the views share), `contact` and
`conversations` (the views).
"""
