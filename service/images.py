"""The render hook: which images an answer carries, drawn from the event log (DESIGN §8).

After an order whose events change the phase, the map as it now stands, with arrows for the
moves of the phase that just ended; after each battle that ended, its battle board; on request
(``game map [space]``) the map with the current phase's moves. The functions here are
synchronous and CPU-bound: the service calls them through ``asyncio.to_thread``. Front ends
turn ``RenderedImage`` into files (the local table) or attachments (Discord).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from render import png_bytes
from render.battle import battle_record, render_battle
from render.geo import geometry_for
from render.map import render_map
from rules import events as ev
from rules.engine import replay
from rules.state import GameState
from rules.words import possessive

ImageKind = Literal["map", "battle"]


@dataclass(frozen=True)
class RenderedImage:
    """One PNG an answer carries."""

    kind: ImageKind
    name: str  # a file name: unique within the game, safe on every file system
    png: bytes
    caption: str


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def _is_boundary(e: ev.Event) -> bool:
    return isinstance(e, ev.PhaseChanged | ev.TurnStarted | ev.GameStarted)


def phase_moves(log: Sequence[ev.Event], end: int | None = None) -> list[ev.UnitsMoved]:
    """The moves of the phase going on at ``log[:end]`` (default: the whole log)."""
    stop = len(log) if end is None else end
    out: list[ev.UnitsMoved] = []
    for e in reversed(log[:stop]):
        if _is_boundary(e):
            break
        if isinstance(e, ev.UnitsMoved):
            out.append(e)
    out.reverse()
    return out


def wants_images(events: Sequence[ev.Event]) -> bool:
    """Whether these new events call for images (a phase change or a battle's end)."""
    return any(isinstance(e, ev.PhaseChanged | ev.BattleEnded) for e in events)


def map_image(
    state: GameState,
    log: Sequence[ev.Event],
    game_id: str,
    *,
    focus: str | None = None,
    moves: Sequence[ev.UnitsMoved] | None = None,
    note: str = "",
) -> RenderedImage:
    """The map of ``state`` (the end of ``log``); arrows for ``moves`` (default: this phase's)."""
    geometry = geometry_for(state.edition)
    shown = phase_moves(log) if moves is None else moves
    title = f"Game {game_id}" + (f" · {note}" if note else "")
    image = render_map(state, geometry, moves=shown, title=title, focus=focus)
    where = f"-{_slug(focus)}" if focus else ""
    name = (f"game-{game_id}-{len(log):05d}-map-r{state.round}-{_slug(state.power)}-"
            f"{state.phase}{where}.png")
    caption = f"Map{' around ' + focus if focus else ''}: round {state.round}, {state.power}, "
    caption += state.edition.phase_info[state.phase].name if state.phase in \
        state.edition.phase_info else state.phase
    return RenderedImage("map", name, png_bytes(image), caption)


def battle_image(log: Sequence[ev.Event], end: int, game_id: str) -> RenderedImage:
    """The board of the battle that ended at ``log[end]`` (a ``BattleEnded``)."""
    ended = log[end]
    assert isinstance(ended, ev.BattleEnded)
    space = ended.space
    opened = max(
        i for i in range(end) if isinstance(log[i], ev.BattleOpened)
        and getattr(log[i], "space", None) == space
    )
    at_open = replay(log[: opened + 1])
    rec = battle_record(at_open, log[opened : end + 2], space)
    odds_result = None
    note = ""
    try:
        from odds.ask import battle_odds
    except ImportError:  # odds.ask not there: the board says so
        note = "Odds before the first roll: not available in this version."
    else:
        try:
            # The battle's own units, AA guns and bombarding ships, each side's developments.
            odds_result = battle_odds(at_open, space)
        except Exception as e:  # odds cannot model it (e.g. units it refuses): say so
            note = f"Odds before the first roll: not available ({e})."
    image = render_battle(rec, at_open.edition, odds=odds_result, odds_note=note,
                          title=f"Game {game_id}, game round {at_open.round}")
    name = f"game-{game_id}-{end + 1:05d}-battle-{_slug(space)}.png"
    return RenderedImage("battle", name, png_bytes(image), f"Battle of {space}")


def images_after(
    log: Sequence[ev.Event], new: int, game_id: str, state: GameState | None = None
) -> list[RenderedImage]:
    """The images for the last ``new`` events of ``log``: battle boards, then the map if the
    phase changed (arrows: the moves of the phase that ended)."""
    first = len(log) - new
    out = [battle_image(log, i, game_id) for i in range(first, len(log))
           if isinstance(log[i], ev.BattleEnded)]
    changes = [i for i in range(first, len(log)) if isinstance(log[i], ev.PhaseChanged)]
    if changes:
        ended_at = changes[0]
        # The phase that ended is the one going on just before the first change.
        before = phase_moves(log, ended_at)
        ended_phase = next(
            (e for e in reversed(log[:ended_at]) if isinstance(e, ev.PhaseChanged)), None
        )
        st = state if state is not None else replay(log)
        note = ""
        if ended_phase is not None:
            info = st.edition.phase_info.get(ended_phase.phase)
            name = info.name if info else ended_phase.phase
            note = f"after {possessive(ended_phase.power)} {name}"
        out.append(map_image(st, log, game_id, moves=before, note=note))
    return out
