"""What every account page shares."""

from django.shortcuts import render


def page(request, template, title, context, status=200, description=""):
    return render(
        request,
        template,
        {"page_title": title, "page_description": description, **context},
        status=status,
    )
