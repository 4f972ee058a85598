"""A corrupt game in Discord (issue 12, item 5): every command answers plainly, the owner (or a
server manager) repairs it with /admin repair, and the pinned status shows the log's head."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from db.engine import sqlite_url
from db.models import EVENT
from db.repo import SqlStore
from tests.cogs.conftest import Table, answer, end, public, seated

# (command, options): the slash commands that read or change the game.
COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("buy", {"units": "1 infantry"}),
    ("move", {"units": "1 infantry", "from": "Russia", "to": "Ukraine"}),
    ("place", {"units": "1 infantry", "in": "Russia"}),
    ("research", {"dice": 1}),
    ("end", {}),
    ("undo", {}),
    ("battle", {"space": "Ukraine"}),
    ("casualties", {"space": "Ukraine", "units": "1 infantry"}),
    ("retreat", {"space": "Ukraine", "to": "Russia"}),
    ("press", {"space": "Ukraine"}),
    ("bomb", {"space": "Germany"}),
    ("odds", {"attackers": "2 infantry", "defenders": "1 infantry"}),
    ("luck", {}),
    ("luck", {"space": "Ukraine"}),
    ("dice verify", {}),
    ("game status", {}),
    ("game map", {}),
    ("game map", {"space": "Ukraine"}),
    ("game history", {}),
    ("game export", {}),
    ("game check", {}),
]


def _everything(r: Any) -> str:
    """Every text of an interaction's messages: contents and embed descriptions."""
    out = []
    for m in [r.response, *r.followups]:
        if m is not None:
            out.append(str(m.content or ""))
            out.extend(str(e.description or "") for e in m.embeds)
    return "\n".join(out)


async def _sql_table(t: Table, tmp_path: Path) -> SqlStore:
    store = await SqlStore.open(sqlite_url(tmp_path / "umpire.sqlite3"))
    t.service.store = store
    await seated(t)
    r = await t.bob.slash(t.channel, "buy", units="1 infantry")
    assert public(r), answer(r)
    r = await end(t, t.bob)
    assert public(r), answer(r)
    return store


async def _edit_an_event(store: SqlStore, game_id: str) -> int:
    n = len(await store.load_events(game_id))
    async with store.engine.begin() as conn:
        await conn.execute(
            EVENT.update().where(EVENT.c.game_id == game_id, EVENT.c.seq == n - 2)
            .values(hash="0" * 64)
        )
    return n - 1  # the number of the edited event, as people count them


async def test_a_corrupt_game_answers_every_command_plainly_and_the_owner_repairs_it(
    table: Table, tmp_path: Path
) -> None:
    t = table
    store = await _sql_table(t, tmp_path)
    try:
        game = await t.service.game_in(str(t.channel.id))
        assert game is not None
        status = await t.service.status(game.id)
        assert "Log #" in status.answer
        offered = await t.bob.autocomplete(t.channel, "end", "phase", "")
        phase = {"phase": offered[0]["value"]}  # read before the damage: /end names its phase
        bad = await _edit_an_event(store, game.id)
        t.service._cache.clear()  # as after a restart
        for name, options in COMMANDS:
            options = phase if name == "end" else options
            r = await t.bob.slash(t.channel, name, **options)
            said = answer(r)
            assert public(r) is None, (name, said)  # refused privately, nothing posted
            assert f"is corrupt: stored event #{bad}" in said, (name, said)
            assert "repairs it: `/admin repair how:truncate`" in said, (name, said)
            assert "`/admin repair how:reseal`" in said, (name, said)
            assert f"the game's owner (<@{t.alice.id}>)" in said, (name, said)  # a mention
        listed = answer(await t.carol.slash(t.channel, "game list"))
        assert "its stored log is corrupt" in listed and "/admin repair" in listed

        r = await t.bob.slash(t.channel, "admin repair", how="truncate")
        assert public(r) is None and "Only the game's owner" in answer(r)
        r = await t.alice.slash(t.channel, "admin repair", how="truncate")
        shown = public(r)
        assert shown is not None, answer(r)
        text = shown.embeds[0].description
        assert f"repair (truncate): Log cut before event #{bad}" in text
        assert "Log #" in text
        r = await t.bob.slash(t.channel, "game status")
        assert "Log #" in _everything(r)
        r = await t.carol.slash(t.channel, "game check")
        assert "The log holds" in _everything(r)
    finally:
        await store.close()


async def test_the_pinned_status_shows_the_log_head(table: Table, tmp_path: Path) -> None:
    t = table
    store = await _sql_table(t, tmp_path)
    try:
        game = await t.service.game_in(str(t.channel.id))
        assert game is not None
        pins = t.channel.pinned_messages()
        heads = await store.published_heads(game.id)
        n = len(await store.load_events(game.id))
        assert heads[-1][0] == n
        pinned = [m for m in pins if m.embeds and "**Log** #" in str(m.embeds[0].description)]
        assert pinned, [m.embeds[0].description for m in pins if m.embeds]
        assert f"**Log** #{n} · {heads[-1][1][:8]}" in str(pinned[0].embeds[0].description)
    finally:
        await store.close()


async def test_a_cut_log_is_caught_in_discord(table: Table, tmp_path: Path) -> None:
    t = table
    store = await _sql_table(t, tmp_path)
    try:
        game = await t.service.game_in(str(t.channel.id))
        assert game is not None
        n = len(await store.load_events(game.id))
        async with store.engine.begin() as conn:
            await conn.execute(
                EVENT.delete().where(EVENT.c.game_id == game.id, EVENT.c.seq >= n - 1)
            )
        t.service._cache.clear()
        r = await t.bob.slash(t.channel, "game status")
        said = answer(r)
        assert "events were removed from its end" in said, said
        assert f"the log ends after event #{n - 1}" in said
        assert sa is not None
    finally:
        await store.close()
