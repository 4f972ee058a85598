"""The battle board: who fought, every round's dice with the hits marked, casualties, outcome,
and the odds as they stood before the first roll (DESIGN §8).

``battle_record(state, events)`` reads one battle out of the event log (``state`` is any state
in which all of the battle's units still exist, e.g. right after ``BattleOpened``);
``render_battle(record, edition, odds=...)`` draws it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from odds.ask import OddsResult
from render import theme
from render.icons import draw_icon
from rules import events as ev
from rules.battle.retreat import stays_behind
from rules.battle.rounds import casualties_of
from rules.edition import Edition
from rules.state import GameState
from rules.turn import registry as reg
from rules.words import plural

WIDTH = 1200
_PAD = 24


@dataclass
class SideRecord:
    """One side of a battle."""

    powers: list[str]
    start: dict[str, int] = field(default_factory=dict)  # unit type -> count at the start
    lost: dict[str, int] = field(default_factory=dict)

    def survivors(self) -> dict[str, int]:
        return {t: n - self.lost.get(t, 0) for t, n in self.start.items()
                if n - self.lost.get(t, 0) > 0}


# What a row of dice is, beside its units (SS-4, R-LC-02, R-AMP-05).
_STAGE_TAGS = {"strike": " (surprise strike)", "bombard": " (bombardment)"}


@dataclass
class Fire:
    """One side's dice in one round."""

    side: str  # "attacker" or "defender"
    stage: str  # "fire", "strike", "aa" (antiaircraft gun) or "bombard"
    groups: list[tuple[str, int, tuple[int, ...]]]  # unit type, value, faces
    hits: int


@dataclass
class RoundRecord:
    number: int
    fire: list[Fire] = field(default_factory=list)
    lost: list[tuple[str, str, int]] = field(default_factory=list)  # side, unit type, count
    damaged: list[tuple[str, str, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class BattleRecord:
    """One battle, read from its events."""

    space: str
    sea: bool
    amphibious: bool
    attacker: SideRecord
    defender: SideRecord
    rounds: list[RoundRecord]
    result: str | None  # BattleEnded.result, None while going on
    retreat_to: str | None = None
    # Who went where on a retreat: units to ``retreat_to``; aircraft staying in the space to
    # land in Noncombat Move (CC-6B).
    retreated: dict[str, int] = field(default_factory=dict)
    stayed: dict[str, int] = field(default_factory=dict)
    captured_by: str | None = None
    notes: list[str] = field(default_factory=list)


def _count(types: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in types:
        out[t] = out.get(t, 0) + 1
    return out


def battle_record(
    state: GameState, events: Sequence[ev.Event], space: str | None = None
) -> BattleRecord:
    """The last battle opened in ``events`` (in ``space`` if given), read from its events;
    ``ValueError`` if there is none."""
    opened_at = max(
        (i for i, e in enumerate(events)
         if isinstance(e, ev.BattleOpened) and space in (None, e.space)),
        default=None,
    )
    if opened_at is None:
        raise ValueError("no BattleOpened among the events")
    opened = events[opened_at]
    assert isinstance(opened, ev.BattleOpened)
    space = opened.space
    return _read(state, opened, events[opened_at + 1:])


def _read(state: GameState, opened: ev.BattleOpened, events: Sequence[ev.Event]) -> BattleRecord:
    space = opened.space
    units = state.units
    side_of: dict[int, str] = {}
    for uid in (*opened.attacking, *opened.seaborne, *opened.launched):
        side_of[uid] = "attacker"
    for uid in opened.defending:
        side_of[uid] = "defender"
    attacker_side = state.edition.powers[opened.attacker].side

    def type_of(uid: int) -> str:
        u = units.get(uid)
        return u.type if u is not None else "unit"

    def side_for(uid: int) -> str:
        if uid in side_of:
            return side_of[uid]
        u = units.get(uid)
        if u is not None and state.edition.powers[u.owner].side == attacker_side:
            return "attacker"
        return "defender"

    # Seaborne units may be listed among the attacking ones too: each unit counts once.
    attacking = list(dict.fromkeys((*opened.attacking, *opened.seaborne)))
    att = SideRecord([opened.attacker], _count([type_of(i) for i in attacking]))
    dfd = SideRecord(list(opened.defenders), _count([type_of(i) for i in opened.defending]))
    rec = BattleRecord(space, opened.sea, opened.amphibious, att, dfd, [], None)
    rnd: RoundRecord | None = None

    def current() -> RoundRecord:
        nonlocal rnd
        if rnd is None:
            rnd = RoundRecord(1)
            rec.rounds.append(rnd)
        return rnd

    ended = False
    for e in events:
        if ended:
            # Control changes right after the battle's end (CC-7c).
            if isinstance(e, ev.TerritoryCaptured) and e.space == space:
                rec.captured_by = e.owner
                continue
            break
        if getattr(e, "space", space) != space and not isinstance(e, ev.UnitsRemoved):
            continue
        if isinstance(e, ev.BattleRoundStarted):
            rnd = RoundRecord(e.round)
            rec.rounds.append(rnd)
        elif isinstance(e, ev.DiceRolled):
            if ev.stage_apart(e.stage):
                continue  # a mechanism's own dice, outside the battle
            if rnd is None or rnd.number != e.round:
                rnd = RoundRecord(e.round)
                rec.rounds.append(rnd)
            rnd.fire.append(Fire(e.side, e.stage, [(g[0], g[1], tuple(g[2])) for g in e.groups],
                                 e.hits))
        elif isinstance(e, ev.CasualtiesChosen):
            for t, n in _count([type_of(i) for i in e.damaged]).items():
                current().damaged.append((e.side, t, n))
        elif isinstance(e, ev.UnitsRemoved):
            if not any(i in side_of or i in units for i in e.ids):
                continue
            removed_in = casualties_of(e)  # a battle's casualties, and which battle's
            if removed_in is not None and removed_in != space:
                continue
            by_side: dict[str, list[str]] = {}
            for i in e.ids:
                by_side.setdefault(side_for(i), []).append(type_of(i))
            for side, types in by_side.items():
                rec_side = att if side == "attacker" else dfd
                for t, n in _count(types).items():
                    rec_side.lost[t] = rec_side.lost.get(t, 0) + n
                    current().lost.append((side, t, n))
            if removed_in is None:
                current().notes.append(f"{e.reason} ({e.rule})" if e.rule else e.reason)
        elif isinstance(e, ev.SubmarinesDeclared):
            if e.submerge:
                current().notes.append(f"{len(e.submerge)} {e.side} submarine(s) submerged")
        elif (note := reg.battle_note_for(type(e))) is not None:
            current().notes.append(str(note(e)))  # a mechanism's event in the battle
        elif isinstance(e, ev.SeaborneLanded):
            joined = [i for i in e.units if i not in side_of]  # not counted at the opening
            for i in joined:
                side_of[i] = "attacker"
            for t, n in _count([type_of(i) for i in joined]).items():
                att.start[t] = att.start.get(t, 0) + n
        elif isinstance(e, ev.BattleRetreated):
            rec.retreat_to = e.to
            for i in e.units:
                into = rec.stayed if stays_behind(state.edition, e, type_of(i)) else rec.retreated
                into[type_of(i)] = into.get(type_of(i), 0) + 1
            # AA-7: seaborne units fight on, so the outcome will not tell the retreat.
            current().notes.append(_retreat_text(rec))
        elif isinstance(e, ev.TerritoryCaptured) and e.space == space:
            rec.captured_by = e.owner
        elif isinstance(e, ev.BattleEnded):
            rec.result = e.result
            ended = True
    told = _retreat_text(rec)
    if rec.result == "retreat" and rec.rounds and told in rec.rounds[-1].notes:
        rec.rounds[-1].notes.remove(told)  # the outcome line tells it
    # Rounds where nothing happened (e.g. a pressed round opened but not fought) are dropped.
    rec.rounds = [r for r in rec.rounds if r.fire or r.lost or r.notes or r.damaged]
    return rec


# --------------------------------------------------------------------------------------------
# Drawing


def _plural(t: str, n: int) -> str:
    return t if n == 1 else plural(t)


def _units_text(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {_plural(t, n)}" for t, n in units.items()) or "none"


def _outcome(rec: BattleRecord, edition: Edition) -> str:
    text = _outcome_text(rec, edition)
    # A name may end with its own full stop ('Ukraine S.S.R.'): one is enough.
    return text[:-1] if text.endswith("..") else text


def _outcome_text(rec: BattleRecord, edition: Edition) -> str:
    att = rec.attacker.powers[0]
    dfd = " and ".join(rec.defender.powers) or "the defender"
    holds = "hold" if len(rec.defender.powers) > 1 else "holds"
    match rec.result:
        case None:
            return "The battle goes on."
        case "attacker":
            if rec.captured_by == att:
                return f"{att} wins and takes {rec.space}."
            if rec.captured_by:
                return f"{att} wins and liberates {rec.space} for {rec.captured_by}."
            return f"{att} wins: {rec.space} is cleared of {dfd}."
        case "defender":
            return f"{dfd} {holds} {rec.space}."
        case "both destroyed":
            return "Both sides are destroyed."
        case "retreat":
            return f"{_retreat_text(rec)}; {dfd} {holds} {rec.space}."
        case _:
            return "No combat: nobody left can hit anybody."


def _retreat_text(rec: BattleRecord) -> str:
    """Where each retreating unit went: to the retreat space, or aircraft staying (CC-6B)."""
    att = rec.attacker.powers[0]
    parts = []
    if rec.retreated and rec.retreat_to:
        parts.append(f"{att} retreats {_units_text(rec.retreated)} to {rec.retreat_to}")
    if rec.stayed:
        verb = "stays" if sum(rec.stayed.values()) == 1 else "stay"
        who = "" if parts else f"{att}: "
        parts.append(f"{who}{_units_text(rec.stayed)} {verb} in {rec.space} to land later")
    if not parts:
        where = f" to {rec.retreat_to}" if rec.retreat_to else ""
        return f"{att} retreats{where}"
    return "; ".join(parts)


def _pct(x: float) -> str:
    """A chance as players read it: never rounded to a certainty it is not."""
    if x <= 0 or x >= 1:
        return f"{100 * max(0.0, min(1.0, x)):.0f}%"
    if x < 0.001:
        return "<0.1%"
    if x > 0.999:
        return ">99.9%"
    if 0.1 <= x <= 0.9:
        return f"{100 * x:.0f}%"
    return f"{100 * x:.1f}%"


def odds_line(r: OddsResult) -> str:
    how = "exact" if r.method == "exact" else f"Monte Carlo, {r.trials or 0:,} battles"
    draw = r.both_destroyed + r.stalemate
    return (f"Odds before the first roll: attacker {_pct(r.attacker_win)}, defender "
            f"{_pct(r.defender_win)}, neither {_pct(draw)} ({how}; default casualties, "
            f"fought to the end).")


_DIE = 30  # a die's side on the board
_DIE_GAP = 6
_ROW = _DIE + 10  # a row of dice


@dataclass
class DiceLine:
    """One line of a side's dice in a round: a group's tag on its first line, its faces."""

    tag: str
    value: int
    faces: tuple[int, ...]


def _rolled_hits(f: Fire) -> int:
    """Dice that hit: each face at or under its value (CMP-3)."""
    return sum(1 for _, value, faces in f.groups for x in faces if x <= value)


def _tag(f: Fire, unit: str, value: int, n: int) -> str:
    if f.stage == "aa":
        return f"{unit} ≤{value} (before the battle)"
    return f"{_plural(unit, n)} ≤{value}" + _STAGE_TAGS.get(f.stage, "")


def dice_lines(r: RoundRecord, side: str, width: float) -> list[DiceLine]:
    """Every die ``side`` rolled in round ``r``, wrapped into lines ``width`` pixels wide: none
    is left out, so the red dice add up to the hits the round's header counts."""
    small = theme.font(15)
    out: list[DiceLine] = []
    for f in (f for f in r.fire if f.side == side):
        for unit, value, faces in f.groups:
            tag = _tag(f, unit, value, len(faces))
            start = max(150, round(small.getlength(tag)) + 12)
            per_line = max(1, int((width - start + _DIE_GAP) // (_DIE + _DIE_GAP)))
            for i in range(0, max(1, len(faces)), per_line):
                out.append(DiceLine(tag if i == 0 else "", value, faces[i:i + per_line]))
    return out


def _dice_rows(r: RoundRecord, width: float) -> int:
    return max(1, *(len(dice_lines(r, s, width)) for s in ("attacker", "defender")))


def hits_text(r: RoundRecord, side: str) -> str:
    """The round's header for one side: hits scored, and any surplus (dice that hit with no
    target left for them, H-7), so that the two add up to the red dice."""
    fire = [f for f in r.fire if f.side == side]
    hits = sum(f.hits for f in fire)
    rolled = sum(_rolled_hits(f) for f in fire)
    text = f"{hits} hit{'s' if hits != 1 else ''}"
    if rolled > hits:
        text += f" + {rolled - hits} surplus"
    return text


def round_summary(rec: BattleRecord, r: RoundRecord) -> str:
    """The round's losses and damage, in one sentence."""
    lost_att = {t: n for s, t, n in r.lost if s == "attacker"}
    lost_dfd = {t: n for s, t, n in r.lost if s == "defender"}
    parts = []
    if lost_att:
        parts.append(f"{rec.attacker.powers[0]} lost {_units_text(lost_att)}")
    if lost_dfd:
        parts.append(f"{' and '.join(rec.defender.powers)} lost {_units_text(lost_dfd)}")
    parts += [f"{n} {_plural(t, n)} of the {s} damaged" for s, t, n in r.damaged]
    return "; ".join(parts) + "." if parts else "No casualties."


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` (words kept whole)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def _die(draw: ImageDraw.ImageDraw, x: float, y: float, face: int, hit: bool, s: int) -> None:
    fill = theme.HIT if hit else (255, 255, 255)
    outline = theme.HIT if hit else theme.MISS
    draw.rounded_rectangle((x, y, x + s, y + s), radius=5, fill=fill, outline=outline, width=2)
    f = theme.font(round(s * 0.62), bold=True)
    draw.text((x + s / 2, y + s / 2), str(face), font=f,
              fill=(255, 255, 255) if hit else (90, 90, 90), anchor="mm")


def _title(rec: BattleRecord) -> str:
    """'Battle of X' and the battle's own round (a battle's rounds are not the game's)."""
    last = rec.rounds[-1].number if rec.rounds else 0
    if rec.result is None:
        when = f"battle round {last}" if last else "not fought yet"
    else:
        when = f"{last} battle round{'s' if last != 1 else ''}" if last else "no round fought"
    return f"Battle of {rec.space} · {when}"


def render_battle(
    rec: BattleRecord,
    edition: Edition,
    *,
    odds: OddsResult | None = None,
    odds_note: str = "",
    title: str = "",
) -> Image.Image:
    """The battle board as an RGB image. ``odds_note`` replaces the odds line when ``odds`` is
    None (e.g. why there are none)."""
    colours = theme.power_colours(edition)
    grey = theme.PowerColours(fill=(190, 190, 190), ink=(80, 80, 80), text=(255, 255, 255))
    h1, h2, body, small = (theme.font(26, bold=True), theme.font(19, bold=True),
                           theme.font(17), theme.font(15))
    die = _DIE
    col_w = (WIDTH - 3 * _PAD) // 2
    # Height: header, sides, odds, rounds, outcome.
    n_types = max(len(rec.attacker.start), len(rec.defender.start), 1)
    round_heights = []
    for r in rec.rounds:
        rows = _dice_rows(r, col_w)
        lines = len(_wrap(round_summary(rec, r), body, WIDTH - 2 * _PAD))
        round_heights.append(40 + rows * (die + 10) + 28 * (lines + len(r.notes)) + 14)
    height = 60 + 20 + 44 + n_types * 34 + 20 + 44 + sum(round_heights) + 90
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, 59), fill=theme.BAR)
    kind = "sea battle" if rec.sea else ("amphibious assault" if rec.amphibious else "battle")
    head = _title(rec) + (f" · {title}" if title else "")
    d.text((_PAD, 30), head, font=h1, fill=theme.BAR_TEXT, anchor="lm")
    d.text((WIDTH - _PAD, 30), kind, font=h2, fill=(200, 200, 200), anchor="rm")
    y = 80
    sides = (("Attacker", rec.attacker, "attacker"), ("Defender", rec.defender, "defender"))
    for i, (label, side, _key) in enumerate(sides):
        x = _PAD + i * (col_w + _PAD)
        c = colours.get(side.powers[0], grey) if side.powers else grey
        d.rounded_rectangle((x, y, x + col_w, y + 38), radius=6, fill=c.ink)
        d.text((x + 12, y + 19), f"{label}: {' and '.join(side.powers)}", font=h2,
               fill=c.text, anchor="lm")
        yy = y + 50
        for t, n in side.start.items():
            lost = side.lost.get(t, 0)
            d.rounded_rectangle((x + 4, yy, x + 40, yy + 24), radius=4, fill=c.ink)
            draw_icon(d, t, (x + 8, yy + 4, x + 36, yy + 20), c.text)
            d.text((x + 52, yy + 12), f"{n} {_plural(t, n)}", font=body, fill=theme.TEXT,
                   anchor="lm")
            if lost:
                left = n - lost
                d.text((x + col_w - 8, yy + 12), f"lost {lost} · {left} left", font=body,
                       fill=theme.HIT, anchor="rm")
            else:
                d.text((x + col_w - 8, yy + 12), "no losses", font=body, fill=(90, 90, 90),
                       anchor="rm")
            yy += 34
    y += 50 + n_types * 34 + 10
    d.line([(_PAD, y), (WIDTH - _PAD, y)], fill=(180, 180, 180), width=1)
    y += 10
    if odds is not None:
        text = odds_line(odds)
    else:
        text = odds_note or "Odds before the first roll: not available."
    d.text((_PAD, y + 14), text, font=small, fill=(50, 50, 50), anchor="lm")
    y += 44
    for r, rh in zip(rec.rounds, round_heights, strict=True):
        d.rounded_rectangle((_PAD - 8, y, WIDTH - _PAD + 8, y + rh - 10), radius=8,
                            fill=(250, 250, 250), outline=(200, 200, 200))
        d.text((_PAD, y + 18), f"Round {r.number}", font=h2, fill=theme.TEXT, anchor="lm")
        for i, side_key in enumerate(("attacker", "defender")):
            x0 = _PAD + i * (col_w + _PAD)
            last_dx: float = x0 + 150
            yy = y + 40
            if any(f.side == side_key for f in r.fire):
                text = hits_text(r, side_key)
                scored = any(f.hits or _rolled_hits(f) for f in r.fire if f.side == side_key)
                d.text((x0 + col_w, y + 18), text, font=h2,
                       fill=theme.HIT if scored else (90, 90, 90), anchor="rm")
            for line in dice_lines(r, side_key, col_w):
                if line.tag:
                    d.text((x0, yy + die / 2), line.tag, font=small, fill=theme.TEXT,
                           anchor="lm")
                tag_w = max(150, round(small.getlength(line.tag)) + 12) if line.tag else None
                if tag_w is None:
                    dx = last_dx
                else:
                    dx = last_dx = x0 + tag_w
                for face in line.faces:
                    _die(d, dx, yy, face, face <= line.value, die)
                    dx += die + _DIE_GAP
                yy += _ROW
        yy = y + 40 + _dice_rows(r, col_w) * _ROW
        for i, said in enumerate(_wrap(round_summary(rec, r), body, WIDTH - 2 * _PAD)):
            yy += 28 if i else 0
            d.text((_PAD, yy + 12), said, font=body, fill=theme.TEXT, anchor="lm")
        for note in r.notes:
            yy += 28
            d.text((_PAD, yy + 12), note, font=small, fill=(70, 70, 70), anchor="lm")
        y += rh
    y += 6
    c = colours.get(rec.attacker.powers[0], grey)
    won = rec.result == "attacker"
    box = c if won else (colours.get(rec.defender.powers[0], grey) if rec.defender.powers
                         else grey)
    d.rounded_rectangle((_PAD - 8, y, WIDTH - _PAD + 8, y + 60), radius=8, fill=box.ink)
    d.text((_PAD + 6, y + 20), _outcome(rec, edition), font=h2, fill=box.text, anchor="lm")
    surv = (f"Left: {rec.attacker.powers[0]} {_units_text(rec.attacker.survivors())}; "
            f"{' and '.join(rec.defender.powers)} {_units_text(rec.defender.survivors())}.")
    d.text((_PAD + 6, y + 44), surv, font=small, fill=box.text, anchor="lm")
    return img.crop((0, 0, WIDTH, min(height, y + 60 + _PAD)))
