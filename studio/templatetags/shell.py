"""The page shell's parts that are the same on every page, or on many, built once rather than at every
page."""

import copy
import re

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.template.loader_tags import BlockNode
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

# (template, year) -> HTML, for this process and the studio's settings as they are.
_fixed: dict[tuple, str] = {}
# The header's HTML split where the CSRF token goes, by (template, the values it shows): see `header_part`.
_headers: dict[tuple, tuple[str, ...]] = {}
HEADERS_KEPT = 1000  # a few per member (the page's place in the menu, the unread count): emptied when full

# The settings' STUDIO the parts were rendered with, and a copy to notice a change made in place.
_studio_seen: list = [None, None]


def forget_fixed_parts() -> None:
    _fixed.clear()
    _headers.clear()
    _shapes.clear()
    _studio_seen[:] = [None, None]


@receiver(setting_changed)
def _settings_changed(**kwargs) -> None:
    forget_fixed_parts()


def _same_studio() -> None:
    """Forget every part rendered with other settings (override_settings, a change in place)."""
    studio = settings.STUDIO
    if studio is not _studio_seen[0] or studio != _studio_seen[1]:
        forget_fixed_parts()
        _studio_seen[:] = [studio, copy.deepcopy(studio)]


@register.simple_tag
def fixed_part(template_name: str):
    """`{% include template_name %}` for a part that shows only the studio's settings (STUDIO) and the year (the
    footer, the cookie banner): rendered once per process, year and settings instead of at every page."""
    _same_studio()
    key = (template_name, timezone.localdate().year)
    html = _fixed.get(key)
    if html is None:
        html = _fixed[key] = mark_safe(render_to_string(template_name, {"STUDIO": settings.STUDIO}))
    return html


class FixedNode(template.Node):
    def __init__(self, nodelist):
        self.nodelist = nodelist

    def render(self, context):
        _same_studio()
        key = (self, context.autoescape)
        html = _fixed.get(key)
        if html is None:
            html = _fixed[key] = self.nodelist.render(context.new({"STUDIO": settings.STUDIO}))
        return html


@register.tag
def fixed(parser, token):
    """`{% fixed %}...{% endfixed %}`: HTML that shows only the static files' addresses and the studio's settings
    (STUDIO, the only value it sees), rendered once per process and settings: the shell's stylesheet and icon links
    (~10 µs a page for their three `{% static %}`). Not for anything dated: the footer's year is `fixed_part`'s."""
    nodelist = parser.parse(("endfixed",))
    parser.delete_first_token()
    return FixedNode(nodelist)


# The header's CSRF token while it is rendered for the cache; replaced by the page's own token at each page.
_TOKEN_HOLE = "csrfhole" + get_random_string(32)
_NAV_PATH = re.compile(r"""request\.path\s*==\s*["']([^"']*)["']""")
_shapes: dict = {}  # header template -> (the addresses its menu compares `request.path` with, its account_badge block)


def _shape(header) -> tuple[frozenset, BlockNode | None]:
    kept = _shapes.get(header)
    if kept is None:
        blocks = [node for node in header.nodelist.get_nodes_by_type(BlockNode) if node.name == "account_badge"]
        kept = _shapes[header] = (frozenset(_NAV_PATH.findall(header.source)), blocks[0] if blocks else None)
    return kept


@register.simple_tag(takes_context=True)
def header_part(context, template_name: str):
    """`{% include template_name %}` for the site's header (templates/includes/header.html), rendered once per
    distinct set of what it shows and kept for this process: the studio's settings, which menu entry is the current
    page (`request.path` compared with each entry's address), whether the dashboard entry shows (`is_studio_staff`),
    and for a logged-in user their first name, instructor role and unread badge (the `account_badge` block, rendered
    at each page). The logout form's CSRF token is the page's own, put in at each page (and only read when the
    header shows the form, as `{% csrf_token %}` does). Anything else than the shell's usual context (a view's own
    `user`, `request` or `STUDIO`, no CSRF token) renders the plain include.

    studio/tests/test_shared_cost_header.py holds the header's variables to this list: a new one must join the key.
    """
    header = context.template.engine.get_template(template_name)
    request = context.get("request")
    user = context.get("user")
    studio = context.get("STUDIO")
    if request is None or user is None or user is not getattr(request, "user", None) or studio is not settings.STUDIO:
        return _plain(header, context)
    _same_studio()
    nav_paths, badge_block = _shape(header)
    path = request.path
    if user.is_authenticated:
        if badge_block is not None:
            with context.push(block=badge_block):
                badge = badge_block.nodelist.render(context)
        else:
            badge = None
        account = (True, getattr(user, "first_name", None), bool(getattr(user, "is_instructor", False)), badge)
    else:
        account = (False,)
    current = path if path in nav_paths else None  # any other address marks no entry: one header for them all
    key = (header, context.autoescape, current, bool(context.get("is_studio_staff")), account)
    parts = _headers.get(key)
    if parts is None:
        with context.push(csrf_token=_TOKEN_HOLE):
            html = _plain(header, context)
        parts = tuple(html.split(_TOKEN_HOLE))
        if len(_headers) >= HEADERS_KEPT:
            _headers.clear()
        _headers[key] = parts
    if len(parts) == 1:
        return mark_safe(parts[0])
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return _plain(header, context)
    return mark_safe(conditional_escape(token).join(parts))


def _plain(header, context) -> str:
    """What `{% include %}` writes."""
    return header.render(context)
