"""The archive: a game's log checked, repaired, exported and imported, and its dice verified.

``verify_dice`` recomputes the revealed rounds' dice from the log alone; ``check_game`` says
whether the stored log's hash chain, the heads published to the players and the snapshots hold;
``resolve_corruption`` is the owner's way out when they do not. ``export`` and ``import_game``
are in ``service.transfer`` (every check of an import is there).
"""

from __future__ import annotations

import logging
from typing import Any

from rules import dice_audit as da
from rules import events as ev
from rules.engine import replay
from rules.errors import RulesError
from rules.messages import catalogue, msg
from service import fair, transfer
from service.core import (
    GameInfo,
    HashedStore,
    RepairableStore,
    Result,
    ServiceCore,
    ServiceError,
    head_line,
    n_of,
    told,
)
from service.store import ENDED, CorruptGame, GameNotFound, StoreError

log = logging.getLogger(__name__)


class ArchiveRoom(ServiceCore):
    """Dice verification, checks and repair of the log, export and import."""

    # --- dice -------------------------------------------------------------------------------------
    async def verify_dice(self, game_id: str, round_: int | None = None) -> Result:
        """``dice verify [round]``: recompute every revealed round's rolls from the log alone.

        ``ok`` is False when anything fails (the answer says exactly what), when the dice were
        scripted (they are not fair; nothing to verify), or when ``round_`` is not revealed yet.
        """
        kind = "dice_verify"
        try:
            loaded = await self._load(game_id, verify=True)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        rec = loaded.record
        info = GameInfo.of(rec)
        if not loaded.events:
            if rec.dice.kind == "scripted":
                return Result.refused(da.SCRIPTED_LINE, kind=kind, game=info)
            return Result(
                ok=True,
                answer=f"No dice yet: the game has not started. Commitment: {rec.dice.commitment}.",
                kind=kind,
                game=info,
            )
        log = da.read_log([s.event for s in loaded.events])
        report = da.verify(log, round_)
        head = fair.log_hashes(rec.id, [ev.event_to_json(s.event) for s in loaded.events])[-1]
        data: dict[str, Any] = {
            "ok": report.ok,
            "scripted": report.scripted,
            "rounds": [
                {
                    "round": r.round,
                    "chain": r.chain,
                    "revealed": r.revealed,
                    "ok": r.ok,
                    "dice": r.dice,
                    "rolls": r.rolls,
                    "line": r.line,
                }
                for r in report.rounds
            ],
            "log_head": head,
        }
        lines = list(report.lines)
        if report.scripted:
            return Result(ok=False, error=lines[0], kind=kind, game=info, data=data)
        if round_ is not None and not any(r.revealed for r in report.rounds):
            if round_ >= log.round and rec.status not in ENDED:
                why = (f"Round {round_} is not revealed yet: its seed comes when round "
                       f"{round_ + 1} starts or the game ends.")
            else:
                why = f"Round {round_} has no revealed seed in this game."
            return Result(ok=False, error=why, kind=kind, game=info, data=data)
        if not report.verified and report.ok:
            lines.insert(0, "No round is over yet: round seeds are revealed as rounds end.")
        lines.append(f"Log hash after event #{len(loaded.events)}: {head}.")
        text = "\n".join(lines)
        if not report.ok:
            return Result(ok=False, error=text, kind=kind, game=info, data=data)
        return Result(ok=True, answer=text, kind=kind, game=info, data=data)

    # --- the log's checks -------------------------------------------------------------------------
    async def check_game(self, game_id: str) -> Result:
        """``game check``: the stored log's hash chain, the heads published to the players,
        and the snapshots, each said to hold or not (anyone may ask)."""
        kind = "game_check"
        try:
            rec = await self.store.get_game(game_id)
        except GameNotFound as e:
            return Result.refused(str(e), kind=kind)
        info = GameInfo.of(rec)
        heads = await self.store.published_heads(game_id)
        try:
            events = await self.store.load_events(game_id)
        except CorruptGame as e:
            lines = [str(e.with_owner(rec.owner))]
            ok = False
        else:
            lines = [f"The log holds: {n_of(len(events), 'event')}, its hash chain intact."]
            if heads:
                s, h = heads[-1]
                lines.append(f"It reaches every head published to the players "
                             f"({len(heads)}, the last {head_line(s, h)}).")
            ok = True
        if isinstance(self.store, HashedStore):
            bad = await self.store.snapshot_problems(game_id)
            lines.extend(
                f"The snapshot after event #{seq} is ignored ({why}); the state is replayed "
                "from the log instead." for seq, why in bad
            )
            if bad:
                lines.append(f"The owner ({rec.owner}) drops ignored snapshots with "
                             "'game repair truncate'.")
                ok = False
        data = {"ok": ok, "heads": [{"seq": s, "hash": h} for s, h in heads]}
        if not ok:
            return Result(ok=False, error="\n".join(lines), kind=kind, game=info, data=data)
        return Result(ok=True, answer="\n".join(lines), kind=kind, game=info, data=data)

    # --- corruption -------------------------------------------------------------------------------
    async def resolve_corruption(
        self, game_id: str, person: str, how: str = "truncate", *, admin: bool = False
    ) -> Result:
        """The owner's way out of a ``CorruptGame`` (``game repair``, ``/admin repair``): the log
        fails its hash chain, or no longer reaches a head published to the players.

        ``how="truncate"``: drop the order holding the first untrusted event and every order
        after it (the game continues from just before; those orders are given again).
        ``how="reseal"`` (or ``"accept"``): keep the stored events as they are and recompute
        the hash chain over them, after checking that they still replay (a missing event
        cannot be accepted). Either way the published heads beyond what is kept are retired,
        and snapshots that are ignored (edited, or following another log) are dropped.
        ``admin``: a front end vouches that ``person`` manages the server. Public and logged.
        """
        kind = "resolve"
        got = await self._as_admin(game_id, person, admin, kind,
                                   msg("archive.owner_repairs"))
        if isinstance(got, Result):
            return got
        _, info = got
        if not isinstance(self.store, RepairableStore):
            return Result.refused(msg("archive.no_log"), kind=kind)
        how = "reseal" if how == "accept" else how
        if how not in ("truncate", "reseal"):
            return Result.refused(msg("archive.how"), kind=kind, game=info)
        bad = await self.store.check(game_id)
        if bad is None:
            answer = await self._drop_bad_snapshots(game_id)
            if answer is None:
                return Result(ok=True, answer="The log is intact; nothing to repair.", kind=kind,
                              game=info)
            self._cache.pop(game_id, None)
            log.warning("game %s: ignored snapshots dropped by %s", game_id, person)
            return Result(ok=True, answer=answer, kind=kind, game=info)
        seq, why = bad
        if how == "truncate":
            dropped = await self.store.truncate_from_bad(game_id)
            answer = (f"Log cut before event #{seq + 1} ({why}): {n_of(dropped, 'event')} dropped; "
                      "the orders they belonged to must be given again.")
        else:
            try:
                events = await self.store.unchecked_events(game_id)
                if events:
                    replay([s.event for s in events])
                changed = await self.store.reseal(game_id)
            except (StoreError, RulesError, ValueError, KeyError, TypeError) as e:
                return Result.refused(msg("archive.cannot_accept", why=told(e)), kind=kind,
                                      game=info)
            answer = (f"Stored log accepted as it is from event #{seq + 1} ({why}); "
                      f"{n_of(changed, 'hash')} recomputed.")
        self._cache.pop(game_id, None)
        extra = await self._drop_bad_snapshots(game_id)
        if extra:
            answer += " " + extra
        log.warning("game %s: corruption at seq %s repaired by %s (%s)", game_id, seq, person, how)
        try:
            answer += " " + head_line(*await self.publish_head(game_id)) + "."
        except StoreError:
            log.exception("publishing the head of game %s failed", game_id)
        return Result(ok=True, answer=answer, kind=kind, game=info)

    async def _drop_bad_snapshots(self, game_id: str) -> str | None:
        if not isinstance(self.store, HashedStore):
            return None
        bad = await self.store.snapshot_problems(game_id)
        if not bad:
            return None
        await self.store.drop_snapshots(game_id, [seq for seq, _ in bad])
        where = ", ".join(f"#{seq}" for seq, _ in bad)
        return f"Ignored {n_of(len(bad), 'snapshot')} dropped (after event {where})."

    # --- export / import (service.transfer) -------------------------------------------------------
    async def export(self, game_id: str) -> dict[str, Any]:
        """The game as one JSON document: record, orders, every event, and the final state."""
        return await transfer.export(self, game_id)

    async def import_game(
        self,
        data: Any,
        channel: str | None = None,
        owner: str | None = None,
        *,
        unverified: bool = False,
    ) -> Result:
        """Recreate an exported game under a new id, all of it or nothing; every check and
        every refusal is in ``service.transfer``. ``unverified``: accept a log that matches no
        head hash the referee published, as an unverified copy (the answer says so)."""
        return await transfer.import_game(self, data, channel, owner, unverified=unverified)

    async def import_(
        self,
        data: Any,
        channel: str | None = None,
        owner: str | None = None,
        *,
        unverified: bool = False,
    ) -> GameInfo:
        """``import_game`` for callers that want the game: raises ``ServiceError`` if refused."""
        r = await self.import_game(data, channel, owner, unverified=unverified)
        if not r.ok or r.game is None:
            raise ServiceError(r.error or "Not imported.")
        return r.game


__all__ = ["ArchiveRoom"]


catalogue("en", "archive", {
    "owner_repairs": "Only the game's owner ({owner}) or a server manager can repair a corrupt "
                     "log.",
    "no_log": "This store keeps no log that can go corrupt.",
    "how": "Repair with 'game repair truncate' or 'game repair reseal'.",
    "cannot_accept": "Cannot accept the stored log ({why}); use 'game repair truncate' instead.",
})
