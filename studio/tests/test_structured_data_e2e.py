"""In Chromium, under the site's real content security policy: the JSON-LD blocks are read as data, and no
policy violation is reported on the pages that carry them (the policy allows no inline script)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def test_json_ld_is_read_as_data_without_any_policy_violation(page, live_server):
    course = CourseFactory(title="Cerceau aérien")
    CourseSessionFactory(course=course, start=timezone.now() + timedelta(days=2))
    page.context.add_init_script(RECORD_VIOLATIONS)
    for path in ("/", f"/courses/{course.pk}", "/weekly"):
        response = page.goto(live_server.url + path)
        assert "script-src" in response.headers["content-security-policy"]
        types = page.evaluate(
            """() => [...document.querySelectorAll('script[type="application/ld+json"]')]
                .flatMap((s) => [JSON.parse(s.textContent)].flat().map((item) => item["@type"]))"""
        )
        assert "DanceSchool" in types, path
        if path != "/":
            assert "Event" in types, path
        assert page.evaluate("window.__cspViolations") == [], path
