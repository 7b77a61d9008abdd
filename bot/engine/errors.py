"""The engine's refusals. Each carries a message a player can act on."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every refusal the engine raises."""


class IllegalMove(EngineError):
    """A move the rules do not allow now; ``str(error)`` says why in plain words.

    ``rule`` names the rule of RULES.md that refuses it (``R-CR-3``) when one does.
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


class InvalidOptions(EngineError):
    """Table options the game does not allow (refused before the table opens)."""


class InvalidDeal(EngineError):
    """An explicit deal that is not a partition of the set, or has no legal lead."""


class ReplayError(EngineError):
    """A record whose action at ``index`` could not be applied (``index`` -1: the record
    could not even be set up, before its first action)."""

    def __init__(self, index: int, action: object, reason: str) -> None:
        super().__init__(f"action {index} ({action}): {reason}")
        self.index = index
        self.action = action
        self.reason = reason
