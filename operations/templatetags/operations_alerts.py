"""The staff dashboard's banner of open alerts (templates/dashboard/dashboard.html loads it by name: the core's
template names this app, its code never imports it)."""

from django import template

from operations.alerts import open_alerts

register = template.Library()


@register.inclusion_tag("operations/alerts_banner.html")
def operations_alerts_banner():
    return {"alerts": open_alerts()}
