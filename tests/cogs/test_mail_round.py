"""A whole round of 1941 among three players: alice (the Axis) and bob (the Soviet Union and
the United Kingdom) by e-mail, carol (the United States) in a Discord channel (the offline
harness). The game lives in the channel; the mail players join it by mail.

The round is the first round of the scripted game of the local table (tests/local/games/),
its lines sent by whoever holds the power they act for: mail batches with the seat's token
for alice and bob (real SMTP both ways, tests/mail/world.py), '/orders' for carol. It ends in
exactly the state the local table reaches. Along the way: the channel sees the mail players'
orders, the mail players' reports tell carol's, and a battle decision owed by a mail player is
asked by mail with the lines that answer it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogs._follow import follow_up
from local.table import Table as LocalTable
from rules.position import state_json
from service.games import GameInfo, GameService
from tests.cogs.conftest import Table, answer, public
from tests.cogs.test_orders_help import described, paste
from tests.mail.world import close_world, game, open_world, text

GAMES = Path(__file__).resolve().parents[1] / "local" / "games"
ALICE = "alice@example.org"
BOB = "bob@example.net"
READS = ("state", "odds", "luck", "dice", "history", "help", "map", "status")
BATCH = 12


def round_one() -> tuple[list[tuple[str, str]], list[int]]:
    """(script person, line) of the scripted 1941 game's first round, and its dice."""
    raw = (GAMES / "a1941_three_rounds.txt").read_text("utf-8")
    raw = raw.split("# ---- Round 2")[0]
    out: list[tuple[str, str]] = []
    who = ""
    for line in raw.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(":")
        if rest and head.strip().isalpha() and head.strip().islower():
            who, line = head.strip(), rest.strip()
        out.append((who, line))
    dice = [int(f) for f in (GAMES / "a1941_three_rounds.dice").read_text().replace("\n", "")
            .split(",") if f.strip()]
    return out, dice


async def local_round(lines: list[tuple[str, str]], dice: list[int],
                      tmp: Path) -> tuple[dict[str, Any], list[str]]:
    """The round at the local table: its final state, and the power each line acted for."""
    service = GameService(scripted_dice=dice, allow_scripted_dice=True)
    table = LocalTable(service, tmp)
    powers: list[str] = []
    for who, line in lines:
        game = await service.game_in(table.channel)
        before = len(await service.store.orders(game.id)) if game else 0
        await table.answer(f"{who}: {line}")
        game = await service.game_in(table.channel)
        assert game is not None
        orders = await service.store.orders(game.id)
        powers.append(orders[-1].power if len(orders) > before else "")
    game = await service.game_in(table.channel)
    assert game is not None
    return state_json(await service.state(game.id)), powers


def batches(lines: list[tuple[str, str]], powers: list[str], holder: dict[str, str],
            size: int = BATCH) -> list[tuple[str, str, list[str]]]:
    """The round's lines after the start, as the players send them: (player, the power of the
    first line, up to ``size`` lines), a new batch whenever the player changes. Lines that only
    read, or that no power gave, are left out."""
    out: list[tuple[str, str, list[str]]] = []
    started = False
    for (_who, line), power in zip(lines, powers, strict=True):
        words = line.split()
        if words[:2] == ["game", "start"]:
            started = True
            continue
        if not started or words[0] in READS or not power:
            continue
        person = holder[power]
        if not out or out[-1][0] != person or len(out[-1][2]) >= size:
            out.append((person, power, []))
        out[-1][2].append(line)
    return out


async def test_a_round_of_1941_by_mail_and_discord(table: Table, tmp_path: Path) -> None:
    t = table
    lines, dice = round_one()
    local, powers = await local_round(lines, dice, tmp_path / "local")
    t.service.allow_scripted_dice = True

    async def after_change(info: GameInfo) -> None:
        await follow_up(t.bot, info, None)

    (tmp_path / "mail").mkdir()
    w = await open_world(tmp_path / "mail", service=t.service, clock=t.clock,
                         after_change=after_change)
    try:
        info = await t.service.create(str(t.channel.id), str(t.carol.id), "1941", dice=dice)
        gid = info.id
        await w.join(ALICE, gid, "Germany", "Japan")
        await w.join(BOB, gid, "Soviet Union", "United Kingdom")
        # The channel is told of each seat taken by mail, as it is taken (the gateway's hook).
        seen = "\n".join(described(m) for m in t.channel.history())
        assert f"📧 {ALICE} holds **Japan** and plays by e-mail." in seen
        assert f"📧 {BOB} holds **Soviet Union** and plays by e-mail." in seen
        r = await t.carol.slash(t.channel, "game join", power="United States")
        assert public(r), answer(r)
        r = await t.carol.slash(t.channel, "game start")
        assert public(r), answer(r)
        await w.gateway.tick()
        holder = {"Germany": ALICE, "Japan": ALICE, "Soviet Union": BOB,
                  "United Kingdom": BOB, "United States": "carol"}

        async def send(player: str, first_power: str, group: list[str]) -> None:
            if player == "carol":
                r, posted = await paste(t, t.carol, "\n".join(group))
                said = described(r.response) + "\n".join(described(m) for m in r.followups)
                assert "was refused" not in said, f"{group}\n{said}"
                assert posted
                await w.gateway.tick()  # the gateway's loop: reports and new tokens
            else:
                await w.mail(player, game(gid), "orders", *group, "end orders",
                             token=w.token(player, first_power))
                said = w.answer(player)
                assert "All " in said and "accepted" in said, f"{group}\n{said}"

        for player, first_power, group in batches(lines, powers, holder):
            await send(player, first_power, group)
        assert state_json(await t.service.state(gid)) == local

        # The channel saw what the mail players did, marked as mail.
        channel = "\n".join(described(m) for m in t.channel.history())
        assert f"📧 **Germany** ({ALICE}) by mail: `buy 2 tanks`" in channel
        assert f"📧 **Soviet Union** ({BOB}) by mail: `buy 2 infantry`" in channel
        # The mail players' reports told carol's Discord orders.
        told = "\n".join(text(m) for m in w.catcher.to(ALICE))
        assert "United States (in Discord): " in told
        # A decision owed by a mail player was asked by mail with the lines that answer it.
        assert "Germany: casualties in Ukraine. Answer with one of these lines" in told
        assert "    casualties Ukraine 1 infantry" in told
        # Every report went to both mail players, threaded in the game.
        reports = [m for m in w.catcher.to(BOB) if "Round 1 ·" in str(m["Subject"])]
        assert len(reports) >= 10
        assert all(ALICE in str(m["To"]) for m in reports)
        assert all(f"<game-{gid}@example.org>" in str(m["References"]) for m in reports)
    finally:
        await close_world(w)
