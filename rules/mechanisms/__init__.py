"""The mechanisms of the game, each in its own module, registered with the engine on import
(``rules.turn.registry``). The order of imports is the order their phase handlers run in.
"""

from rules.mechanisms import (  # noqa: F401  (imported to register)
    bombard,
    combat,
    convoys,
    facilities,
    game,
    income,
    liberation,
    mobilize,
    movement,
    neutrals,
    objectives,
    politics,
    purchase,
    research,
    rockets,
    victory,
    withdrawal,
)

# isort: split
# After combat: the decisions it waits for are listed after the battles' (engine.pending).
from rules.mechanisms import (
    bombing,  # noqa: F401
    interception,  # noqa: F401  (after bombing: raids come first)
    scramble,  # noqa: F401  (after interception: the same window, SC-1, SC-8)
)
