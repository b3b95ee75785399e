"""JSON-LD and Open Graph for the base template.

`{{ data|json_ld }}` writes `<script type="application/ld+json">`: a data block that browsers never run (so the
content security policy, which allows no inline script, does not concern it), escaped as `json_script` escapes, so
no value can close the element. `{% studio_json_ld %}` is the studio as a DanceSchool; `{% share_image_meta %}`
the preview image of the page (`share_image` in the context, else the studio's)."""

import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from studio import structured_data

register = template.Library()


@register.filter
def json_ld(data) -> str:
    # The escapes of Django's json_script (nothing in the data can close the script element), as three replaces:
    # str.translate walks a long text with accents character by character (5 ms of /weekly's 17).
    text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False)
    text = text.replace(">", "\\u003E").replace("<", "\\u003C").replace("&", "\\u0026")
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(text))


@register.simple_tag(takes_context=True)
def studio_json_ld(context) -> str:
    request = context.get("request")  # a page rendered without its request cannot say absolute URLs
    return json_ld(structured_data.dance_school(request)) if request else ""


@register.simple_tag(takes_context=True)
def share_image_meta(context) -> str:
    request = context.get("request")
    if request is None:
        return ""
    image = context.get("share_image") or structured_data.share_image(request)
    parts = [format_html('<meta property="og:image" content="{}">', image["url"])]
    if image.get("type"):
        parts.append(format_html('<meta property="og:image:type" content="{}">', image["type"]))
    if image.get("width") and image.get("height"):
        parts.append(format_html('<meta property="og:image:width" content="{}">', image["width"]))
        parts.append(format_html('<meta property="og:image:height" content="{}">', image["height"]))
    parts.append(format_html('<meta property="og:image:alt" content="{}">', image["alt"]))
    parts.append(mark_safe('<meta name="twitter:card" content="summary_large_image">'))
    return mark_safe("\n  ".join(parts))
