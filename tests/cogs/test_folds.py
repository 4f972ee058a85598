"""One fold per order through Discord (issue 15, deliverable 6): a slash command's order is
loaded, decided and folded once, and the follow-up (decision menus, announced waits, the pinned
status) takes the state and the log's head from the answer instead of loading the game again.
Counted on the real code path (``tests/folds.py``) through the offline Discord (SimCord)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cogs.conftest import Table, answer, public, seated
from tests.folds import FoldCounter, LoadCounter


async def test_a_slash_order_folds_each_event_once_and_loads_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = table
    await seated(t)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    store = t.service.store
    folds = FoldCounter(monkeypatch)
    loads = LoadCounter(monkeypatch, store)

    # The Soviet Union buys, then ends two phases (the /end option as its autocomplete offers
    # it, asked before the order: reading the game to offer choices is not the order's).
    for step in ("buy", "end", "end"):
        options: dict[str, Any] = {"units": "1 infantry"}
        if step == "end":
            offered = await t.bob.autocomplete(t.channel, "end", "phase", "")
            options = {"phase": offered[0]["value"]}
        folds.reset()
        loads.reset()
        r = await t.bob.slash(t.channel, step, **options)
        assert public(r), answer(r)
        assert loads.count == 1, (step, loads.count)
        log = await loads.real(game.id)
        assert folds.most(log) == 1, (step, folds.per_event(log))
    assert "Traceback" not in t.env.transcript()
