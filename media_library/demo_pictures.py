"""The demo studio's pictures, drawn with Pillow (no download, no licence question): one composition per theme —
the pole, the aerial hoop, a hen party, cabaret, the stage, the room, flexibility, children's dance, a K-pop
neon stage — in the studio's colours, so the
home slider, the carousel and the gallery look like a real studio's and no two pictures are alike.
"""

import io
import math
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

PLUM_900 = (43, 16, 51)
PLUM_700 = (90, 31, 99)
PLUM_500 = (142, 44, 142)
PINK_400 = (240, 139, 208)
PINK_100 = (251, 231, 245)
GOLD = (250, 196, 120)
INK = (24, 8, 30)

THEMES = ("pole", "hoop", "party", "cabaret", "stage", "room", "stretch", "kids", "neon")


def _font(size: int):
    for path in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    ):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # very old Pillow
        return ImageFont.load_default()


def _gradient(width, height, top, bottom):
    """A vertical gradient, computed on a small strip and resized: fast at any size."""
    steps = 256
    strip = Image.new("RGB", (1, steps))
    for i in range(steps):
        t = i / (steps - 1)
        strip.putpixel((0, i), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    return strip.resize((width, height), Image.BILINEAR)


def _glow(width, height, rng, colour, count, alpha=(30, 80)):
    layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for _ in range(count):
        r = rng.randint(height // 14, height // 4)
        x, y = rng.randint(0, width), rng.randint(0, height)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(*colour, rng.randint(*alpha)))
    return layer.filter(ImageFilter.GaussianBlur(radius=max(4, height // 40)))


def _limb(draw, a, b, width, colour):
    draw.line([a, b], fill=colour, width=width)
    for x, y in (a, b):
        draw.ellipse([x - width / 2, y - width / 2, x + width / 2, y + width / 2], fill=colour)


def _dancer(draw, *, hip, scale, pose, colour=INK):
    """A stylised dancer: head, torso and four limbs with round joints; `pose` gives the limb angles in degrees."""
    s = scale

    def at(origin, angle, length):
        rad = math.radians(angle)
        return (origin[0] + math.cos(rad) * length * s, origin[1] + math.sin(rad) * length * s)

    torso_angle, head_len = pose["torso"], 38
    shoulder = at(hip, torso_angle, 70)
    head = at(shoulder, torso_angle, head_len)
    _limb(draw, hip, shoulder, int(22 * s), colour)
    r = 16 * s
    draw.ellipse([head[0] - r, head[1] - r, head[0] + r, head[1] + r], fill=colour)
    for arm in pose["arms"]:
        elbow = at(shoulder, arm[0], 38)
        _limb(draw, shoulder, elbow, int(11 * s), colour)
        _limb(draw, elbow, at(elbow, arm[1], 36), int(9 * s), colour)
    for leg in pose["legs"]:
        knee = at(hip, leg[0], 52)
        _limb(draw, hip, knee, int(15 * s), colour)
        _limb(draw, knee, at(knee, leg[1], 50), int(12 * s), colour)


POSES = {
    # Upside down on the pole ("inverted crucifix"): torso down, legs up around the pole.
    "invert": {"torso": 90, "arms": [(150, 120), (30, 60)], "legs": [(-110, -80), (-70, -20)]},
    # Side split in the air.
    "split": {"torso": -80, "arms": [(-150, -170), (-30, -10)], "legs": [(170, 175), (10, 5)]},
    # Sitting in the hoop, one leg extended.
    "sit": {"torso": -95, "arms": [(-40, -70), (-150, -120)], "legs": [(10, 60), (-20, 0)]},
    # Standing, arms up, one hip out (cabaret).
    "stand": {"torso": -90, "arms": [(-60, -100), (-120, -80)], "legs": [(80, 95), (100, 85)]},
    # Back bend (flexibility).
    "bend": {"torso": -30, "arms": [(10, 60), (30, 80)], "legs": [(110, 90), (95, 90)]},
}


def _pole(layer, x, height, width=10):
    draw = ImageDraw.Draw(layer)
    for i in range(width):
        shade = 170 + round(80 * math.sin(math.pi * i / max(1, width - 1)))
        draw.line([(x - width // 2 + i, 0), (x - width // 2 + i, height)], fill=(shade, shade, shade + 8, 235))


def _spotlight(width, height, x, colour, spread, alpha=70):
    layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(layer).polygon(
        [(x - 10, 0), (x + 10, 0), (x + spread, height), (x - spread, height)], fill=(*colour, alpha)
    )
    return layer.filter(ImageFilter.GaussianBlur(radius=max(6, height // 30)))


def _theme_pole(image, rng):
    w, h = image.size
    image.alpha_composite(_spotlight(w, h, int(w * 0.55), PINK_100, int(w * 0.25)))
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    x = int(w * rng.uniform(0.45, 0.62))
    _pole(layer, x, h, max(8, w // 120))
    _dancer(ImageDraw.Draw(layer), hip=(x + 6, h * 0.42), scale=h / 520, pose=POSES["invert"])
    image.alpha_composite(layer)


def _theme_hoop(image, rng):
    w, h = image.size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    cx, cy, r = int(w * rng.uniform(0.4, 0.6)), int(h * 0.52), int(h * 0.3)
    draw.line([(cx, 0), (cx, cy - r)], fill=(*PINK_100, 220), width=max(3, h // 200))
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(*GOLD, 255), width=max(8, h // 70))
    _dancer(draw, hip=(cx, cy + r * 0.85), scale=h / 480, pose=POSES["sit"])
    image.alpha_composite(_glow(w, h, rng, GOLD, 5, (20, 50)))
    image.alpha_composite(layer)


def _theme_party(image, rng):
    w, h = image.size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for _ in range(140):
        x, y, size = rng.randint(0, w), rng.randint(0, h), rng.randint(h // 90, h // 45)
        colour = rng.choice([GOLD, PINK_400, PINK_100, (255, 255, 255)])
        angle = rng.random() * math.pi
        dx, dy = math.cos(angle) * size, math.sin(angle) * size
        draw.polygon([(x - dx, y - dy), (x + dy, y - dx), (x + dx, y + dy), (x - dy, y + dx)], fill=(*colour, 220))
    for i in range(3):  # balloons
        bx, by, br = int(w * (0.15 + 0.12 * i)), int(h * (0.3 + 0.08 * i)), int(h * 0.09)
        draw.ellipse([bx - br, by - br * 1.2, bx + br, by + br * 1.2], fill=(*[PINK_400, GOLD, PINK_100][i], 235))
        draw.line([(bx, by + br * 1.2), (bx + 10, h)], fill=(255, 255, 255, 160), width=2)
    for i, gx in enumerate((0.68, 0.8)):  # two raised glasses
        x, y, g = int(w * gx), int(h * (0.45 - 0.05 * i)), h // 9
        draw.polygon([(x - g * 0.45, y), (x + g * 0.45, y), (x, y + g * 0.9)], fill=(*PINK_100, 230))
        draw.line([(x, y + g * 0.9), (x, y + g * 1.8)], fill=(*PINK_100, 230), width=max(3, h // 180))
        draw.line(
            [(x - g * 0.35, y + g * 1.8), (x + g * 0.35, y + g * 1.8)], fill=(*PINK_100, 230), width=max(3, h // 180)
        )
    image.alpha_composite(layer)


def _theme_cabaret(image, rng):
    w, h = image.size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    cx, cy = int(w * 0.5), int(h * 0.98)
    r = int(h * 0.78)
    feathers = 15
    for i in range(feathers):
        start = 190 + i * (160 / feathers)
        colour = PINK_400 if i % 2 else PINK_100
        draw.pieslice([cx - r, cy - r, cx + r, cy + r], start, start + 160 / feathers - 1.2, fill=(*colour, 150))
    _dancer(draw, hip=(cx, cy - r * 0.35), scale=h / 560, pose=POSES["stand"])
    image.alpha_composite(layer)
    image.alpha_composite(_glow(w, h, rng, GOLD, 6, (25, 60)))


def _theme_stage(image, rng):
    w, h = image.size
    for x, colour in ((0.25, PINK_400), (0.5, GOLD), (0.75, PINK_100)):
        image.alpha_composite(_spotlight(w, h, int(w * x), colour, int(w * 0.16), 60))
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    fold = max(12, w // 40)
    for side in (0, 1):  # curtains
        for i in range(7):
            x0 = i * fold if side == 0 else w - (i + 1) * fold
            shade = 120 + 25 * (i % 2)
            draw.rectangle([x0, 0, x0 + fold, h], fill=(shade, 20, 60, 255))
    draw.rectangle([0, int(h * 0.86), w, h], fill=(*PLUM_900, 255))
    for i, x in enumerate((0.36, 0.5, 0.64)):
        _dancer(draw, hip=(w * x, h * 0.62), scale=h / 700, pose=POSES["stand" if i != 1 else "split"])
    image.alpha_composite(layer)


def _theme_room(image, rng):
    w, h = image.size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    horizon = int(h * 0.58)
    draw.rectangle([0, horizon, w, h], fill=(205, 160, 120, 255))  # wooden floor
    for i in range(-12, 13):
        draw.line([(w / 2 + i * w / 24, horizon), (w / 2 + i * w / 4, h)], fill=(170, 120, 90, 255), width=2)
    for i in range(4):  # windows
        x0 = int(w * (0.08 + 0.23 * i))
        draw.rectangle([x0, int(h * 0.12), x0 + int(w * 0.14), int(h * 0.45)], fill=(*PINK_100, 200))
        draw.line(
            [(x0 + int(w * 0.07), int(h * 0.12)), (x0 + int(w * 0.07), int(h * 0.45))], fill=(*PLUM_700, 200), width=3
        )
    image.alpha_composite(layer)
    poles = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    for x in (0.3, 0.5, 0.7):
        _pole(poles, int(w * x), int(h * 0.9), max(6, w // 160))
    image.alpha_composite(poles)


def _theme_stretch(image, rng):
    w, h = image.size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for i in range(9):
        r = int(h * (0.15 + 0.08 * i))
        draw.arc(
            [w * 0.5 - r, h * 0.9 - r, w * 0.5 + r, h * 0.9 + r],
            180,
            360,
            fill=(*PINK_100, 40 + 12 * i),
            width=max(2, h // 160),
        )
    _dancer(draw, hip=(w * 0.5, h * 0.7), scale=h / 600, pose=POSES["bend"])
    image.alpha_composite(layer)


def _star(draw, x, y, r, colour):
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.radians(-90 + i * 36)
        points.append((x + math.cos(angle) * radius, y + math.sin(angle) * radius))
    draw.polygon(points, fill=colour)


def _theme_kids(image, rng):
    w, h = image.size
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    draw.ellipse([int(w * 0.72), int(h * 0.08), int(w * 0.9), int(h * 0.08 + w * 0.18)], fill=(*GOLD, 230))  # sun
    for _ in range(18):
        _star(
            draw, rng.randint(0, w), rng.randint(0, int(h * 0.55)), rng.randint(h // 50, h // 22), (255, 255, 255, 200)
        )
    draw.rectangle([0, int(h * 0.84), w, h], fill=(*PLUM_500, 255))
    for x, pose in ((0.3, "stand"), (0.52, "split"), (0.72, "stand")):
        _dancer(draw, hip=(w * x, h * 0.72), scale=h / 900, pose=POSES[pose], colour=PLUM_900)
    image.alpha_composite(layer)


def _theme_neon(image, rng):
    w, h = image.size
    glow = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(glow)
    colours = [(80, 220, 255), PINK_400, (170, 120, 255)]
    for i in range(7):  # neon bars behind the dancers
        x = int(w * (0.08 + 0.14 * i))
        draw.rectangle([x, int(h * 0.1), x + max(6, w // 90), int(h * 0.7)], fill=(*colours[i % 3], 255))
    image.alpha_composite(glow.filter(ImageFilter.GaussianBlur(radius=max(4, h // 60))))
    image.alpha_composite(glow)
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    draw.polygon([(0, h), (w * 0.15, h * 0.8), (w * 0.85, h * 0.8), (w, h)], fill=(20, 10, 40, 255))  # stage
    for x in (0.35, 0.5, 0.65):
        _dancer(draw, hip=(w * x, h * 0.66), scale=h / 720, pose=POSES["stand"], colour=(250, 250, 255))
    image.alpha_composite(layer)


DRAW = {
    "pole": _theme_pole,
    "hoop": _theme_hoop,
    "party": _theme_party,
    "cabaret": _theme_cabaret,
    "stage": _theme_stage,
    "room": _theme_room,
    "stretch": _theme_stretch,
    "kids": _theme_kids,
    "neon": _theme_neon,
}
BACKGROUNDS = {
    "pole": (PLUM_900, PLUM_500),
    "hoop": ((30, 20, 70), PLUM_500),
    "party": (PLUM_700, PINK_400),
    "cabaret": ((70, 10, 40), (179, 36, 90)),
    "stage": (INK, PLUM_700),
    "room": ((120, 70, 130), PINK_100),
    "stretch": ((60, 20, 80), GOLD),
    "kids": ((255, 214, 170), PINK_400),
    "neon": ((8, 4, 24), (50, 16, 80)),
}


def draw_theme(*, theme: str, width: int, height: int, seed: int = 0, label: str = "") -> bytes:
    """A picture of `theme` as JPEG bytes; `label` is set in the studio's typography along the bottom."""
    rng = random.Random(f"{theme}-{seed}")
    top, bottom = BACKGROUNDS[theme]
    image = _gradient(width, height, top, bottom).convert("RGBA")
    image.alpha_composite(_glow(width, height, rng, PINK_100, 7))
    DRAW[theme](image, rng)
    if label:
        band = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        draw = ImageDraw.Draw(band)
        size = max(20, height // 14)
        draw.rectangle([0, height - int(size * 2.2), width, height], fill=(*PLUM_900, 170))
        draw.text((int(width * 0.04), height - int(size * 1.6)), label, font=_font(size), fill=(*PINK_100, 255))
        image.alpha_composite(band)
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=86, optimize=True, progressive=True)
    return buffer.getvalue()
