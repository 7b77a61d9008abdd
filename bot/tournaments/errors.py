"""The tournament core's refusals: exception classes that carry data, as the engine's do.

Each class keeps the facts a caller needs to word the refusal itself (in any language)
and a default English ``str()`` for developers and logs::

    TournamentError
    ├── BadSeating           (.size, .smaller, .drawn_partners) a table shape no game has
    ├── BadAdvance           (.size, .advance) a knockout that cannot feed its next round
    ├── NoBracket            (.entrants, .size, .counts) no knockout whose every table the
    │                        game allows
    ├── NotForKnockout       drawn partners in a knockout (its sides are fixed)
    ├── TooFewEntrants       (.count, .least) not enough entrants for the format
    ├── DuplicateEntrant     (.entrant) named twice among the entrants or at one table
    ├── UnknownEntrant       (.entrant) a record names someone who is not an entrant
    ├── BadResult            (.round, .table, .problem) a result whose parts do not agree
    ├── SeatedTwice          (.round, .entrant) two results or byes for one entrant in a round
    ├── NoSuchTable          (.round, .table) no result to adjust there
    └── NotTheSameTable      (.round, .table) an adjustment that changes who sat there
"""

from __future__ import annotations

from collections.abc import Sequence


class TournamentError(Exception):
    """Base of every refusal of the tournament core."""


class BadSeating(TournamentError):
    """Tables of ``size`` entrants (2–4), smaller ones of ``smaller`` sizes (each from 2 to
    ``size - 1``), drawn partners only at tables of four: anything else is no game's."""

    def __init__(self, size: int, smaller: Sequence[int], drawn_partners: bool) -> None:
        shape = f"tables of {size}, smaller {list(smaller)}"
        if drawn_partners:
            shape += ", drawn partners"
        super().__init__(f"no game seats {shape}")
        self.size = size
        self.smaller = tuple(smaller)
        self.drawn_partners = drawn_partners


class BadAdvance(TournamentError):
    """A knockout table of ``size`` sides sending ``advance`` on: ``advance`` must be
    fewer than ``size`` and divide it, so that whole tables feed each later table (1 of
    2, 3 or 4; 2 of 4)."""

    def __init__(self, size: int, advance: int) -> None:
        super().__init__(f"{advance} of each table of {size} cannot advance")
        self.size = size
        self.advance = advance


class NoBracket(TournamentError):
    """No knockout for ``entrants`` entrants where every first-round table holds a
    number of players in ``counts`` (or only those who advance anyway): a game that
    allows too few table sizes."""

    def __init__(self, entrants: int, size: int, counts: Sequence[int]) -> None:
        super().__init__(
            f"no knockout of {entrants} entrants at tables of {size} with {list(counts)} players"
        )
        self.entrants = entrants
        self.size = size
        self.counts = tuple(counts)


class NotForKnockout(TournamentError):
    """A knockout with drawn partners: a knockout's sides go on whole, so partners sign
    up together (a pair is one entrant)."""

    def __init__(self) -> None:
        super().__init__("a knockout cannot draw partners: pairs sign up together")


class TooFewEntrants(TournamentError):
    """``count`` entrants where the format needs ``least``."""

    def __init__(self, count: int, least: int) -> None:
        super().__init__(f"{count} entrants, and at least {least} are needed")
        self.count = count
        self.least = least


class DuplicateEntrant(TournamentError):
    """``entrant`` is named twice where each entrant is named once."""

    def __init__(self, entrant: int) -> None:
        super().__init__(f"entrant {entrant} is named twice")
        self.entrant = entrant


class UnknownEntrant(TournamentError):
    """A result or bye names ``entrant``, who is not among the tournament's entrants."""

    def __init__(self, entrant: int) -> None:
        super().__init__(f"entrant {entrant} is not in the tournament")
        self.entrant = entrant


class BadResult(TournamentError):
    """The result of table ``table`` in round ``round`` does not hold together;
    ``problem`` says how (in English, for logs: a caller words its own refusal from the
    position)."""

    def __init__(self, round: int, table: int, problem: str) -> None:
        super().__init__(f"round {round}, table {table}: {problem}")
        self.round = round
        self.table = table
        self.problem = problem


class SeatedTwice(TournamentError):
    """``entrant`` has two results, or a result and a bye, in round ``round``."""

    def __init__(self, round: int, entrant: int) -> None:
        super().__init__(f"entrant {entrant} is seated twice in round {round}")
        self.round = round
        self.entrant = entrant


class NoSuchTable(TournamentError):
    """An adjustment names table ``table`` of round ``round``, which has no result."""

    def __init__(self, round: int, table: int) -> None:
        super().__init__(f"round {round} has no result at table {table}")
        self.round = round
        self.table = table


class NotTheSameTable(TournamentError):
    """An adjustment of table ``table`` in round ``round`` seats other entrants than the
    result it replaces: an adjustment changes how a table ended, not who played it."""

    def __init__(self, round: int, table: int) -> None:
        super().__init__(f"the adjustment of round {round}, table {table} seats other entrants")
        self.round = round
        self.table = table
