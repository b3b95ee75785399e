"""An instructor's pages: their classes, and each class's attendance sheet to mark at the door (the
dashboard's sheet, in an island of its own). Another instructor's class is a 404; anyone not teaching, a 403."""

from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils import timezone

from courses.models import CourseSession
from studio.decorators import login_required_page

from ..selectors.instructor import MSG_NOT_AN_INSTRUCTOR, instructor_sessions, teaching_instructor


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
