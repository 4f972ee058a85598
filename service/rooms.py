"""Every room of the service in one class: what the text front door (``service.commands``)
runs a command in, and what ``GameService`` adds the text entry points to.

The rooms (each a mixin over ``service.core.ServiceCore``, each a module of its own concern):

- ``LobbyRoom`` (``service.lobby``): create, join, start, leave, substitute, kick; votes to
  cancel, draw or concede;
- ``OrdersRoom`` (``service.orders``): one typed order for a person, undo;
- ``DeadlinesRoom`` (``service.deadlines``): deadlines, pause and resume, the deadline action;
- ``ViewsRoom`` (``service.views``): status, history, map, the games of a server;
- ``ArchiveRoom`` (``service.archive``): dice verification, the log's checks and repair,
  export and import.
"""

from __future__ import annotations

from service.archive import ArchiveRoom
from service.deadlines import DeadlinesRoom
from service.links import WebLinks
from service.lobby import LobbyRoom
from service.orders import OrdersRoom
from service.views import ViewsRoom


class Rooms(LobbyRoom, DeadlinesRoom, OrdersRoom, ViewsRoom, ArchiveRoom):
    """The service's rooms together, without its text entry points (``GameService``)."""

    # The web page's links, installed by a running web server (``service.links``).
    web_links: WebLinks | None = None


__all__ = ["Rooms"]
