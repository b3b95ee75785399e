from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
# make dev (DEBUG): bundles and static files are re-read as they change. make run (DEBUG off): as in production,
# the collected static files, read once.
WEBPACK_LOADER["DEFAULT"]["CACHE"] = not DEBUG  # noqa: F405
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# E-mails are printed by the worker, readable (make run, make dev); MAIL_BACKEND overrides it.
MAILERS = {"default": {"BACKEND": env("MAIL_BACKEND", default="studio.mail_backends.ReadableConsoleBackend")}}
