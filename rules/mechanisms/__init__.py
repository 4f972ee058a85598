"""The mechanisms of the game, each in its own module, registered with the engine on import
(``rules.turn.registry``). The order of imports is the order their phase handlers run in.
"""

from rules.mechanisms import (  # noqa: F401  (imported to register)
    combat,
    game,
    income,
    mobilize,
    movement,
    purchase,
    research,
    rockets,
    withdrawal,
)
