import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings.production")
application = get_wsgi_application()
# The URLconf, and with it every view, imported now rather than on the first request: under gunicorn's preload_app
# (gunicorn.conf.py) once in the master, which opens no database or cache connection doing so.
get_resolver().url_patterns  # noqa: B018
