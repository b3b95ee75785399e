"""The bookings pages (server-rendered, islands' props): the calendar, the EVJF/EVG offer and the member's courses
(pages.py), the member's requests (requests.py), an instructor's classes (instructor.py)."""
