"""An instructor's pages: their classes with their substitute requests (an island), each class's attendance sheet
to mark at the door (the dashboard's sheet, in an island of its own), and their monthly statement. Another
instructor's class or statement is a 404; anyone not teaching, a 403. Staff read any instructor's statement."""

from datetime import date

from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from courses.models import CourseSession, Instructor
from studio.decorators import login_required_page

from ..selectors.instructor import MSG_NOT_AN_INSTRUCTOR, instructor_sessions, teaching_instructor
from ..selectors.statements import instructor_statement


def _refused(request):
    context = {"page_title": "Accès refusé", "message": MSG_NOT_AN_INSTRUCTOR}
    return render(request, "accounts/forbidden.html", context, status=403)


@login_required_page
def instructor_classes_page(request):
    instructor = teaching_instructor(request.user)
    if instructor is None:
        return _refused(request)
    now = timezone.now()
    sessions = instructor_sessions(instructor=instructor, now=now)
    return render(
        request,
        "bookings/instructor_classes.html",
        {
            "page_title": "Mes cours à donner",
            "instructor": instructor,
            "upcoming": [s for s in sessions if s.end > now],
            "recent": [s for s in sessions if s.end <= now][::-1],
        },
    )


def _month(value: str) -> date:
    """The month asked as YYYY-MM, or the current Paris month when it is missing or not a month."""
    try:
        year, month = (int(part) for part in value.split("-"))
        return date(year, month, 1) if 2000 <= year <= 2099 else timezone.localdate().replace(day=1)
    except ValueError:
        return timezone.localdate().replace(day=1)


def _shifted(month: date, months: int) -> date:
    index = month.year * 12 + month.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


@login_required_page
def instructor_statement_page(request, instructor_id: int | None = None):
    """`/instructor/statement` (one's own) and `/instructor/statement/<id>` (staff: anyone's; an instructor: their
    own), for `?month=YYYY-MM`: the classes given, the attendees present, the rule and the amounts, with the CSV and
    PDF to download."""
    own = teaching_instructor(request.user)
    if request.user.is_studio_staff and instructor_id is not None:
        instructor = get_object_or_404(Instructor, pk=instructor_id)
    elif own is None:
        return _refused(request)
    elif instructor_id is not None and instructor_id != own.pk:
        raise Http404("Ce relevé n'est pas le vôtre.")
    else:
        instructor = own
    statement = instructor_statement(instructor=instructor, month=_month(request.GET.get("month", "")))
    base = request.path
    api = f"/api/instructors/{instructor.pk}/statements?month={statement.month:%Y-%m}"
    return render(
        request,
        "bookings/instructor_statement.html",
        {
            "page_title": f"Relevé de {statement.month_label}",
            "statement": statement,
            "previous_url": f"{base}?month={_shifted(statement.month, -1):%Y-%m}",
            "next_url": f"{base}?month={_shifted(statement.month, 1):%Y-%m}",
            "csv_url": f"{api}&format=csv",
            "pdf_url": f"{api}&format=pdf",
        },
    )


@login_required_page
def instructor_class_page(request, session_id: int):
    instructor = teaching_instructor(request.user)
    if instructor is None:
        return _refused(request)
    session = CourseSession.objects.select_related("course", "instructor").filter(pk=session_id).first()
    if session is None or (session.instructor_id != instructor.pk and not request.user.is_studio_staff):
        raise Http404("Ce cours n'est pas le vôtre.")
    get_token(request)  # the island's marks send the CSRF cookie back
    return render(
        request,
        "bookings/instructor_class.html",
        {
            "page_title": f"Présences : {session.course.title}",
            "session": session,
            "props": {"sessionId": session.pk},
        },
    )
