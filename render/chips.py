"""The pieces on the map image (``render/map.py``): the chips that stand for a power's units in a
space, battle markers, and how each is drawn."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render import theme
from render.icons import draw_icon
from render.view import Rect
from rules import board, legal
from rules import orders as od
from rules.state import GameState
from rules.turn import hooks

FACTORY = "industrial complex"
NEUTRAL_ARMY = "(neutral)"  # the chips of a neutral territory's army: no power's


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _burst(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    draw.polygon(_star(cx, cy, r, 8), fill=(*theme.BATTLE, 255), outline=(255, 255, 255, 255))
    draw.polygon(_star(cx, cy, r * 0.55, 8), fill=(*theme.BATTLE_INNER, 255))


def _victory(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float,
             ink: tuple[int, int, int]) -> None:
    """A victory city: a disc in its holder's ink, ringed in white, with a white castle."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255))
    ring = max(1.5, r / 5)
    draw.ellipse((cx - r + ring, cy - r + ring, cx + r - ring, cy + r - ring), fill=ink)
    white = (255, 255, 255)
    draw.rectangle((cx - 0.5 * r, cy - 0.12 * r, cx + 0.5 * r, cy + 0.5 * r), fill=white)
    for x0 in (-0.5, -0.11, 0.28):  # battlements
        draw.rectangle((cx + x0 * r, cy - 0.45 * r, cx + (x0 + 0.22) * r, cy), fill=white)
    draw.rectangle((cx - 0.1 * r, cy + 0.18 * r, cx + 0.1 * r, cy + 0.5 * r), fill=ink)  # gate


def _convoy(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A convoy zone's symbol: a merchant ship over a wave on a white disc ringed in navy."""
    ink = theme.CONVOY
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ink,
                 width=max(2, round(r / 4.5)))
    draw_icon(draw, "transport", (cx - 0.62 * r, cy - 0.5 * r, cx + 0.62 * r, cy + 0.22 * r),
              ink)
    w = max(1, round(r / 7))
    pts = [(cx - 0.6 * r + i * 0.3 * r, cy + (0.42 if i % 2 == 0 else 0.28) * r)
           for i in range(5)]
    draw.line(pts, fill=ink, width=w, joint="curve")


@dataclass(frozen=True, slots=True)
class Chip:
    """One chip: ``count`` units of a power and type that look alike on the board."""

    power: str
    unit: str
    count: int
    damaged: bool = False  # took a hit it keeps (a battleship's first, UB-2)
    spent: bool = False  # cannot move again this turn
    cargo: tuple[tuple[str, str, int], ...] = ()  # aboard these transports: owner, type, count
    stacked: bool = False  # all of a power's units in the space: ``unit`` is the commonest
    damage: int = 0  # a facility's damage markers
    out_of_action: bool = False  # a facility its damage stops from working


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker drawn in a space like a chip: an open battle, a capture, or a mechanism's
    (``rules.turn.hooks.marker``: the glyph it names, as "target")."""

    kind: str  # "battle", "captured", or a mechanism's glyph ("target")
    power: str = ""  # the capturer, for "captured"


Item = Chip | Marker


def spent_units(state: GameState) -> frozenset[int]:
    """The acting power's units that moved or fought this turn and cannot move again in it.

    In a movement phase, those ``candidate_orders`` offers no move for (the rules' own list);
    aircraft still able to fly in Noncombat Move are not spent in Combat Move (NC-1 lets them
    land). In Conduct Combat, land and sea units that moved in Combat Move or fought (NC-1).
    """
    s = state
    if s.winner or s.phase not in (board.COMBAT, "conduct_combat", board.NONCOMBAT):
        return frozenset()
    ed = s.edition
    acted = [u for u in s.units.values() if u.owner == s.power
             and (u.moved or u.stopped or u.combat_moved or u.fought)]
    if not acted:
        return frozenset()
    if s.phase == "conduct_combat":
        return frozenset(u.id for u in acted if ed.units[u.type].domain != "air")
    movable = {(o.frm, t) for o in legal.candidate_orders(s, s.power)
               if isinstance(o, od.Move) for t in o.units}
    out = set()
    for u in acted:
        if (u.space, u.type) in movable:
            continue
        if (s.phase == board.COMBAT and ed.units[u.type].domain == "air"
                and board.remaining(s, u) > 0):
            continue
        out.add(u.id)
    return frozenset(out)


def stacks(state: GameState) -> dict[str, list[Chip]]:
    """Unit chips per space: powers in turn order, complexes first, then edition unit order.

    Damaged units and units that cannot move again get chips of their own; land units aboard
    a transport are drawn on its chip (transports grouped by what they carry), not as units of
    the sea zone."""
    ed = state.edition
    spent = spent_units(state)
    aboard: dict[int, list[tuple[str, str]]] = {}
    for u in state.units.values():
        host = state.units.get(u.carried_by) if u.carried_by is not None else None
        if host is not None and ed.units[u.type].domain == "land":
            aboard.setdefault(host.id, []).append((u.owner, u.type))
    looks = {(f.territory, f.facility): f for f in hooks.facility_looks(state)}
    counts: dict[tuple[str, str, str, bool, bool, tuple[tuple[str, str, int], ...], int, bool],
                 int] = {}
    for u in state.units.values():
        if (u.carried_by is not None and ed.units[u.type].domain == "land"
                and u.carried_by in state.units):
            continue  # drawn on its transport's chip
        cargo = tuple((o, t, n) for (o, t), n in sorted(
            Counter(aboard.get(u.id, ())).items()))
        look = looks.get((u.space, u.type))
        damage, idle = (look.damage, not look.working) if look is not None else (0, False)
        key = (u.space, u.owner, u.type, u.damage > 0, u.id in spent, cargo, damage, idle)
        counts[key] = counts.get(key, 0) + 1
    unit_rank = {t: i for i, t in enumerate(ed.units)}
    unit_rank[FACTORY] = -1
    power_rank = {p: i for i, p in enumerate(ed.turn_order)}
    out: dict[str, list[Chip]] = {}
    for (space, power, unit, damaged, is_spent, cargo, damage, idle), n in sorted(
        counts.items(),
        key=lambda kv: (kv[0][0], power_rank.get(kv[0][1], 99), unit_rank.get(kv[0][2], 99),
                        kv[0][3], kv[0][4], kv[0][5], kv[0][6], kv[0][7]),
    ):
        # Cargo is counted per chip: the units aboard all the transports of this chip.
        total = tuple((o, t, c * n) for o, t, c in cargo)
        out.setdefault(space, []).append(Chip(power, unit, n, damaged, is_spent, total,
                                              damage=damage, out_of_action=idle))
    return out


def _stacked(chips: Sequence[Chip]) -> list[Chip]:
    """One chip per power: the count of all its units, the icon of its commonest type."""
    by_power: dict[str, list[Chip]] = {}
    for c in chips:
        by_power.setdefault(c.power, []).append(c)
    out = []
    for power, cs in by_power.items():
        per_type = Counter[str]()
        for c in cs:
            per_type[c.unit] += c.count + sum(n for _, _, n in c.cargo)
        unit = max(per_type, key=lambda t: (per_type[t], -list(per_type).index(t)))
        out.append(Chip(power, unit, sum(per_type.values()), stacked=True))
    return out


CHIP = 1.2  # chip size on the whole board, relative to the design below
MARGIN = 3.0  # chips keep this far off borders (whole-board pixels)
PAD = 2.0  # and this far apart


def chip_unit(u: float) -> float:
    """Chips grow less than the map in an enlarged view: there the map gains room for them."""
    return u if u <= 1 else 1 + (u - 1) * 0.6


def _chip_font(u: float) -> ImageFont.FreeTypeFont:
    return theme.font(max(8, round(11 * CHIP * u)), condensed=True, bold=True)


_CARGO_ICON = 11.0  # width of a cargo pictogram, design units


def _cargo_width(chip: Chip, u: float) -> float:
    if not chip.cargo:
        return 0.0
    c = CHIP * u
    small = _chip_font(u * 0.8)
    return 2 * c + sum(_CARGO_ICON * c + small.getlength(str(n)) + 2.5 * c
                       for _, _, n in chip.cargo)


def _damage_width(chip: Chip, u: float) -> float:
    if not chip.damage:
        return 0.0
    return 2 * CHIP * u + _chip_font(u * 0.8).getlength(str(chip.damage)) + 5 * CHIP * u


def _item_size(item: Item, u: float) -> tuple[float, float]:
    c = CHIP * u
    if isinstance(item, Marker):
        return (19 * c, 19 * c)
    w = (21 * c + _chip_font(u).getlength(str(item.count)) + 3 * c + _cargo_width(item, u)
         + _damage_width(item, u))
    if item.stacked:
        return (w + 3 * c, 14 * c + 3 * c)
    return (w, 14 * c)


def _fade(rgb: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    r, g, b = rgb
    return (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))


@lru_cache(maxsize=4096)
def _chip_sprite(chip: Chip, u: float, colours: theme.PowerColours,
                 cargo_colours: tuple[tuple[str, theme.PowerColours], ...] = ()) -> Image.Image:
    """A chip drawn once (RGBA), pasted wherever it is needed."""
    w, h = _item_size(chip, u)
    c = CHIP * u
    sprite = Image.new("RGBA", (math.ceil(w) + 1, math.ceil(h) + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    radius = max(2, round(3 * c))
    ink, text, edge = colours.ink, colours.text, (255, 255, 255)
    if chip.spent:
        # Pale, edged in the power's ink: it has done what it can this turn.
        ink, text, edge = _fade(colours.ink, 0.62), colours.ink, colours.ink
    x0, y0 = 0.0, 0.0
    if chip.stacked:
        # Cards behind the chip: more than one kind of unit under one count.
        off = 3 * c
        for d in (off, off / 2):
            draw.rounded_rectangle((d, 0, w - off + d, h - off), radius=radius, fill=ink,
                                   outline=(255, 255, 255), width=1)
        x0, y0 = 0.0, off
        w, h = w - off, h - off
    box = (x0, y0, x0 + w, y0 + h)
    draw.rounded_rectangle(box, radius=radius, fill=ink, outline=edge,
                           width=max(1, round(c)) if chip.spent else 1)
    draw_icon(draw, chip.unit, (x0 + 2.5 * c, y0 + 2 * c, x0 + 20 * c, y0 + h - 2 * c), text)
    draw.text((x0 + 20.5 * c, y0 + h / 2 + 0.5), str(chip.count), font=_chip_font(u), fill=text,
              anchor="lm")
    if chip.damaged:
        # A red corner: this one is hit (UB-2).
        k = 7 * c
        draw.polygon([(x0 + w - k, y0), (x0 + w, y0), (x0 + w, y0 + k)], fill=theme.HIT)
        draw.line([(x0 + w - k, y0), (x0 + w, y0 + k)], fill=(255, 255, 255), width=1)
    if chip.out_of_action:
        # Out of action (its damage stops it): the pictogram struck through in red.
        ix0, iy0, ix1, iy1 = x0 + 2.5 * c, y0 + 1.5 * c, x0 + 19.5 * c, y0 + h - 1.5 * c
        lw = max(2, round(1.6 * c))
        for a, b in (((ix0, iy0), (ix1, iy1)), ((ix0, iy1), (ix1, iy0))):
            draw.line([a, b], fill=(255, 255, 255), width=lw + 2)
        for a, b in (((ix0, iy0), (ix1, iy1)), ((ix0, iy1), (ix1, iy0))):
            draw.line([a, b], fill=theme.DAMAGE, width=lw)
    if chip.damage:
        # Its damage markers: their count on a red tab at the chip's end.
        tab_w = _damage_width(chip, u)
        tx0 = x0 + w - tab_w
        draw.rounded_rectangle((tx0, y0 + 1.5 * c, x0 + w - 1.5 * c, y0 + h - 1.5 * c),
                               radius=max(1, round(2 * c)), fill=theme.DAMAGE,
                               outline=(255, 255, 255))
        draw.text(((tx0 + x0 + w - 1.5 * c) / 2, y0 + h / 2 + 0.5), str(chip.damage),
                  font=_chip_font(u * 0.8), fill=(255, 255, 255), anchor="mm")
    if chip.cargo:
        # The units aboard, on a white tab at the chip's end, in their owners' ink.
        tab_w = _cargo_width(chip, u)
        end = x0 + w - _damage_width(chip, u)
        tx0 = end - tab_w
        draw.rounded_rectangle((tx0, y0 + 1.5 * c, end - 1.5 * c, y0 + h - 1.5 * c),
                               radius=max(1, round(2 * c)), fill=(255, 255, 255))
        small = _chip_font(u * 0.8)
        inks = dict(cargo_colours)
        x = tx0 + 1.5 * c
        for owner, unit, n in chip.cargo:
            cc = inks.get(owner, colours).ink
            draw_icon(draw, unit, (x, y0 + 3 * c, x + _CARGO_ICON * c, y0 + h - 3 * c), cc)
            x += _CARGO_ICON * c + 0.5 * c
            draw.text((x, y0 + h / 2 + 0.5), str(n), font=small, fill=cc, anchor="lm")
            x += small.getlength(str(n)) + 2 * c
    return sprite


def _draw_marker(draw: ImageDraw.ImageDraw, marker: Marker, box: Rect, u: float,
                 colours: dict[str, theme.PowerColours]) -> None:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if marker.kind == "battle":
        _burst(draw, cx, cy, r)
    elif marker.kind == "target":
        _target(draw, cx, cy, r)
    elif marker.kind == "repelled":
        _repelled(draw, cx, cy, r)
    else:
        _flag(draw, cx, cy, r, colours.get(marker.power, _GREY).ink)


def _target(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A target (an attack on it waiting): a red ring with cross hairs on white."""
    w = max(1, round(r / 5))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=theme.BATTLE,
                 width=w + 1)
    draw.ellipse((cx - r / 2.4, cy - r / 2.4, cx + r / 2.4, cy + r / 2.4), fill=theme.BATTLE)
    draw.line([(cx - r, cy), (cx + r, cy)], fill=theme.BATTLE, width=w)
    draw.line([(cx, cy - r), (cx, cy + r)], fill=theme.BATTLE, width=w)


def _repelled(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """An attack on a neutral failed (Europe 1940 UN-5): the rulebook's upside-down control
    marker, a dark disc with a pennant hanging down from its pole."""
    ink = theme.NEUTRAL_ARMY.text
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ink,
                 width=max(1, round(r / 6)))
    pole = cx + r * 0.35
    draw.line([(pole, cy - r * 0.62), (pole, cy + r * 0.62)], fill=ink,
              width=max(1, round(r / 5)))
    draw.polygon([(pole, cy + r * 0.62), (cx - r * 0.62, cy + r * 0.3), (pole, cy - r * 0.02)],
                 fill=ink)


def _flag(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float,
          ink: tuple[int, int, int]) -> None:
    """Taken this turn: a pennant in the taker's ink on a white disc."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ink,
                 width=max(1, round(r / 6)))
    pole = cx - r * 0.35
    draw.line([(pole, cy - r * 0.62), (pole, cy + r * 0.62)], fill=ink,
              width=max(1, round(r / 5)))
    draw.polygon([(pole, cy - r * 0.62), (cx + r * 0.62, cy - r * 0.3), (pole, cy + r * 0.02)],
                 fill=ink)


def map_items(state: GameState) -> dict[str, list[Item]]:
    """What each space shows: its markers (open battle, the mechanisms' markers, taken this
    turn), then its unit chips."""
    out: dict[str, list[Item]] = {}
    for name, b in state.battles.items():
        if b.step != "done":
            out.setdefault(name, []).append(Marker("battle"))
    for mark in hooks.markers():
        for name in mark.spaces(state):
            out.setdefault(name, []).append(Marker(mark.glyph))
    for name in sorted(state.captured_this_turn):
        holder = state.owners.get(name)
        out.setdefault(name, []).append(Marker("captured", holder or ""))
    for name, chips in stacks(state).items():
        out.setdefault(name, []).extend(chips)
    for name, look in standing_neutrals(state).items():
        if state.owners.get(name) is None:
            out.setdefault(name, []).extend(
                Chip(NEUTRAL_ARMY, unit, n) for unit, n in look.army if n > 0)
    return out


def standing_neutrals(state: GameState) -> dict[str, hooks.NeutralLook]:
    """The neutral territories with an alignment that still stand (nobody holds them): as the
    mechanism governing them has them, else as the edition prints them (NT-1, NT-2: an army of
    infantry)."""
    looks = hooks.neutral_looks(state)
    if looks is not None:
        return looks
    return {t: hooks.NeutralLook(n.alignment, (("infantry", n.army),) if n.army else ())
            for t, n in state.edition.map.neutrals.items() if state.owners.get(t) is None}


_GREY = theme.PowerColours(fill=(180, 180, 180), ink=(80, 80, 80), text=(255, 255, 255))
