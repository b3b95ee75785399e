"""Reads shared by the bookings pages and APIs, each in a fixed number of queries; one module per subject (sessions,
reservations, passes, parties, the feed's overlay, attendance, instructors, waiting lists). Callers import the module
they need."""
