"""The site's PDF text (studio/pdf.py): each character drawn with the first embedded font that has its glyph, and a
character no font has left out (a pictograph) or shown as "�" (a letter), never as a box."""

import unicodedata

from studio.pdf import BOLD, REGULAR, REPLACEMENT, pdf_date, pdf_fonts_check, string_width, text_runs


def test_latin_greek_cyrillic_and_vietnamese_stay_in_the_text_font():
    assert text_runs("Łukasz Nguyễn, 3 allée Ōtsuka, Улица, Αθήνα", REGULAR) == [
        (REGULAR, "Łukasz Nguyễn, 3 allée Ōtsuka, Улица, Αθήνα")
    ]
    assert text_runs("Łukasz", BOLD) == [(BOLD, "Łukasz")]


def test_a_decomposed_name_is_drawn_precomposed():
    assert text_runs(unicodedata.normalize("NFD", "Nguyễn"), REGULAR) == [(REGULAR, "Nguyễn")]


def test_characters_the_text_font_lacks_come_from_the_fallbacks():
    runs = text_runs("Sakura 大塚 💃", BOLD)
    assert [chars for _, chars in runs] == ["Sakura ", "大塚", " ", "💃"]
    assert runs[0][0] == BOLD and runs[1][0] not in (REGULAR, BOLD) and runs[3][0] not in (REGULAR, BOLD, runs[1][0])


def test_what_no_font_draws_is_left_out_or_replaced_never_a_box():
    assert text_runs("Nguyễn 🩰", REGULAR) == [(REGULAR, "Nguyễn ")]  # ballet shoes: newer than the fonts
    assert text_runs("A\U00010900B", REGULAR) == [(REGULAR, f"A{REPLACEMENT}B")]  # a Phoenician letter
    assert string_width("Nguyễn 🩰", REGULAR, 10) == string_width("Nguyễn ", REGULAR, 10) > 0


def test_pdf_dates_are_in_the_studios_time_zone():
    from datetime import UTC, datetime

    assert pdf_date(datetime(2030, 3, 5, 14, 30, tzinfo=UTC)) == "D:20300305153000+01'00'"
    assert pdf_date(datetime(2030, 7, 5, 14, 30, tzinfo=UTC)) == "D:20300705163000+02'00'"


def test_missing_fonts_are_reported_at_start_up(settings, tmp_path):
    assert pdf_fonts_check() == []
    settings.PDF_FONTS = {BOLD: str(tmp_path / "absent-bold.ttf")}
    settings.PDF_FALLBACK_FONTS = [str(tmp_path / "absent-emoji.ttf")]
    assert [(problem.id, problem.level) for problem in pdf_fonts_check()] == [("studio.E101", 40), ("studio.W101", 30)]
