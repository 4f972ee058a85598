"""Battle odds (issue 3, part 3; issue 18): the battle model of ``rules.battle`` evaluated exactly,
or by Monte Carlo beyond a budget.

A package above ``rules`` because its fastest method is array arithmetic (numpy), which the engine
may not import (import-linter ``rules-pure``); the engine never asks for odds. The service asks
(the ``odds`` order, the battle board) and ``render`` draws an ``OddsResult``.

- ``ask``: the questions and answers (``odds``, ``battle_odds``, ``summary``, the refusals);
- ``fast``: the exact method on the grid of hits absorbed, as array arithmetic (land battles, sea
  battles without submarines, AA fire and bombardment before round 1);
- ``grid``: the same grid in plain Python (the method before ``fast``, kept for the tests);
- ``joint``: the exact method elsewhere (submarines, transports), on joint multisets;
- ``core``: the model on states (``rules.battle.model`` and ``casualties`` applied to counts),
  Monte Carlo, and the first exact method, the reference the others are tested against.
"""

import os

# One BLAS thread, set before numpy is first imported (an environment the user set wins): the
# arrays here are small (a hundred rows) and OpenBLAS's threads spin against each other and the
# process's other work; on a loaded 2-core machine 80 ships a side took 0.39 s with two threads
# and 0.09 s with one.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
