import io

from django.core.mail import EmailMultiAlternatives

from studio.mail_backends import ReadableConsoleBackend


def test_the_local_console_prints_a_mail_a_person_can_read():
    stream = io.StringIO()
    message = EmailMultiAlternatives(
        subject="Studio – Votre reçu de paiement",
        body="Bonjour Émilie,\nVotre réservation est confirmée.",
        from_email="studio@example.fr",
        to=["emilie@example.fr"],
    )
    message.attach_alternative("<p>Bonjour Émilie</p>", "text/html")
    message.attach("cours-2030-01-01.ics", "BEGIN:VCALENDAR", "text/calendar")
    assert ReadableConsoleBackend(stream=stream).send_messages([message]) == 1
    printed = stream.getvalue()
    assert "Objet : Studio – Votre reçu de paiement" in printed
    assert "À : emilie@example.fr" in printed
    assert "Bonjour Émilie,\nVotre réservation est confirmée." in printed
    assert "Pièces jointes : cours-2030-01-01.ics" in printed
    assert "<p>" not in printed and "base64" not in printed
