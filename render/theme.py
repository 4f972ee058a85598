"""Colours and fonts: one look for maps and battle boards.

Powers are coloured from the edition's colour names (the board's: Maroon, Gray, Tan, Orange,
Green), made legible: a light *fill* for the territories a power holds (dark text reads on it),
and a dark *ink* for its unit chips, arrows and legend (white text reads on it). Fills differ in
lightness as well as hue, so red and green holdings stay apart for colour-blind players.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont

from rules.edition import Edition

FONTS_DIR = Path(__file__).parent / "fonts"

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PowerColours:
    fill: RGB  # territories held
    ink: RGB  # chips, arrows, legend swatch border
    text: RGB  # text on ink


# colour name (edition data) -> (fill, ink)
_NAMED: dict[str, tuple[RGB, RGB]] = {
    "maroon": ((196, 92, 84), (122, 24, 28)),
    "gray": ((150, 150, 150), (58, 58, 58)),
    "grey": ((150, 150, 150), (58, 58, 58)),
    "tan": ((222, 196, 146), (132, 94, 36)),
    "orange": ((244, 170, 70), (196, 92, 0)),
    "green": ((150, 188, 102), (46, 94, 30)),
    "blue": ((120, 160, 220), (30, 60, 140)),
    "yellow": ((238, 220, 100), (150, 130, 0)),
    "brown": ((176, 130, 90), (96, 60, 30)),
    "purple": ((170, 130, 200), (86, 40, 120)),
    "red": ((220, 100, 100), (150, 20, 20)),
    "black": ((110, 110, 110), (20, 20, 20)),
}
_FALLBACK: tuple[RGB, RGB] = ((200, 170, 200), (100, 60, 100))

WATER: RGB = (168, 204, 230)
WATER_LINE: RGB = (120, 160, 196)
WATER_TEXT: RGB = (40, 80, 130)
NEUTRAL: RGB = (238, 232, 214)  # land nobody holds that may be entered
NEUTRAL_HATCH: RGB = (190, 172, 128)  # its hatching, while nobody holds it
IMPASSABLE: RGB = (206, 198, 178)  # neutral territories closed to everyone (MAP-8)
IMPASSABLE_HATCH: RGB = (170, 160, 138)
# Neutrals by alignment (an edition whose map gives them one, ``MapData.neutrals``): the land's
# tint and its hatching while it stands. Strict ones look as any neutral nobody holds.
ALIGNED: dict[str, tuple[RGB, RGB]] = {
    "strict": (NEUTRAL, NEUTRAL_HATCH),
    "pro_axis": ((228, 226, 232), (88, 84, 104)),
    "pro_allied": ((220, 238, 230), (46, 140, 112)),
}
# A neutral's army: no power's, so a light chip where every power's is dark.
NEUTRAL_ARMY = PowerColours(fill=NEUTRAL, ink=(252, 250, 242), text=(70, 60, 40))
CONVOY: RGB = (24, 62, 112)  # the convoy symbol in a convoy sea zone
DAMAGE: RGB = (196, 24, 24)  # a facility's damage markers
BORDER: RGB = (40, 40, 40)
TEXT: RGB = (20, 20, 20)
HALO: RGB = (255, 255, 255)
BACKGROUND: RGB = (236, 236, 236)
BAR: RGB = (34, 40, 52)
BAR_TEXT: RGB = (245, 245, 245)
BATTLE: RGB = (220, 30, 30)
BATTLE_INNER: RGB = (255, 214, 0)
FOCUS: RGB = (255, 222, 0)  # the space a focused map is centred on
HIT: RGB = (200, 20, 20)
MISS: RGB = (120, 120, 120)


def power_colours(edition: Edition) -> dict[str, PowerColours]:
    """Each power's colours, from its colour name in the edition data."""
    out: dict[str, PowerColours] = {}
    for name, p in edition.powers.items():
        fill, ink = _NAMED.get(p.colour.strip().casefold(), _FALLBACK)
        out[name] = PowerColours(fill=fill, ink=ink, text=(255, 255, 255))
    return out


@cache
def font(size: int, *, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font; basic layout so images do not depend on libraqm."""
    if condensed:
        name = "DejaVuSansCondensed-Bold.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(
        str(FONTS_DIR / name), size, layout_engine=ImageFont.Layout.BASIC
    )
