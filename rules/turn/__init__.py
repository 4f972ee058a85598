"""The turn: the registry mechanisms add themselves to, the transaction ``decide`` builds, and
the phase machine that walks an edition's phases (its data) through their handlers."""
