"""The fixed footer never lies over the page: on a long page that fills in after it loads (the member's courses, the
staff's sessions), at 390 px and 1366 px, neither on arrival nor at the bottom of the page is the last content element
under the footer."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The last element of <main> with a box, and whether the footer, where it shows, lies over it or over <main>.
COVERED = """() => {
  const footer = document.getElementById("site-footer");
  const main = document.querySelector("main");
  const boxes = [...main.querySelectorAll("*")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  });
  const last = boxes[boxes.length - 1];
  const style = getComputedStyle(footer);
  const what = last.outerHTML.slice(0, 80);
  if (style.visibility === "hidden" || style.display === "none") return { covered: 0, last: what };
  const f = footer.getBoundingClientRect();
  const m = main.getBoundingClientRect();
  const l = last.getBoundingClientRect();
  const onScreen = (top, bottom) => Math.max(0, Math.min(bottom, f.bottom, innerHeight) - Math.max(top, f.top));
  return { covered: Math.max(onScreen(m.top, m.bottom), onScreen(l.top, l.bottom)), last: what };
}"""


def _long_pages(member):
    start = timezone.now() + timedelta(days=1)
    for n in range(24):
        session = CourseSessionFactory(start=start + timedelta(days=n), end=start + timedelta(days=n, minutes=75))
        ReservationFactory(session=session, user=member)


PAGES = [("/my-courses", ".my-courses-table tbody tr"), ("/admin/sessions", "tbody tr")]


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize(("path", "rows"), PAGES)
def test_the_footer_covers_no_content(page, live_server, login_as, member, staff, width, path, rows):
    _long_pages(member)
    login_as(member if path == "/my-courses" else staff)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(live_server.url + path)
    page.locator(rows).nth(9).wait_for()  # the island has filled the page in
    page.wait_for_timeout(400)  # the footer's transition
    first = page.evaluate(COVERED)
    assert first["covered"] == 0, f"on arrival: {first}"
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(400)
    bottom = page.evaluate(COVERED)
    assert bottom["covered"] == 0, f"at the bottom: {bottom}"
    assert page.locator("#site-footer").is_visible()  # the footer shows at the bottom of the page
