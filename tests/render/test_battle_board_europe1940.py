"""Battle boards of Europe 1940 battles (issue 16): the edition's units (artillery, mechanized
infantry, tactical bombers, AA guns, cruisers, two-hit carriers) on the board, paired units'
dice at their paired value, AA fire and bombardment rows, long round lines wrapped."""

from __future__ import annotations

from PIL import Image

from odds.ask import battle_odds
from render import theme
from render.battle import (
    BattleRecord,
    RoundRecord,
    _wrap,
    battle_record,
    render_battle,
    round_summary,
)
from rules.dice import HmacDice
from rules.events import BattleOpened
from tests.rules.e40._battles import BEACH, E40, LAND, SEA, land_attack, landing, sea_attack
from tests.rules.helpers import Game


def _board(g: Game, space: str, key: bytes) -> tuple[BattleRecord, Image.Image]:
    opened = max(i for i, e in enumerate(g.events) if isinstance(e, BattleOpened))
    before = g.state
    odds = battle_odds(before, space)
    g.dice = HmacDice(key, game="e40")
    g.fight_out(space)
    rec = battle_record(before, g.events[opened:], space)
    return rec, render_battle(rec, E40, odds=odds)


def test_CA_1_A_21_land_battle_board_shows_pairs_and_AA_fire() -> None:
    g = land_attack({"infantry": 3, "artillery": 2, "mechanized infantry": 2, "tank": 1,
                     "fighter": 2, "tactical bomber": 2},
                    {"infantry": 6, "artillery": 1, "aa gun": 2, "tactical bomber": 1})
    rec, image = _board(g, LAND, b"land")
    first = rec.rounds[0]
    stages = {f.stage for f in first.fire}
    assert "aa" in stages
    values = {(t, v) for f in first.fire if f.side == "attacker" for t, v, _ in f.groups}
    assert ("infantry", 2) in values and ("tactical bomber", 4) in values
    assert set(rec.defender.start) == {"infantry", "artillery", "aa gun", "tactical bomber"}
    assert image.width == 1200 and image.height > 400


def test_AA_2_amphibious_board_shows_bombardment() -> None:
    g = landing({"battleship": 1, "cruiser": 1}, {"infantry": 2, "mechanized infantry": 1,
                                                  "artillery": 1}, {"infantry": 3, "aa gun": 1})
    rec, _image = _board(g, BEACH, b"beach")
    assert next(f.groups[0][:2] for f in rec.rounds[0].fire if f.stage == "bombard") == (
        "battleship", 4)


def test_GC_3_sea_board_long_round_lines_wrap() -> None:
    g = sea_attack({"cruiser": 2, "submarine": 2, "fighter": 1, "tactical bomber": 1},
                   {"battleship": 1, "aircraft carrier": 1, "fighter": 2, "transport": 1})
    rec, image = _board(g, SEA, b"sea")
    busy = RoundRecord(9, lost=[("attacker", "fighter", 1), ("attacker", "tactical bomber", 1),
                                ("attacker", "submarine", 2), ("defender", "fighter", 2)],
                       damaged=[("defender", "aircraft carrier", 1),
                                ("defender", "battleship", 1)])
    body = theme.font(17)
    lines = _wrap(round_summary(rec, busy), body, 1200 - 2 * 24)
    assert len(lines) == 2 and all(body.getlength(x) <= 1200 - 2 * 24 for x in lines)
    assert " ".join(lines) == round_summary(rec, busy)
    rec.rounds.append(busy)
    assert render_battle(rec, E40).height == image.height + _round_height(busy, 2)


def _round_height(r: RoundRecord, lines: int) -> int:
    """A round's box without dice: its header, the summary's lines, the notes."""
    return 40 + 1 * (30 + 10) + 28 * (lines + len(r.notes)) + 14
