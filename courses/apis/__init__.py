"""The catalogue's JSON API: courses, tariffs and testimonials (catalogue), instructors; what they share (common)."""
