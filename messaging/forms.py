"""Plain HTML forms for the pages that also work without JavaScript. Rules live in services.py."""

from django import forms
from django.utils import timezone

from .models import RentalEventType


class ContactForm(forms.Form):
    required_css_class = "required"

    name = forms.CharField(label="Nom", max_length=150)
    email = forms.EmailField(label="Email", max_length=254)
    phone = forms.CharField(label="Téléphone", max_length=30, required=False)
    subject = forms.CharField(label="Sujet", max_length=200, required=False)
    message = forms.CharField(label="Message", widget=forms.Textarea(attrs={"rows": 6}), max_length=5000)
    followUp = forms.BooleanField(label="Je souhaite être recontacté(e)", required=False)
    user_id = forms.IntegerField(required=False, widget=forms.HiddenInput)


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
