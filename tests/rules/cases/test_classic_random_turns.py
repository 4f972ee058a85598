"""Random legal play of whole Classic turns from the setup (DESIGN §9 properties): research,
purchase, moves, battles, rockets, placement and income.

Every order ``legal_orders`` lists is accepted; the log replays to the live state; the IPC
ledger balances (every treasury change is an event: purchases, research dice R-TEC-01, damage
R-SBR-04/05, neutral fees R-NEU-02, capital seizures R-CAP-02, income net of debts R-INC-03)
and no treasury goes negative; units bought and lost leave no money behind (R-PLC-08); the dice
log counts every die rolled (research and rockets included).
"""

from __future__ import annotations

import random

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.dice_audit import read_log
from rules.errors import RulesError
from rules.legal import legal_orders
from rules.mechanisms.research import ResearchRolled, TechnologyDeveloped
from rules.state import GameState
from tests.rules._ledger import CountingDice, Ledger

MOVE_PHASES = ("combat_move", "noncombat_move")
END_BIAS = {"research": 60, "purchase": 30, "combat_move": 20, "conduct_combat": 40,
            "noncombat_move": 30, "mobilize": 10}


def _can_end(state: GameState, power: str) -> bool:
    try:
        engine.check(state, od.EndPhase(power=power))
    except RulesError:
        return False
    return True


def play(seed: int, rounds: int = 2, max_orders: int = 500) -> tuple[list[ev.Event], set[str]]:
    """Random legal play; a move that leaves its phase unable to end is taken back at once when
    it rolled no dice ('undo', DESIGN §5), as a player would."""
    rnd = random.Random(seed)
    dice = CountingDice(f"classic-turns-{seed}".encode(), game="prop")
    ledger = Ledger()
    events = list(engine.new_game("classic"))
    state = engine.replay(events)
    total = dict(state.treasury)
    kinds: set[str] = set()
    for _ in range(max_orders):
        if state.winner is not None or state.round > rounds:
            break
        power = rnd.choice(engine.pending(state)).power
        legal = list(legal_orders(state, power))
        if not legal:
            break  # stuck after dice made a move final: movement's concern, not this test's
        ends = [o for o in legal if isinstance(o, od.EndPhase)]
        others = [o for o in legal if not isinstance(o, od.EndPhase)]
        if ends and (not others or rnd.randrange(100) < END_BIAS.get(state.phase, 50)):
            order: od.Order = ends[0]
        else:
            order = rnd.choice(others)
        rolled = dice.rolled
        new = engine.decide(state, order, dice)
        after = state
        for e in new:
            after = engine.evolve(after, e)
        if (isinstance(order, od.Move) and dice.rolled == rolled
                and _can_end(state, power) and not _can_end(after, power)):
            continue  # undo
        kinds.add(order.kind)
        for e in new:
            for p, d in ledger(state, e).items():
                total[p] += d
            state = engine.evolve(state, e)
            events.append(e)
            assert state.treasury == total, (e, state.treasury, total)
            assert min(state.treasury.values()) >= 0, e
    assert engine.replay(events) == state
    assert read_log(events).counter == dice.counter
    return events, kinds


def test_random_legal_play_of_classic_turns() -> None:
    kinds: set[str] = set()
    researched = developed = incomes = rounds = 0
    for seed in range(4):
        events, k = play(seed)
        kinds |= k
        researched += sum(isinstance(e, ResearchRolled) for e in events)
        developed += sum(isinstance(e, TechnologyDeveloped) for e in events)
        incomes += sum(isinstance(e, ev.IncomeCollected) for e in events)
        rounds += engine.replay(events).round
    for kind in ("research", "buy", "move", "place", "end"):
        assert kind in kinds, f"random play never tried {kind!r}: {sorted(kinds)}"
    assert researched and developed and incomes >= 8 and rounds >= 8
