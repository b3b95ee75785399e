"""Providers: a higher app offers a function to lower ones without being imported by them
(docs/architecture.md, "Apps and layers").

The higher app provides it from its AppConfig.ready() (`provide("payment_client_config", fn)`); a lower one asks for
it by name (`provided("payment_client_config", default=...)`) and gets the default when no app provides it.
"""

from collections.abc import Callable
from typing import Any

_PROVIDERS: dict[str, Callable[[], Any]] = {}


def provide(name: str, function: Callable[[], Any]) -> None:
    _PROVIDERS[name] = function


def provided(name: str, default: Any = None) -> Any:
    function = _PROVIDERS.get(name)
    return function() if function is not None else default
