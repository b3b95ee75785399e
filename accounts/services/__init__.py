"""Account rules: registration, e-mail confirmation, login and its throttle, password reset, profile, roles.

The HTML pages and the API call these same functions, so each rule and its French message exist once. The rules
live in the submodules by domain (the refusals and their texts in `errors.py`); callers import each name from the
submodule that defines it.

Patch a function where it is looked up: in the module of the code under test (e.g. `accounts.services.authentication`).
"""
