from studio.decorators import login_required_page
from studio.pages import simple_page

calendar_page = simple_page("bookings/calendar.html", "Planning des cours")
party_page = simple_page(
    "bookings/evjf_evg.html",
    "EVJF et EVG",
    "Enterrement de vie de jeune fille ou de garçon : une initiation pole dance entre amis.",
)
my_courses_page = login_required_page(simple_page("bookings/my_courses.html", "Mes Cours de Pole Dance"))
