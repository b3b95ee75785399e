"""Plain HTML forms for the pages that also work without JavaScript. Rules live in services.py."""

from django import forms


class ContactForm(forms.Form):
    required_css_class = "required"

    name = forms.CharField(label="Nom", max_length=150)
    email = forms.EmailField(label="Email", max_length=254)
    phone = forms.CharField(label="Téléphone", max_length=30, required=False)
    subject = forms.CharField(label="Sujet", max_length=200, required=False)
    message = forms.CharField(label="Message", widget=forms.Textarea(attrs={"rows": 6}), max_length=5000)
    followUp = forms.BooleanField(label="Je souhaite être recontacté(e)", required=False)
    user_id = forms.IntegerField(required=False, widget=forms.HiddenInput)
