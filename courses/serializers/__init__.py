"""The courses app's API shapes: shared fields (fields), the catalogue (catalogue), instructors (instructors)."""
