from studio.decorators import login_required_page, staff_required_page
from studio.pages import simple_page

contact_page = simple_page("messaging/contact.html", "Contact", "Écrivez au studio, venez nous voir ou appelez-nous.")
room_rental_page = simple_page("messaging/room_rental.html", "Location de salle")
rental_form_page = simple_page("messaging/rental_form.html", "Demande de location de salle")
confirmation_page = simple_page("messaging/confirmation.html", "Demande envoyée")
user_messages_page = login_required_page(simple_page("messaging/user_messages.html", "Mes messages"))
staff_message_page = staff_required_page(simple_page("messaging/staff_message.html", "Message"))
