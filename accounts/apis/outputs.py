"""What the account APIs answer: a serializer for every body, so the OpenAPI schema says what each field
is and whether it may be null."""

from rest_framework import serializers

from .. import selectors
from ..models import Role, User
from ..services.staff import user_can_edit


class MessageOutput(serializers.Serializer):
    message = serializers.CharField()


class LoginOutput(serializers.Serializer):
    userId = serializers.IntegerField()
    role = serializers.ChoiceField(choices=Role.choices)
    token = serializers.CharField(help_text="Jeton d'accès (Bearer), 5 minutes.")
    refresh = serializers.CharField(help_text="Jeton de rafraîchissement, à envoyer à /api/users/token/refresh.")


class RefreshOutput(serializers.Serializer):
    access = serializers.CharField(help_text="Nouveau jeton d'accès (Bearer).")
    refresh = serializers.CharField(help_text="Nouveau jeton de rafraîchissement : l'ancien ne sert plus.")


class UserOutput(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)
    avatar = serializers.SerializerMethodField()
    email_confirmed = serializers.BooleanField(read_only=True)
    can_edit = serializers.SerializerMethodField(
        help_text="Le compte qui lit peut-il modifier celui-ci (docs/decisions.md 32)."
    )

    class Meta:
        model = User
        fields = [
            "id",
            "first_name",
            "last_name",
            "name",
            "email",
            "phone",
            "address",
            "postal_code",
            "city",
            "country",
            "company_name",
            "company_siren",
            "company_vat_number",
            "company_address",
            "avatar",
            "role",
            "email_confirmed",
            "pending_email",
            "date_joined",
            "can_edit",
        ]

    def get_avatar(self, user) -> str:
        return selectors.avatar_url(user)

    def get_can_edit(self, user) -> bool:
        actor = self.context.get("actor")
        return actor is not None and user_can_edit(actor=actor, target=user)


class UserUpdateOutput(UserOutput):
    # The account after a change, with the message the change calls for (the context's `message`).

    message = serializers.SerializerMethodField(help_text="Profil mis à jour, ou lien envoyé à la nouvelle adresse.")

    class Meta(UserOutput.Meta):
        fields = [*UserOutput.Meta.fields, "message"]

    def get_message(self, user) -> str:
        return self.context["message"]
