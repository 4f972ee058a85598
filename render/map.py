"""The map image: who holds what, where the armies are, what moved this phase (DESIGN §8).

``render_map(state, geometry)`` draws the whole board (about 2000 px wide); ``focus=<space>``
crops and enlarges around one space, continuing across the board's east-west edge where the
geometry says the edges meet (``Geometry.edges_meet``). Nothing here knows an edition: spaces,
powers, colours, units and the geometry to use all come from the edition data and the geometry
file (``render.geo.geometry_for``). What never changes for a view (the space index image,
borders, names, values, capital stars, neutrals' hatching, the legend's key) is drawn once per
edition and view and cached (``BaseLayer``); each call only recolours the territories through the
index image's palette, pastes the cached overlay and draws what changes: unit chips, industrial
complexes, battle markers, move arrows, the title bar and the powers' money.

The parts: ``render.view`` (the whole board or a focused view), ``render.base`` (the cached
``BaseLayer`` and the legend's key), ``render.chips`` (the chips and markers of each space and
how one is drawn), ``render.placement`` (where each chip goes: ``layout``); this module paints
the holdings and draws one call's image (``render_map``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from render import theme
from render.base import _BAR_INDEX, _LEGEND_INDEX, BaseLayer, base_layer, shows_war
from render.chips import (
    _GREY,
    NEUTRAL_ARMY,
    Marker,
    _chip_sprite,
    _draw_marker,
    _victory,
    chip_unit,
    map_items,
    standing_neutrals,
)
from render.geo import Geometry
from render.placement import layout
from render.view import focus_view, full_view
from rules.edition import Edition
from rules.events import UnitsMoved
from rules.state import GameState

# --------------------------------------------------------------------------------------------
# Per call


def _palette(edition: Edition, state: GameState, order: Sequence[str],
             hatched: Sequence[str] = ()) -> list[int]:
    colours = theme.power_colours(edition)
    # Neutrals that stand, by alignment: their own tint and hatching.
    aligned = {name: theme.ALIGNED.get(look.alignment, (theme.NEUTRAL, theme.NEUTRAL_HATCH))
               for name, look in standing_neutrals(state).items()}
    pal = [*theme.WATER] * 256
    for i, name in enumerate(order, start=1):
        space = edition.spaces[name]
        if space.kind == "sea":
            rgb = theme.WATER
        elif space.impassable:
            rgb = theme.IMPASSABLE
        else:
            owner = state.owners.get(name)
            rgb = (colours[owner].fill if owner in colours
                   else aligned[name][0] if name in aligned else theme.NEUTRAL)
        pal[3 * i : 3 * i + 3] = rgb
    for i, name in enumerate(hatched, start=len(order) + 1):
        owner = state.owners.get(name)
        rgb = (colours[owner].fill if owner in colours
               else aligned[name][1] if name in aligned else theme.NEUTRAL_HATCH)
        pal[3 * i : 3 * i + 3] = rgb
    pal[3 * _BAR_INDEX : 3 * _BAR_INDEX + 3] = theme.BAR
    pal[3 * _LEGEND_INDEX : 3 * _LEGEND_INDEX + 3] = theme.BACKGROUND
    return pal


# The last holdings image per base layer: (palette, image). Each map starts from a copy of it
# and repaints only the spaces whose colour changed since (captures are few per phase).
_HOLDINGS: dict[int, tuple[BaseLayer, list[int], Image.Image]] = {}
_HOLDINGS_KEPT = 4
_REPAINT_LIMIT = 24  # more changed spaces than this: repaint the whole board


def _paint(
    base: BaseLayer, palette: list[int], box: tuple[int, int, int, int] | None
) -> Image.Image:
    """Fills from the palette with the fixed overlay on top, for ``box`` or everything."""
    img = base.index if box is None else base.index.crop(box)
    img = img.copy()
    img.putpalette(palette)
    out = img.convert("RGB")
    overlay = base.overlay if box is None else base.overlay.crop(box)
    out.paste(overlay, (0, 0), overlay)
    return out


def _holdings(base: BaseLayer, palette: list[int]) -> Image.Image:
    """The board coloured by holdings with borders and names: a fresh image to draw on."""
    key = id(base)
    last = _HOLDINGS.get(key)
    if last is not None and last[0] is not base:
        last = None  # another layer that got the same id after the first was dropped
    if last is not None and last[1] == palette:
        return last[2].copy()
    changed = [] if last is None else [
        i for i in range(1, 256) if palette[3 * i : 3 * i + 3] != last[1][3 * i : 3 * i + 3]
    ]
    if last is None or len(changed) > _REPAINT_LIMIT:
        image = _paint(base, palette, None)
    else:
        image = last[2].copy()
        for i in changed:
            for box in base.boxes.get(i, ()):
                image.paste(_paint(base, palette, box), box[:2])
    _HOLDINGS.pop(key, None)
    while len(_HOLDINGS) >= _HOLDINGS_KEPT:
        _HOLDINGS.pop(next(iter(_HOLDINGS)))
    _HOLDINGS[key] = (base, palette, image)
    return image.copy()


def _unwrapped_path(
    geometry: Geometry, path: Sequence[str]
) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for name in path:
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        x, y = shape.centre
        if pts and geometry.edges_meet:
            while x - pts[-1][0] > geometry.width / 2:
                x -= geometry.width
            while pts[-1][0] - x > geometry.width / 2:
                x += geometry.width
        pts.append((float(x), float(y)))
    return pts


def _draw_arrow(draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], u: float,
                ink: tuple[int, int, int]) -> None:
    if len(pts) < 2:
        return
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    d = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    head = 13 * u
    # Ends kept off the centres, where names and chips are.
    tip = (bx - ux * 14 * u, by - uy * 14 * u)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    (sx, sy), (nx, ny) = pts[0], pts[1]
    d0 = math.hypot(nx - sx, ny - sy) or 1.0
    start = (sx + (nx - sx) / d0 * 10 * u, sy + (ny - sy) / d0 * 10 * u)
    line = [start, *pts[1:-1], base]
    width = max(3, round(4 * u))
    draw.line(line, fill=(255, 255, 255), width=width + 3, joint="curve")
    draw.line(line, fill=ink, width=width, joint="curve")
    left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
    right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
    draw.polygon([tip, left, right], fill=ink, outline=(255, 255, 255))


def render_map(
    state: GameState,
    geometry: Geometry,
    *,
    moves: Sequence[UnitsMoved] = (),
    title: str = "",
    focus: str | None = None,
) -> Image.Image:
    """The board as an RGB image: holdings, units, battles, this phase's moves, title, legend.

    ``moves`` are the ``UnitsMoved`` events to draw as arrows (the caller passes those of the
    current phase); ``title`` goes first in the title bar (e.g. the game's id); ``focus``
    crops and enlarges around that space. Raises ``GeometryError`` for a space without
    geometry.
    """
    edition = state.edition
    view = full_view(geometry) if focus is None else focus_view(geometry, focus)
    base = base_layer(edition, geometry, view)
    out = _holdings(base, _palette(edition, state, base.order, base.hatched))
    draw = ImageDraw.Draw(out)
    u = view.ui
    colours = theme.power_colours(edition)
    top = base.map_top
    ow, _ = view.out_size

    def to_out(x: float, y: float, k: int) -> tuple[float, float]:
        X, Y = view.xy(x, y, k)
        return X, Y + top

    if focus is not None:
        focused = geometry.spaces[focus]
        for k in view.shifts(focused.bbox[0], focused.bbox[2]):
            for ring in focused.polygons:
                pts = [to_out(x, y, k) for x, y in ring]
                draw.line([*pts, pts[0]], fill=theme.FOCUS, width=max(3, round(2.5 * u)),
                          joint="curve")
    # Battles: contested spaces outlined; their markers are laid out with the chips.
    open_battles = [s for s, b in state.battles.items() if b.step != "done"]
    for name in open_battles:
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        for k in view.shifts(shape.bbox[0], shape.bbox[2]):
            for ring in shape.polygons:
                pts = [to_out(x, y, k) for x, y in ring]
                draw.line([*pts, pts[0]], fill=theme.BATTLE, width=max(3, round(3 * u)),
                          joint="curve")
    # Victory cities: a marker in each, in its holder's colour.
    for name, vx, vy, r in base.victory:
        holder = state.owners.get(name)
        _victory(draw, vx, vy, r, colours[holder].ink if holder in colours else _GREY.ink)
    plan = layout(base, geometry, edition, map_items(state))
    for lead in plan.leaders:
        ink = colours.get(lead.power, _GREY).ink
        width = max(1, round(1.5 * chip_unit(u)))
        draw.line([lead.start, lead.end], fill=(255, 255, 255), width=width + 2)
        draw.line([lead.start, lead.end], fill=ink, width=width)
        r = 2.5 * chip_unit(u)
        ex, ey = lead.end
        draw.ellipse((ex - r, ey - r, ex + r, ey + r), fill=ink, outline=(255, 255, 255))
    cargo_inks = tuple(sorted(colours.items()))
    colours[NEUTRAL_ARMY] = theme.NEUTRAL_ARMY
    for p in plan.placed:
        x0, y0, x1, _ = p.box
        if x1 < -60 or x0 > ow + 60:
            continue
        if isinstance(p.item, Marker):
            _draw_marker(draw, p.item, p.box, p.scale, colours)
        else:
            sprite = _chip_sprite(p.item, p.scale, colours.get(p.item.power, _GREY), cargo_inks)
            out.paste(sprite, (round(x0), round(y0)), sprite)
    # Moves of this phase
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for e in moves:
        for m in e.moves:
            key = (e.power, m.path)
            if key in seen or len(m.path) < 2:
                continue
            seen.add(key)
            pts = _unwrapped_path(geometry, m.path)
            if len(pts) < 2:
                continue
            xs = [p[0] for p in pts]
            ink = colours[e.power].ink if e.power in colours else _GREY.ink
            for k in view.shifts(min(xs), max(xs)):
                _draw_arrow(draw, [to_out(x, y, k) for x, y in pts], u, ink)
    # The title bar and the legend cover whatever was drawn past the map's edges.
    bar = base.chrome.crop((0, 0, ow, top + 1))
    out.paste(bar, (0, 0))
    out.paste(base.chrome.crop((0, top, ow, base.chrome.height)), (0, base.legend_top))
    draw.line([(0, top), (ow, top)], fill=theme.BORDER, width=1)
    _draw_title(draw, state, title, focus, ow, top)
    _draw_powers(draw, state, colours, base.legend_top, ow)
    return out


def _draw_title(draw: ImageDraw.ImageDraw, state: GameState, title: str, focus: str | None,
                width: int, height: int) -> None:
    ed = state.edition
    f = theme.font(22, bold=True)
    small = theme.font(18, bold=False)
    left = ed.rules.title + (f" · {title}" if title else "") + (f" · {focus}" if focus else "")
    draw.text((14, height / 2), left, font=f, fill=theme.BAR_TEXT, anchor="lm")
    if state.winner:
        right = f"Round {state.round} · won by the {state.winner}"
    else:
        phase = ed.phase_info[state.phase].name if state.phase in ed.phase_info else state.phase
        right = f"Round {state.round} · {state.power} · {phase}"
    colours = theme.power_colours(ed)
    tw = f.getlength(right)
    x = width - 14 - tw
    draw.text((x, height / 2), right, font=f, fill=theme.BAR_TEXT, anchor="lm")
    if not state.winner and state.power in colours:
        c = colours[state.power]
        draw.rounded_rectangle((x - 34, height / 2 - 11, x - 10, height / 2 + 11), radius=4,
                               fill=c.fill, outline=c.ink, width=3)
    del small


def _draw_powers(draw: ImageDraw.ImageDraw, state: GameState,
                 colours: dict[str, theme.PowerColours], top: int, width: int) -> None:
    ed = state.edition
    income = state.income()
    powers = list(ed.turn_order)
    f = theme.font(17, bold=True)
    small = theme.font(15)
    slot = (width - 24) / max(1, len(powers))
    y = top + 24
    for i, p in enumerate(powers):
        x = 12 + i * slot
        c = colours.get(p, _GREY)
        draw.rounded_rectangle((x, y - 14, x + 34, y + 14), radius=5, fill=c.fill, outline=c.ink,
                               width=4)
        war = shows_war(ed)
        if p == state.power and not state.winner:
            draw.rectangle((x - 4, y - 18, x + slot - 10, y + (36 if war else 18)),
                           outline=c.ink, width=2)
        draw.text((x + 42, y - 1), p, font=f, fill=theme.TEXT, anchor="ls")
        side = ed.powers[p].side
        money = f"{side} · {state.treasury.get(p, 0)} IPCs · income {income.get(p, 0)}"
        draw.text((x + 42, y + 2), money, font=small, fill=(60, 60, 60), anchor="lt")
        if war:
            _draw_war(draw, state, p, colours, (x + 42, y + 20), small)


def _draw_war(draw: ImageDraw.ImageDraw, state: GameState, power: str,
              colours: dict[str, theme.PowerColours], at: tuple[float, float],
              font: ImageFont.FreeTypeFont) -> None:
    """Whom ``power`` is at war with, each a tag in that power's ink; 'neutral' if nobody."""
    ed = state.edition
    enemies = at_war_with(state, power)
    x, y = at
    if not enemies:
        draw.text((x, y), "neutral: at war with nobody", font=font, fill=(60, 60, 60),
                  anchor="lt")
        return
    draw.text((x, y), "at war with", font=font, fill=(60, 60, 60), anchor="lt")
    x += font.getlength("at war with") + 6
    for q in enemies:
        name = short_name(ed, q)
        c = colours.get(q, _GREY)
        w = font.getlength(name) + 8
        draw.rounded_rectangle((x, y - 1, x + w, y + 16), radius=3, fill=c.ink)
        draw.text((x + 4, y), name, font=font, fill=c.text, anchor="lt")
        x += w + 4


def at_war_with(state: GameState, power: str) -> list[str]:
    """The powers ``power`` is at war with now, in turn order (none: a neutral power)."""
    return [q for q in state.edition.turn_order if q != power and state.enemy(power, q)]


def short_name(ed: Edition, power: str) -> str:
    """A power's shortest name for tight places: its first alias in capitals (an
    abbreviation of at most four letters), else its name."""
    return next((a for a in ed.powers[power].aliases if a.isupper() and len(a) <= 4), power)
