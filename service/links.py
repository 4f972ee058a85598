"""The game's web page, as the other front ends give it: ``game link [revoke]``.

The web front end (``web/``) signs and checks the links; the service only asks for them,
through the ``WebLinks`` a running web server installs on the service
(``GameService.web_links``). So Discord, the mail gateway and the local table answer
``game link`` the same way, and none of them imports the web front end (siblings in the
layers contract). Without a web server the answer says how to start one.

A seat holder gets a private link per power they hold (privately: Discord sends it as an
ephemeral message, the mail gateway to the holder's own address); anyone gets the public link.
``game link revoke`` makes the holder's earlier links stop working, then gives new ones.
"""

from __future__ import annotations

from typing import Protocol

from rules.messages import catalogue, msg
from service.core import Result, ServiceCore


class WebLinks(Protocol):
    """What a running web server offers the service (``web.links.ServerLinks``)."""

    async def public_link(self, game_id: str) -> str: ...

    async def private_link(self, game_id: str, power: str, holder: str) -> str: ...

    async def revoke(self, game_id: str, power: str) -> None: ...


async def game_link(service: ServiceCore, links: WebLinks | None, game_id: str, person: str,
                    *, revoke: bool = False) -> Result:
    """The answer to ``game link [revoke]`` by ``person`` in ``game_id`` (see the module)."""
    info = await service.info(game_id)
    if links is None:
        return Result.refused(msg("links.no_web"), kind="game_link", game=info)
    powers = [p for p, holder in info.seats.items() if holder == person]
    if revoke and not powers:
        return Result.refused(msg("links.no_seat"), kind="game_link", game=info)
    if revoke:
        for p in powers:
            await links.revoke(game_id, p)
    public = await links.public_link(game_id)
    private = {p: await links.private_link(game_id, p, person) for p in powers}
    lines = [f"The board of game {game_id}, for anyone: {public}"]
    if private:
        if revoke:
            lines.append("Your earlier links no longer work.")
        lines.append("Your private link to play (keep it to yourself; 'game link revoke' "
                     "makes a new one and stops this one):")
        lines += [f"{p}: {url}" for p, url in private.items()]
    return Result(ok=True, answer="\n".join(lines), kind="game_link", game=info,
                  data={"public": public, "private": private})


catalogue("en", "links", {
    "no_web": "The game's web page is not running here: the bot's host starts it with "
              "WEB_ENABLED=true (docs/web.md); at the local table, '--web'.",
    "no_seat": "Only a seat holder has links to revoke; 'game link' gives the public board.",
})

__all__ = ["WebLinks", "game_link"]
