"""Draw the images the documentation shows (``docs/images/*.png``), from positions of our own.

Usage (from the repository root)::

    python -m tools.doc_images            # writes docs/images/*.png
    python -m tools.doc_images --check    # exit 1 if one is out of date

- ``map-1941.png``: the whole 1941 board in round 3 of a seeded random game, battles open
  (``random_rounds``, the same play as the render tests' crowded positions);
- ``map-classic-germany.png``: ``game map Germany`` on the Classic board at the same moment of
  its own random game;
- ``map-europe1940.png`` and ``map-europe1940-germany.png``: the whole Europe 1940 board and
  ``game map Germany`` in round 2 of a position of our own (``europe1940_position``): Germany
  at war with the Soviet Union too, holding France and Yugoslavia (a neutral taken); victory
  cities in their holders' colours, convoy zones, neutrals by alignment with their armies,
  facilities, and whom each power is at war with;
- ``battle-big.png``: the board of a big battle (40 German units against 26 Soviet ones in
  Ukraine, seeded dice) with its odds;
- ``pictograms.png``: every unit pictogram side by side, at map size and enlarged.

``--check`` compares with a tolerance (fonts and antialiasing may differ by a shade between
machines), as the render tests' golden images do.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from PIL import Image, ImageChops

from odds.ask import battle_odds
from render.battle import battle_record, render_battle
from render.geo import geometry_for
from render.icons import pictogram_sheet
from render.map import render_map
from rules import engine
from rules import orders as od
from rules.defaults import default_orders
from rules.dice import HmacDice, ScriptedDice
from rules.events import BattleOpened, Event
from rules.legal import legal_orders
from rules.state import GameState

DOCS = Path(__file__).resolve().parents[1] / "docs" / "images"

# Percent chance of ending a phase when that is legal: low, so the board fills with moves.
END_BIAS = {"research": 60, "purchase": 25, "combat_move": 8, "conduct_combat": 50,
            "noncombat_move": 10, "mobilize": 5}


def random_rounds(edition: str, seed: int, rounds: int, stop: str | None = None) -> GameState:
    """Seeded random legal play from the setup until ``rounds`` full rounds are over, or, with
    ``stop`` (a phase), until round ``rounds`` first reaches that phase with a battle open (as
    bench/engine.py plays: whole stacks preferred, a stuck movement phase taken back)."""
    rng = random.Random(seed)
    dice = HmacDice(f"render-{seed}".encode(), game="render")
    state = engine.replay(engine.new_game(edition))
    clean = state  # undo goes back no further than this
    dirty, force_end = 0, False
    while state.round <= rounds and state.winner is None:
        if stop and state.round == rounds and state.phase == stop and any(
                b.step != "done" for b in state.battles.values()):
            break
        power = rng.choice(engine.pending(state)).power
        legal = list(legal_orders(state, power))
        ends = [o for o in legal if isinstance(o, od.EndPhase)]
        if (clean.round, clean.power, clean.phase) != (state.round, state.power, state.phase):
            clean, dirty = state, 0
        if state.phase in ("combat_move", "noncombat_move") and power == state.power:
            if ends:
                clean, dirty = state, 0
            else:
                dirty += 1
                if (dirty > 3 or not legal) and clean is not state:
                    state, dirty, force_end = clean, 0, True
                    continue
        others = [o for o in legal if not isinstance(o, od.EndPhase)]
        if ends and (force_end or not others
                     or rng.randrange(100) < END_BIAS.get(state.phase, 50)):
            order: od.Order = ends[0]
        else:
            order = rng.choices(others, [sum(o.units.values()) if isinstance(o, od.Move) else 1
                                         for o in others])[0]
        force_end = False
        for e in engine.decide(state, order, dice):
            state = engine.evolve(state, e)
    return state


def big_battle() -> tuple[list[Event], int]:
    """Germany attacks Ukraine with 40 units against 26 (seeded dice): the log, and the index
    of its BattleOpened."""
    pos = {"edition": "1941", "power": "Germany", "phase": "combat_move",
           "clear_all_units": False, "owners": {"Ukraine": "Soviet Union"},
           "units": {
               "Eastern Europe": {"Germany": {"infantry": 18, "tank": 14, "fighter": 6,
                                              "bomber": 2}},
               "Ukraine": {"Soviet Union": {"infantry": 20, "tank": 5, "fighter": 1}}}}
    log: list[Event] = list(engine.new_game("1941", (), pos))
    state = engine.replay(log)
    rng = random.Random(14)
    dice = ScriptedDice([rng.randint(1, 6) for _ in range(2000)])
    orders: list[od.Order] = [
        od.Move(power="Germany", units={"infantry": 18, "tank": 14}, frm="Eastern Europe",
                to="Ukraine"),
        od.Move(power="Germany", units={"fighter": 6, "bomber": 2}, frm="Eastern Europe",
                to="Ukraine"),
        od.EndPhase(power="Germany"),
        od.Battle(power="Germany", space="Ukraine", all=True),
    ]
    while orders:
        for e in engine.decide(state, orders.pop(0), dice):
            state = engine.evolve(state, e)
            log.append(e)
        if not orders:
            # The defender's choices answered as the referee would at a deadline.
            orders = [o for o in default_orders(state)
                      if getattr(o, "space", None) == "Ukraine"][:1]
    opened = max(i for i, e in enumerate(log) if isinstance(e, BattleOpened))
    return log, opened


def europe1940_position() -> GameState:
    """Europe 1940 in round 2, Germany's Combat Move: Germany has declared war on the Soviet
    Union, holds France (Paris) and has taken Yugoslavia, a pro-Allied neutral."""
    pos = {"edition": "europe1940", "round": 2, "power": "Germany", "phase": "combat_move",
           "war": [["Germany", "United Kingdom"], ["Germany", "France"],
                   ["Italy", "United Kingdom"], ["Italy", "France"],
                   ["Germany", "Soviet Union"]],
           "owners": {"France": "Germany", "Yugoslavia": "Germany"},
           "units": {"France": {"Germany": {"infantry": 4, "tank": 2, "fighter": 1}},
                     "Yugoslavia": {"Germany": {"infantry": 2, "tank": 1}}}}
    return engine.replay(engine.new_game("europe1940", (), pos))


def images(a1941: GameState | None = None, classic: GameState | None = None,
           ) -> dict[str, Image.Image]:
    """The documentation's images by file name (positions computed unless given)."""
    a1941 = a1941 or random_rounds("1941", 5, 3, stop="conduct_combat")
    classic = classic or random_rounds("classic", 5, 3, stop="conduct_combat")
    e40 = europe1940_position()
    log, opened = big_battle()
    at_open = engine.replay(log[: opened + 1])
    rec = battle_record(at_open, log[opened:])
    return {
        "map-1941.png": render_map(a1941, geometry_for(a1941.edition), title="Game 7"),
        "map-classic-germany.png": render_map(classic, geometry_for(classic.edition),
                                              title="Game 8", focus="Germany"),
        "map-europe1940.png": render_map(e40, geometry_for(e40.edition), title="Game 9"),
        "map-europe1940-germany.png": render_map(e40, geometry_for(e40.edition), title="Game 9",
                                                 focus="Germany"),
        "battle-big.png": render_battle(rec, at_open.edition, odds=battle_odds(at_open, "Ukraine"),
                                        title="Game 7, game round 1"),
        "pictograms.png": pictogram_sheet(),
    }


def differs(actual: Image.Image, path: Path) -> str:
    """Why ``actual`` does not match the image at ``path`` ('' if it does, within a shade)."""
    if not path.exists():
        return "missing"
    expected = Image.open(path).convert("RGB")
    actual = actual.convert("RGB")
    if expected.size != actual.size:
        return f"size {actual.size} != {expected.size}"
    hist = ImageChops.difference(actual, expected).convert("L").histogram()
    far = sum(hist[48:]) / (actual.width * actual.height)
    return f"{far:.2%} of pixels differ" if far > 0.01 else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.doc_images", description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    DOCS.mkdir(parents=True, exist_ok=True)
    stale = 0
    for name, image in images().items():
        path = DOCS / name
        if args.check:
            why = differs(image, path)
            if why:
                print(f"{path} is out of date ({why}); run python -m tools.doc_images",
                      file=sys.stderr)
                stale += 1
        else:
            image.save(path, optimize=True)
            print(f"wrote {path} ({image.width}x{image.height}, {path.stat().st_size:,} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
