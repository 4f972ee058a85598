"""Issue 11's "done means": a complete round of 1941 played through the cogs by three members.

alice holds the Axis, bob the United Kingdom and the United States, carol the Soviet Union, and
carol is absent all round. A deadline (``end``, re-armed for every wait) acts on her several
times in her turn: it ends each of her phases in turn, re-arming for each new wait. The bot restarts in the middle of a battle,
and the decision menu posted before the restart is then clicked. An HTTP failure is injected
after a stored order. Asserted on what the members see: nothing stalls, every awaited person is
pinged outside any embed when their wait begins (and only they are), every answer is true.
"""

from __future__ import annotations

from typing import Any

from cogs._bot import UmpireBot
from cogs.reminders import RemindersCog
from service.games import GameService
from tests.cogs.conftest import SECRET, Table, end, public

REFEREE = "(by the referee at the deadline)"


def pings(t: Table, msg: Any) -> list[int]:
    """Whom a posted message notified (SimCord's record of the pings Discord would send)."""
    return sorted(t.env.backend.get_message(msg.channel.id, msg.id).ping_user_ids)


def bot_messages(t: Table) -> list[Any]:
    assert t.bot.user is not None
    return [m for m in t.channel.history() if m.author.id == t.bot.user.id]


def text_of(r: Any) -> str:
    parts = [r.response.content or ""] if r.response is not None else []
    for m in [r.response, *r.followups]:
        if m is None:
            continue
        parts.append(m.content or "")
        parts += [e.description or "" for e in m.embeds]
    return "\n".join(parts)


async def tick(t: Table) -> None:
    cog = t.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)
    await cog.tick()


def fighting(state: Any) -> bool:
    battle = state.battles.get("Karelia")
    return battle is not None and battle.step != "done"


def open_menus(t: Table) -> list[Any]:
    return [m for m in t.channel.history() if m.components and " owes " in m.content]


async def test_a_round_of_1941_by_three_members_with_an_absent_player(table: Table) -> None:
    t = table
    dave = t.carol  # the conftest's spectator plays the Soviet Union here, and is away
    member = {t.alice.id: t.alice, t.bob.id: t.bob, dave.id: dave}
    r = await t.alice.slash(t.channel, "game new", edition="1941")
    assert public(r) is not None, text_of(r)
    for who, power in [
        (t.alice, "Germany"), (t.alice, "Japan"), (dave, "Soviet Union"),
        (t.bob, "United Kingdom"), (t.bob, "United States"),
    ]:
        r = await who.slash(t.channel, "game join", power=power)
        assert public(r) is not None, text_of(r)
    r = await t.alice.slash(t.channel, "game start")
    assert public(r) is not None, text_of(r)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    holder = {p: int(who) for p, who in game.seats.items()}
    r = await t.alice.slash(
        t.channel, "admin deadline", hours=6.0, action="end", every_wait=True
    )
    assert public(r) is not None, text_of(r)

    # The Soviet Union's turn: its player is absent. Each time the deadline passes the referee
    # ends the phase, re-arms for the next wait, and acts again: several times in one turn.
    for _ in range(12):
        if (await t.service.state(game.id)).power != "Soviet Union":
            break
        t.clock.advance(hours=6, minutes=1)
        await tick(t)
    state = await t.service.state(game.id)
    assert state.power == "Germany", "the deadline did not carry the absent player's turn"
    soviet = [o for o in await t.service.store.orders(game.id) if o.power == "Soviet Union"]
    assert len(soviet) >= 3 and all(o.text.endswith(REFEREE) for o in soviet)

    # Germany buys; Discord fails right after the order is stored: the answer says so, truly.
    before = len(await t.service.store.orders(game.id))
    t.env.inject_error("POST", "/webhooks/*", status=500, times=1)
    r = await t.alice.slash(t.channel, "buy", units="2 infantry")
    assert len(await t.service.store.orders(game.id)) == before + 1
    told = text_of(r)
    assert "Your order was recorded; posting the result failed" in told, told
    assert "nothing was changed" not in told
    t.env.errors.clear()  # the failure was logged; SimCord would re-raise it at teardown
    assert (await t.service.state(game.id)).purchase == {"infantry": 2}
    r = await end(t, t.alice)
    assert public(r) is not None, text_of(r)

    # Combat Move: Germany attacks Karelia, held by the absent Soviet player.
    r = await t.alice.slash(
        t.channel, "move", units="4 infantry, 2 tanks", **{"from": "Eastern Europe", "to": "Karelia"}
    )
    assert public(r) is not None, text_of(r)
    r = await end(t, t.alice)
    assert public(r) is not None, text_of(r)
    restarted = False
    for _ in range(30):
        state = await t.service.state(game.id)
        if not fighting(state):
            break
        menus = open_menus(t)
        if not menus:
            r = await t.alice.slash(t.channel, "battle", space="Karelia")
            assert public(r) is not None, text_of(r)
            continue
        menu = menus[-1]
        owner = next(i for i in holder.values() if f"<@{i}>" in menu.content)
        if owner == dave.id:  # the absent player owes it: the deadline answers for her
            # (with these dice her casualties are forced and never asked; kept for other dice)
            t.clock.advance(hours=6, minutes=1)
            await tick(t)
            continue
        if not restarted:  # a restart in the middle of the battle, with a menu open
            fresh = UmpireBot(
                GameService(t.service.store, draw_secret=lambda: SECRET),
                sync=False, clock=t.clock, reminders=False,
            )
            await t.env.restart_bot(fresh)
            t.bot = fresh
            restarted = True
        choice = menu.components[0].children[0].options[0].value
        r = await member[owner].select(menu, [choice])
        assert public(r) is not None, text_of(r)
    state = await t.service.state(game.id)
    assert restarted and not fighting(state)
    in_battle = [o for o in await t.service.store.orders(game.id) if "Karelia" in o.text]
    assert any(o.person == str(t.alice.id) and o.text.startswith("press") for o in in_battle)

    # The rest of the round: every player ends (or places) until round 2 begins.
    for _ in range(60):
        state = await t.service.state(game.id)
        if state.round == 2:
            break
        who = member[holder[state.power]]
        if who is dave:
            t.clock.advance(hours=6, minutes=1)
            await tick(t)
            continue
        r = await end(t, who, confirm=True)
        assert public(r) is not None, text_of(r)
    state = await t.service.state(game.id)
    assert state.round == 2 and state.power == "Soviet Union"

    # Each turn that began pinged exactly its player, in plain text outside any embed.
    waits = [m for m in bot_messages(t) if m.content.startswith("🔔")]
    for power in ("Soviet Union", "Germany", "Japan", "United Kingdom", "United States"):
        found = [m for m in waits if f"{power}: Purchase" in m.content]
        assert found, f"no announcement of {power}'s turn"
        assert all(pings(t, m) == [holder[power]] for m in found), power
    for m in bot_messages(t):  # every ping comes from a plain-text line, never from an embed
        if pings(t, m):
            assert m.content and any(f"<@{i}>" in m.content for i in pings(t, m))
    transcript = t.env.transcript()
    assert "Traceback" not in transcript
    assert "Something went wrong" not in transcript
