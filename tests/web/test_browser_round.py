"""A whole round of 1941 played by three players entirely on the game's page (issue 19), in a
real browser: alice holds the Axis, bob the Soviet Union and the United States, carol the United
Kingdom, each through their private link in a browser context of their own.

The orders are round 1 of the scripted game ``tests/local/games/a1941_three_rounds.txt`` with its
dice. Each is given the way a player would on the page: purchases with the buy builder,
placements with the place builder, moves with the move builder (the space chosen, the counts
typed, the destination picked) where it offers them, owed decisions with the choices offered,
the phase's end with its button, the rest in the order box; before every send the line shown is
the line meant. No order is refused, and the game ends the round exactly as the same lines given
to the service directly leave it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from rules.engine import pending
from rules.state import GameState
from rules.words import plural
from tests.web.browser import ALLIES, AXIS, World, open_world

pytestmark = pytest.mark.asyncio(loop_scope="module")

GAMES = Path(__file__).resolve().parents[1] / "local" / "games"
SEATS = {"Germany": "alice", "Japan": "alice", "Soviet Union": "bob",
         "United Kingdom": "carol", "United States": "bob"}


def round_one() -> list[tuple[str, str]]:
    """Round 1 of the script: (side, line), the side carried over from the last prefix."""
    out: list[tuple[str, str]] = []
    side = ""
    started = False
    for raw in (GAMES / "a1941_three_rounds.txt").read_text("utf-8").splitlines():
        line = raw.strip()
        if line.startswith("# ---- Round 1"):
            started = True
        elif line.startswith("# ---- Round 2"):
            break
        if not started or not line or line.startswith("#"):
            continue
        m = re.match(r"(axis|allies):\s*(.*)", line)
        if m:
            side, line = m[1], m[2]
        if line == "state":
            continue
        out.append((side, line))
    return out


def dice() -> list[int]:
    return [int(x) for x in (GAMES / "a1941_three_rounds.dice").read_text().split(",")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async for w in open_world(tmp_path_factory.mktemp("browser-round")):
        yield w


def units_of(text: str) -> Counter[str]:
    """'2 infantry, 1 tank' as counts per unit (plural or singular as written)."""
    out: Counter[str] = Counter()
    for part in text.split(","):
        n, _, unit = part.strip().partition(" ")
        out[unit.strip()] += int(n)
    return out


def same_units(a: str, b: str, names: dict[str, str]) -> bool:
    """Two unit lists name the same units (plurals read as their unit)."""
    def norm(c: Counter[str]) -> Counter[str]:
        return Counter({names.get(k, k): v for k, v in c.items()})
    return norm(units_of(a)) == norm(units_of(b))


class Player:
    def __init__(self, page: Any, names: dict[str, str]) -> None:
        self.page = page
        self.names = names  # plural or name -> unit type

    async def caught_up(self, seq: int) -> None:
        """Wait until the page shows the game at ``seq`` (its live update)."""
        await self.page.locator(f'#map[data-seq="{seq}"]').wait_for(state="attached",
                                                                   timeout=20_000)

    async def send(self, where: str, expect: str) -> None:
        """Check the line shown, send it, and wait for the answer: accepted, or fail with the
        refusal shown."""
        page = self.page
        shown = {"free": None, "end": "#end-line", "buy": "#buy-line", "place": "#place-line",
                 "move": "#move-line", "decision": "#decision-line"}[where]
        if shown is not None:
            got = await page.locator(shown).inner_text()
            if where in ("buy", "place", "move"):
                assert self.matches(where, got, expect), (got, expect)
            else:
                assert got == expect, (got, expect)
        before = await page.locator("#log li.log-accepted").count()
        await page.click(f"#{where}-send")
        refusal = page.locator(f"#{where}-refusal:not([hidden])")
        accepted = page.locator("#log li.log-accepted").nth(before)
        await refusal.or_(accepted).wait_for(timeout=30_000)
        if await refusal.count():
            pytest.fail(f"{expect!r} refused on the page: {await refusal.inner_text()}")

    def matches(self, where: str, got: str, expect: str) -> bool:
        if where == "buy":
            return got.startswith("buy ") and same_units(got[4:], expect[4:], self.names)
        m1 = re.fullmatch(r"(move|place) (.+) (from .+ to .+|in .+)", got)
        m2 = re.fullmatch(r"(move|place) (.+) (from .+ to .+|in .+)", expect)
        return bool(m1 and m2 and m1[1] == m2[1] and m1[3] == m2[3]
                    and same_units(m1[2], m2[2], self.names))

    async def buy(self, line: str) -> None:
        page = self.page
        await page.locator("#buy").wait_for()
        for unit, n in units_of(line[4:]).items():
            kind = self.names.get(unit, unit)
            await page.fill(f'#buy-rows input[data-unit="{kind}"]', str(n))
        await self.send("buy", line)

    async def place(self, line: str) -> bool:
        m = re.fullmatch(r"place (.+) in (.+)", line)
        assert m
        page = self.page
        await page.locator("#place").wait_for()
        for unit, n in units_of(m[1]).items():
            kind = self.names.get(unit, unit)
            select = page.locator(f'#place-rows select[data-unit="{kind}"]')
            if m[2] not in await select.locator("option").all_inner_texts():
                return False
            await page.fill(f'#place-rows input[data-unit="{kind}"]', str(n))
            await select.select_option(m[2])
        await self.send("place", line)
        return True

    async def move(self, line: str) -> bool:
        """The move builder, where it offers this move: False where it does not (the line then
        goes in the order box)."""
        m = re.fullmatch(r"move (.+) from (.+) to (.+)", line)
        if not m:
            return False
        page = self.page
        await page.select_option("#space-pick", m[2])
        try:
            await page.locator("#move-builder").wait_for(timeout=5_000)
        except Exception:
            return False
        wanted = {self.names.get(u, u): n for u, n in units_of(m[1]).items()}
        have = await page.locator("#move-units input").evaluate_all(
            "xs => xs.map(x => [x.dataset.unit, Number(x.max)])")
        if any(dict(have).get(u, 0) < n for u, n in wanted.items()):
            return False
        for u, _ in have:
            await page.fill(f'#move-units input[data-unit="{u}"]', str(wanted.get(u, 0)))
        option = page.locator(f'#move-to option[value="{m[3]}"]')
        if not await option.count() or await option.is_disabled():
            return False
        await page.select_option("#move-to", m[3])
        await self.send("move", line)
        return True

    async def decide(self, line: str) -> bool:
        page = self.page
        choice = page.locator(f'#decision-list input[type=radio][value="{line}"]')
        if not await choice.count():
            return False
        await page.locator(f'label[for="{await choice.get_attribute("id")}"]').click()
        await self.send("decision", line)
        return True

    async def end(self, line: str) -> None:
        page = self.page
        box = page.locator("#end-confirm")
        if (line != "end") != await box.is_checked():
            await box.click()
        await self.send("end", "end" if line == "end" else "end confirm")

    async def free(self, line: str) -> None:
        await self.page.fill("#free-text", line)
        await self.send("free", line)


def acting(state: GameState, side: str) -> str:
    """The power of ``side`` that the line is for: the power whose turn it is, else the one
    of the side that owes a decision."""
    powers = AXIS if side == "axis" else ALLIES
    if state.power in powers:
        return state.power
    return next(p.power for p in pending(state) if p.power in powers)


def snapshot(state: GameState) -> tuple[Any, ...]:
    units = Counter((u.space, u.owner, u.type) for u in state.units.values())
    return (state.round, state.power, state.phase, dict(state.owners), dict(state.treasury),
            units)


async def test_a_round_of_1941_played_by_three_players_on_the_page(world: World) -> None:
    script = round_one()
    chan, game = await world.game(dice=dice(), seats=SEATS)
    kinds = (await world.service.state(game)).edition.units
    names = {**{k: k for k in kinds}, **{plural(k): k for k in kinds}}
    pages: dict[str, Player] = {}
    try:
        for person, power in (("alice", "Germany"), ("bob", "Soviet Union"),
                              ("carol", "United Kingdom")):
            page = await world.open(await world.seat_url(game, power, person))
            pages[person] = Player(page, names)
        ways: Counter[str] = Counter()
        for side, line in script:
            state = await world.service.state(game)
            player = pages[SEATS[acting(state, side)]]
            seq = len(await world.service.store.load_events(game))
            await player.caught_up(seq)
            if line.startswith("buy "):
                await player.buy(line)
                ways["buy"] += 1
            elif line.startswith("end"):
                await player.end(line)
                ways["end"] += 1
            elif line.startswith("place ") and await player.place(line):
                ways["place"] += 1
            elif line.startswith("move ") and await player.move(line):
                ways["move"] += 1
            elif await player.decide(line):
                ways["decision"] += 1
            else:
                await player.free(line)
                ways["free"] += 1
        # Every way of giving orders was used.
        assert all(ways[w] for w in ("buy", "end", "place", "move", "free")), ways
        for p in pages.values():
            assert p.page.errors == []
        played = await world.service.state(game)
        assert (played.round, played.power, played.phase) == (2, "Soviet Union", "purchase")
    finally:
        for p in pages.values():
            await p.page.context.close()
    # The same lines given to the service directly leave the game the same.
    chan2, game2 = await world.game(dice=dice(), seats=SEATS)
    for side, line in script:
        state = await world.service.state(game2)
        r = await world.service.handle(chan2, SEATS[acting(state, side)], line)
        assert r.ok, (line, r.error)
    assert snapshot(await world.service.state(game2)) == snapshot(played)
    # The log says who gave each order: the three players, each for their own powers.
    orders = await world.service.store.orders(game)
    assert {(o.person, o.power) for o in orders} >= {
        ("alice", "Germany"), ("alice", "Japan"), ("bob", "Soviet Union"),
        ("bob", "United States"), ("carol", "United Kingdom")}
    def same(line: str) -> tuple[Any, ...]:  # a builder may list the units in its own order
        m = re.fullmatch(r"(buy|move|place) (.+?)( from .+ to .+| in .+)?", line)
        if not m:
            return (line,)
        kinds = Counter({names.get(k, k): n for k, n in units_of(m[2]).items()})
        return (m[1], tuple(sorted(kinds.items())), m[3])
    assert [same(o.text) for o in orders][-len(script):] == [same(x) for _, x in script]
    del chan
