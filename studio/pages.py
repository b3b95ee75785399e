"""A small helper for pages that are a template and a title."""

from django.shortcuts import render


def simple_page(template_name: str, title: str, description: str = "", **context):
    def view(request, *args, **kwargs):
        return render(
            request,
            template_name,
            {"page_title": title, "page_description": description, **context, **kwargs},
        )

    view.__name__ = template_name.replace("/", "_").replace(".html", "")
    return view
