from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
WEBPACK_LOADER["DEFAULT"]["CACHE"] = False  # noqa: F405
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# E-mails are printed by the worker, readable (make run, make dev); MAIL_BACKEND overrides it.
MAILERS = {"default": {"BACKEND": env("MAIL_BACKEND", default="studio.mail_backends.ReadableConsoleBackend")}}
