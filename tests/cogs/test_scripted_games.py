"""The scripted games of the local table (tests/local/games/) played again through Discord:
the same lines, pasted by the same people with '/orders' (several lines of one person at once,
as a player sends a phase), end in the same game as at the local table: the state, the
treasuries, the log's length. What the people see is checked along the way: every batch is
applied to its last line and its public record names the person's powers' doings.

The game is created by the service with the script's dice (the harness's scripted dice, as the
other cog tests); seats and start go through the service too, for the person the script says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from local.table import Table as LocalTable
from rules.position import state_json
from service.games import GameService
from tests.cogs.conftest import Table
from tests.cogs.test_orders_help import described, paste

GAMES = Path(__file__).resolve().parents[1] / "local" / "games"
READS = ("game", "state", "odds", "luck", "dice", "history", "help", "map", "status")
BATCH = 12  # lines of one person pasted at once


def script(name: str) -> tuple[list[tuple[str, str]], list[int]]:
    """(person, line) of a scripted game, comments and blank lines left out, and its dice."""
    out: list[tuple[str, str]] = []
    who = ""
    for raw in (GAMES / f"{name}.txt").read_text("utf-8").splitlines():
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        head, _, rest = line.partition(":")
        if rest and head.strip().isalpha() and head.strip().islower():
            who, line = head.strip(), rest.strip()
        out.append((who, line))
    dice = [int(f) for f in (GAMES / f"{name}.dice").read_text().replace("\n", "").split(",")
            if f.strip()]
    return out, dice


async def at_the_local_table(lines: list[tuple[str, str]], dice: list[int],
                             tmp: Path) -> dict[str, Any]:
    service = GameService(scripted_dice=dice, allow_scripted_dice=True)
    table = LocalTable(service, tmp)
    for who, line in lines:
        await table.answer(f"{who}: {line}")
    game = await service.game_in(table.channel)
    assert game is not None
    return state_json(await service.state(game.id))


async def through_the_cogs(t: Table, lines: list[tuple[str, str]],
                           dice: list[int]) -> dict[str, Any]:
    people = {"alice": t.alice, "bob": t.bob, "carol": t.carol, "axis": t.alice,
              "allies": t.bob}
    t.service.allow_scripted_dice = True
    game_id = ""
    group: list[str] = []
    member: Any = None

    async def send() -> None:
        nonlocal group
        if not group:
            return
        r, posted = await paste(t, member, "\n".join(group))
        private = described(r.response) + "\n".join(described(m) for m in r.followups)
        assert "was refused" not in private, f"{group}\n{private}"
        assert posted, f"nothing posted for {group}"
        group = []

    for who, line in lines:
        words = line.split()
        if words[:2] == ["game", "new"]:
            info = await t.service.create(str(t.channel.id), str(people[who].id), words[2],
                                          dice=dice)
            game_id = info.id
        elif words[:2] == ["game", "join"]:
            assert (await t.service.join(game_id, str(people[who].id),
                                         " ".join(words[2:]))).ok
        elif words[:2] == ["game", "start"]:
            assert (await t.service.start(game_id, str(people[who].id))).ok
        elif words[0] in READS:
            continue
        else:
            if people[who] is not member or len(group) >= BATCH:
                await send()
                member = people[who]
            group.append(line)
    await send()
    return state_json(await t.service.state(game_id))


ROUNDS = {"classic_two_rounds": 2, "a1941_three_rounds": 3, "europe1940_two_rounds": 2}
# What the channel is told along the way (the records of the batches and the menus).
SEEN = {
    "europe1940_two_rounds": (
        "United Kingdom intercepts the raid on United Kingdom with 2 fighters",
        "United Kingdom scrambles 1 fighter from Scotland to Sea Zone 109",
        "Germany declares war on the Soviet Union (DW-2).",
        "France placed free units in France: 2 infantry, 1 artillery",
        "Italy's 1 battleship, 1 cruiser in Sea Zone 96 will bombard Malta (AA-2).",
    ),
    "classic_two_rounds": ("Japan developed Super Submarines",),
}


@pytest.mark.parametrize("name", sorted(ROUNDS))
async def test_a_scripted_game_ends_the_same_through_discord(table: Table, tmp_path: Path,
                                                             name: str) -> None:
    lines, dice = script(name)
    local = await at_the_local_table(lines, dice, tmp_path)
    assert (local["round"], local["winner"]) == (ROUNDS[name] + 1, None), local["round"]
    discord_side = await through_the_cogs(table, lines, dice)
    assert discord_side == local
    channel = "\n".join(described(m) for m in table.channel.history())
    for line in SEEN.get(name, ()):
        assert line in channel, line
