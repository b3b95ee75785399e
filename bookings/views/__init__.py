"""The bookings pages (server-rendered, islands' props): the calendar and the member's courses (pages.py), an
instructor's classes (instructor.py)."""
