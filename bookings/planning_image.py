"""Draws the static schedule image of the calendar page's 'Planning (image)' tab from the weekly timetable: the
sessions in the database, as the /weekly page shows them (courses.selectors.weekly_timetable), not the demo data."""

from pathlib import Path

from django.utils import timezone
from PIL import Image, ImageDraw, ImageFont

from courses.selectors import weekly_timetable

DAYS = ["Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi"]
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
PLUM, ROSE, INK, PAPER = (43, 16, 51), (200, 60, 140), (29, 16, 32), (251, 247, 252)


def _font(size: int, bold: bool = False):
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONT_DIR / name), size)
    except OSError:
        return ImageFont.load_default(size)


# One slot of the week: (weekday 0=Monday, "HH:MM", course title, duration in minutes, instructor).
Slot = tuple[int, str, str, int, str]


def weekly_slots() -> list[Slot]:
    """The week's slots from the timetable the /weekly page shows."""
    slots = []
    for index, day in enumerate(weekly_timetable().days):
        for session in day.sessions:
            minutes = int((session.end - session.start).total_seconds() // 60)
            hhmm = timezone.localtime(session.start).strftime("%H:%M")
            slots.append((index, hhmm, session.course.title, minutes, session.instructor_name))
    return slots


def render_planning(path: Path, studio_name: str = "Studio Pole Danse", slots: list[Slot] | None = None) -> Path:
    slots = weekly_slots() if slots is None else slots
    width, height, margin = 1800, 1100, 40
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width, 150], fill=PLUM)
    draw.text((margin, 30), f"Planning des cours – {studio_name}", font=_font(52, True), fill="white")
    draw.text((margin, 100), "Du lundi au samedi · réservation sur le site", font=_font(28), fill=(240, 200, 230))
    col_w = (width - 2 * margin) // len(DAYS)
    top = 190
    for index, day in enumerate(DAYS):
        x = margin + index * col_w
        draw.rounded_rectangle([x + 6, top, x + col_w - 6, top + 70], radius=12, fill=ROSE)
        draw.text((x + 22, top + 16), day, font=_font(32, True), fill="white")
        y = top + 90
        day_slots = sorted((s for s in slots if s[0] == index), key=lambda s: s[1])
        if not day_slots:
            draw.text((x + 22, y), "Aucun cours prévu", font=_font(24), fill=INK)
        for _, hhmm, title, duration, instructor in day_slots:
            draw.rounded_rectangle([x + 6, y, x + col_w - 6, y + 190], radius=12, fill="white", outline=ROSE, width=3)
            draw.text((x + 22, y + 14), hhmm.replace(":", " h "), font=_font(30, True), fill=PLUM)
            words, lines, line = title.split(), [], ""
            for word in words:
                candidate = f"{line} {word}".strip()
                if draw.textlength(candidate, font=_font(26, True)) > col_w - 44:
                    lines.append(line)
                    line = word
                else:
                    line = candidate
            lines.append(line)
            for n, text in enumerate(lines[:2]):
                draw.text((x + 22, y + 60 + n * 32), text, font=_font(26, True), fill=INK)
            draw.text((x + 22, y + 130), f"{duration} min · {instructor}", font=_font(20), fill=(92, 74, 96))
            y += 210
    draw.text(
        (margin, height - 60),
        "25 € le cours · cartes et abonnements : voir les tarifs · planning susceptible d'évoluer",
        font=_font(24),
        fill=(92, 74, 96),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, "JPEG", quality=85, optimize=True, progressive=True)
    return path
