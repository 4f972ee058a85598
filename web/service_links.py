"""The web page's links as the service asks for them (``service.links.WebLinks``).

A running web server installs ``ServerLinks`` on the service (``install``), so that
``game link`` answers with real links in Discord, by mail and at the local table, none of
which may import this package (siblings in the layers contract).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import links as lk

if TYPE_CHECKING:
    from service.games import GameService
    from web.server import WebServer


class ServerLinks:
    """Links to the pages of one web server (its public address, its links' lifetime)."""

    def __init__(self, service: GameService, base_url: str, days: int) -> None:
        self.store = service.store
        self.base_url = base_url.rstrip("/")
        self.days = days

    async def public_link(self, game_id: str) -> str:
        return await lk.public_link(self.store, self.base_url, game_id)

    async def private_link(self, game_id: str, power: str, holder: str) -> str:
        return await lk.private_link(self.store, self.base_url, game_id, power, holder,
                                     days=self.days)

    async def revoke(self, game_id: str, power: str) -> None:
        await lk.revoke(self.store, game_id, power)


def install(service: GameService, server: WebServer) -> ServerLinks:
    """Make ``service`` give the links of ``server`` (a started server: its port is known)."""
    links = ServerLinks(service, server.public_url, server.config.link_days)
    service.web_links = links
    return links


__all__ = ["ServerLinks", "install"]
