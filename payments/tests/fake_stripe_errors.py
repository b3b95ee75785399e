"""Ids and error bodies as Stripe shapes them, shared by the fake's modules."""

import secrets


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def error(status: int, type_: str, message: str, *, code: str = "", param: str = "", **extra):
    body = {"type": type_, "message": message}
    if code:
        body["code"] = code
    if param:
        body["param"] = param
    body.update(extra)
    return status, {"error": body}


def missing(kind: str, object_id: str, param: str = "id"):
    return error(404, "invalid_request_error", f"No such {kind}: '{object_id}'", code="resource_missing", param=param)
