"""The PDFs the site writes (ReportLab): Unicode fonts embedded, a fallback font per glyph, true metadata.

ReportLab's built-in Helvetica is not embedded and knows only WinAnsi, so a name such as "Łukasz Nguyễn" or an
address in "Ōtsuka" printed as boxes. Every PDF is drawn with `StudioCanvas` instead:

- the text font is DejaVu Sans (regular and bold; Debian's fonts-dejavu-core), embedded as a subset with its
  Unicode map, so any viewer shows it and `pdftotext` reads it back;
- a character DejaVu Sans has no glyph for is drawn with the first fallback font that has one (PDF_FALLBACK_FONTS:
  Droid Sans Fallback for Chinese, Japanese and Korean, fonts-droid-fallback; Symbola for emoji and symbols,
  fonts-symbola), each embedded too;
- a character no installed font draws is replaced, never printed as a box: a pictograph, symbol, mark or invisible
  format character (an emoji newer than the fonts, a variation selector) is left out; anything else (a letter, a digit,
  punctuation) becomes U+FFFD "�", so a missing letter still shows.

Text is NFC-normalised first (a decomposed "ễ" becomes its single precomposed character). Right-to-left scripts are
drawn left to right (ReportLab does no shaping).

The metadata are the document's own: its title, the studio as author, creator and producer, and its date (an
invoice's issue date) as creation and modification date; the bytes depend on nothing else (ReportLab's invariant
mode), so the same document always renders the same bytes.
"""

import functools
import os
import re
import unicodedata
from datetime import datetime

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

REGULAR = "StudioSans"
BOLD = "StudioSans-Bold"

DEFAULT_PDF_FONTS = {
    REGULAR: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    BOLD: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
}
DEFAULT_PDF_FALLBACK_FONTS = [
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
]
MSG_FONTS_MISSING = (
    "The PDF font {path} is missing: install Debian's fonts-dejavu-core (or set PDF_FONTS to TrueType files)."
)
REPLACEMENT = "\ufffd"
# Unicode categories left out when no font draws them: symbols (emoji), marks, format and other invisible characters.
LEFT_OUT_CATEGORIES = ("S", "M", "C")


_ASTRAL_TO_UNICODE = re.compile(r"^(<[0-9A-F]{2}>) <([0-9A-F]{5,6})>$", re.MULTILINE)


def _utf16_hex(match: re.Match) -> str:
    return f"{match.group(1)} <{chr(int(match.group(2), 16)).encode('utf-16-be').hex().upper()}>"


class _TrueTypeFont(TTFont):
    """ReportLab's TrueType font, whose Unicode map (what `pdftotext`, search and copy read) also names the characters
    beyond U+FFFF right: ReportLab writes their code point as is ("<1F483>"), where a ToUnicode CMap wants UTF-16
    ("<D83DDC83>"), so an emoji read back as another character."""

    def addObjects(self, doc):
        super().addObjects(doc)
        for key, stream in doc.idToObject.items():
            if isinstance(key, str) and key.startswith("toUnicodeCMap:") and isinstance(stream.content, str):
                stream.content = _ASTRAL_TO_UNICODE.sub(_utf16_hex, stream.content)


class _Font:
    """A registered TrueType font and the characters it has a glyph for."""

    def __init__(self, name: str, path: str):
        font = _TrueTypeFont(name, path)
        pdfmetrics.registerFont(font)
        self.name = name
        self.glyphs = font.face.charToGlyph

    def draws(self, char: str) -> bool:
        return ord(char) in self.glyphs


@functools.cache
def _fonts() -> dict[str, list[_Font]]:
    """Each text font followed by the fallbacks, registered once per process."""
    paths = {**DEFAULT_PDF_FONTS, **getattr(settings, "PDF_FONTS", {})}
    for path in paths.values():
        if not os.path.isfile(path):
            raise ImproperlyConfigured(MSG_FONTS_MISSING.format(path=path))
    fallback_paths = getattr(settings, "PDF_FALLBACK_FONTS", DEFAULT_PDF_FALLBACK_FONTS)
    fallbacks = [
        _Font(f"StudioFallback{index}", path)
        for index, path in enumerate(fallback_paths, start=1)
        if os.path.isfile(path)
    ]
    return {name: [_Font(name, path), *fallbacks] for name, path in paths.items()}


@checks.register()
def pdf_fonts_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """At start-up, not at the first invoice: the text fonts must exist; a missing fallback only prints less."""
    paths = {**DEFAULT_PDF_FONTS, **getattr(settings, "PDF_FONTS", {})}
    problems: list[checks.CheckMessage] = [
        checks.Error(MSG_FONTS_MISSING.format(path=path), id="studio.E101")
        for path in paths.values()
        if not os.path.isfile(path)
    ]
    problems += [
        checks.Warning(
            f'The PDF fallback font {path} is missing: characters only it draws print as "�" or are left out.',
            hint="Install Debian's fonts-droid-fallback and fonts-symbola (make pdf-packages).",
            id="studio.W101",
        )
        for path in getattr(settings, "PDF_FALLBACK_FONTS", DEFAULT_PDF_FALLBACK_FONTS)
        if not os.path.isfile(path)
    ]
    return problems


def text_runs(text: str, font: str) -> list[tuple[str, str]]:
    """The text as (font name, characters) runs: each character in the first font of the chain that draws it."""
    chain = _fonts()[font]
    runs: list[tuple[str, str]] = []
    for char in unicodedata.normalize("NFC", text or ""):
        chosen = next((candidate for candidate in chain if candidate.draws(char)), None)
        if chosen is None:
            if unicodedata.category(char)[0] in LEFT_OUT_CATEGORIES:
                continue
            char, chosen = REPLACEMENT, chain[0]
        if runs and runs[-1][0] == chosen.name:
            runs[-1] = (chosen.name, runs[-1][1] + char)
        else:
            runs.append((chosen.name, char))
    return runs


def string_width(text: str, font: str, size: float) -> float:
    return sum(pdfmetrics.stringWidth(chars, name, size) for name, chars in text_runs(text, font))


def pdf_date(moment: datetime) -> str:
    """A PDF date ("D:20300305153000+01'00'") in the studio's time zone."""
    local = timezone.localtime(moment)
    offset = local.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset else 0
    sign = "+" if minutes >= 0 else "-"
    return f"D:{local:%Y%m%d%H%M%S}{sign}{abs(minutes) // 60:02d}'{abs(minutes) % 60:02d}'"


class StudioCanvas(canvas.Canvas):
    """A ReportLab canvas whose text calls use the studio's embedded fonts with their fallbacks, and whose metadata
    are the document's. `setFont(REGULAR | BOLD, size)`, then drawString/drawRightString/stringWidth as usual."""

    def __init__(self, buffer, *, title: str, author: str, subject: str, created_at: datetime, **kwargs):
        _fonts()  # registered before ReportLab sets the page's first font
        super().__init__(buffer, invariant=1, initialFontName=REGULAR, initialFontSize=10, **kwargs)
        self._text_font, self._text_size = REGULAR, 10
        self.setTitle(title)
        self.setAuthor(author)
        self.setCreator(author)
        self.setProducer(author)
        self.setSubject(subject)
        date = pdf_date(created_at)
        self.setDateFormatter(lambda *_: date)

    def setFont(self, psfontname, size, leading=None):
        self._text_font, self._text_size = psfontname, size
        _fonts()  # registered before ReportLab looks the name up
        super().setFont(psfontname, size, leading)

    def stringWidth(self, text, fontName=None, fontSize=None):
        return string_width(text, fontName or self._text_font, self._text_size if fontSize is None else fontSize)

    def drawString(self, x, y, text, *args, **kwargs):
        font, size = self._text_font, self._text_size
        for name, chars in text_runs(text, font):
            super().setFont(name, size)
            super().drawString(x, y, chars)
            x += pdfmetrics.stringWidth(chars, name, size)
        super().setFont(font, size)

    def drawRightString(self, x, y, text, *args, **kwargs):
        self.drawString(x - self.stringWidth(text), y, text)
