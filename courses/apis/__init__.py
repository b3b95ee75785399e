"""The catalogue's JSON API: courses, tariffs and testimonials (catalogue), instructors, weekly series of sessions
(series); what they share (common)."""
