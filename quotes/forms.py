"""The room-rental form, for the page that also works without JavaScript. Rules live in services/rentals.py."""

from django import forms
from django.utils import timezone

from .models import RentalEventType


class RentalForm(forms.Form):
    required_css_class = "required"

    name = forms.CharField(label="Nom", max_length=150)
    email = forms.EmailField(label="Email", max_length=254)
    phone = forms.CharField(
        label="Téléphone",
        max_length=20,
        widget=forms.TextInput(attrs={"inputmode": "tel", "autocomplete": "tel", "pattern": r"[0-9 .\-]{10,14}"}),
    )
    eventType = forms.ChoiceField(label="Type d'événement", choices=RentalEventType.choices)
    date = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    time = forms.TimeField(label="Heure", widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    message = forms.CharField(
        label="Message (facultatif)", widget=forms.Textarea(attrs={"rows": 4}), required=False, max_length=5000
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["date"].widget.attrs["min"] = timezone.localdate().isoformat()
