"""Random legal play through Classic battles: submarines that strike and withdraw, AA guns,
bombardment, raids and retreats, with random forces and choices (DESIGN §9 properties).

Every order ``legal_orders`` lists is accepted; Combat always ends; the log replays to the
live state; no unit appears, and units leave only through ``UnitsRemoved``.
"""

from __future__ import annotations

import random

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.dice import HmacDice
from rules.legal import legal_orders
from rules.position import state_json
from tests.rules.helpers import Game, position

GER, UK, SU = "Germany", "United Kingdom", "Russia"
NSZ, BSZ, WSZ = "North Sea Zone", "Baltic Sea Zone", "West Spain Sea Zone"


def some(rnd: random.Random, table: dict[str, int]) -> dict[str, int]:
    out = {u: rnd.randint(0, n) for u, n in table.items()}
    return {u: n for u, n in out.items() if n}


def scenario(rnd: random.Random) -> Game:
    """UK attacks from the sea and the air, raids Germany; Germany defends at sea and on land."""
    att_sea = some(rnd, {"submarine": 2, "battleship": 1, "aircraft carrier": 1})
    att_sea["transport"] = 1
    att_sea["infantry"] = 2
    dfd_sea = some(rnd, {"submarine": 2, "transport": 1, "battleship": 1}) or {"submarine": 1}
    g = Game(position(UK, "combat_move", {
        WSZ: {UK: att_sea},
        "United Kingdom": {UK: {"bomber": 2, "fighter": 2}},
        NSZ: {GER: dfd_sea},
        "Western Europe": {GER: some(rnd, {"infantry": 3, "tank": 1}) | {"antiaircraft gun": 1}},
        "Germany": {GER: {"infantry": 2, "antiaircraft gun": 1}},
        "Finland Norway": {GER: {"infantry": 1}},
    }, edition="classic", treasury={GER: rnd.randint(0, 10)}), dice=[])
    g.dice = HmacDice(f"classic-combat-{rnd.random()}".encode())
    sea_units = {u: n for u, n in att_sea.items() if u != "infantry"}
    g.move(sea_units, WSZ, NSZ)
    g.move({"infantry": 2}, NSZ, rnd.choice(["Western Europe", "Finland Norway"]))
    g.do(od.Move(units={"bomber": rnd.randint(1, 2)}, frm="United Kingdom", to="Germany",
                 via=(NSZ, BSZ), raid=True))
    g.move({"fighter": rnd.randint(1, 2)}, "United Kingdom", "Western Europe")
    g.end()
    return g


def test_random_legal_play_through_classic_combat() -> None:
    rnd = random.Random(7)
    kinds: dict[str, int] = {}
    for _ in range(25):
        g = scenario(rnd)
        for _step in range(200):
            if g.state.phase != "conduct_combat":
                break
            waiting = engine.pending(g.state)
            power = rnd.choice(waiting).power
            legal = list(legal_orders(g.state, power))
            others = [o for o in legal if not isinstance(o, od.EndPhase)]
            order = rnd.choice(others) if others else legal[0]
            before = set(g.state.units)
            evs = g.do(order, power)
            kinds[order.kind] = kinds.get(order.kind, 0) + 1
            assert set(g.state.units) <= before
            gone = before - set(g.state.units)
            removed = {i for e in evs if isinstance(e, ev.UnitsRemoved) for i in e.ids}
            assert gone == removed
        assert g.state.phase != "conduct_combat", "Combat did not end"
        assert state_json(engine.replay(g.events)) == g.json
    for kind in ("bomb", "battle", "casualties", "press", "retreat", "withdraw"):
        assert kinds.get(kind), f"random play never tried {kind!r}: {kinds}"
