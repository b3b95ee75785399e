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

    # A company to invoice (docs/decisions.md 54), optional; the service checks the SIREN's key and the VAT number.
    company_name = forms.CharField(
        label="Nom de la société",
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "organization"}),
    )
    company_siren = forms.CharField(
        label="SIREN",
        max_length=11,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    company_vat_number = forms.CharField(
        label="N° de TVA intracommunautaire",
        max_length=30,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    company_address = forms.CharField(
        label="Adresse de facturation",
        max_length=300,
        required=False,
        widget=forms.Textarea(attrs={"autocomplete": "street-address", "rows": 2}),
    )

    COMPANY_FIELDS = ("company_name", "company_siren", "company_vat_number", "company_address")

    def company(self) -> dict:
        return {field: self.cleaned_data[field] for field in self.COMPANY_FIELDS if self.cleaned_data.get(field)}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["date"].widget.attrs["min"] = timezone.localdate().isoformat()
