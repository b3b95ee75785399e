"""The public pages a visitor can open, for the checks that walk them all (axe, Lighthouse, third-party requests).

Plain data, no Django import: bench/lighthouse.py reads it outside Django.
"""

PUBLIC_PAGES = [
    "/",
    "/contact",
    "/courses/calendar",
    "/weekly",
    "/evjf-evg",
    "/room-rental",
    "/rental-form",
    "/confirmation",
    "/mentions-legales",
    "/politique-confidentialite",
    "/cgv",
    "/accessibilite",
    "/tarifs",
    "/tarifs-page",
    "/blog-facebook",
    "/choisir-nous",
    "/gallery",
    "/login",
    "/register",
    "/forgot-password",
]
