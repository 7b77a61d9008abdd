"""The base round: one deal of one game, from the lead to domino or block.

Everything the four games share lives here: hands, boneyard, turns, drawing and passing
(R-ALL-4), the end of a round (R-ALL-5), counts (R-ALL-7), views that hide what must stay
hidden (R-ALL-6), and the ``to_dict``/``from_dict`` form. A game is a subclass that
fills in a few hooks: which tiles may lead, where tiles fit now (``_compute_fits``), how
the layout grows (``_lay``), how drawing works (``_may_draw``) and how a round scores
(``_score_round``). Layout families (spinner, line) sit between this class and the games.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from bot.engine.errors import IllegalMove, InvalidDeal
from bot.engine.moves import DRAW, END_NAMES, LEADS, PASS, Kind, Move, placements
from bot.engine.options import Options
from bot.engine.outcome import Reason, RoundOutcome, ScoreEvent
from bot.engine.tiles import FULL_SET, TILES, Tile, indices, mask_of, pip_count, tiles_of

Fits = list[tuple[int, int]]
"""Where tiles may go now: ``(end index, mask of tiles that fit there)`` per open end."""

_TIE = "Blocked, and the lowest counts tie: nobody scores (R-ALL-8)"


class Round(ABC):
    """One round of one game. ``legal_moves()`` for the seat to move, ``play(move)``,
    ``outcome()`` (None while running), ``scores`` (running totals per side)."""

    game: ClassVar[str]
    """The name commands and records use (``maltese-cross``)."""
    title: ClassVar[str]
    lead_rule: ClassVar[str]
    """The rule that says who leads and with what (cited when a lead is refused)."""
    draw_rule: ClassVar[str]
    """The rule for drawing and passing (cited when a draw or pass is refused)."""
    target_rule: ClassVar[str]
    """The rule that sets the game's target."""
    player_counts: ClassVar[tuple[int, ...]]
    ends: ClassVar[tuple[str, ...]]
    """The end names of this layout, in order (N E S W, or L R)."""
    place_rule: ClassVar[str]
    """The rule that says what a move names (cited when a move names the wrong end)."""
    default_target: ClassVar[int]
    target_range: ClassVar[tuple[int, int]]
    fixed_target: ClassVar[bool] = False
    offers_keep_last_two: ClassVar[bool] = False
    offers_match: ClassVar[bool] = False
    teams: ClassVar[bool] = False
    """Milo: seats 0 and 2 play against 1 and 3, and scores are per team."""
    draw_reserve: ClassVar[int] = 0
    """Boneyard tiles that are never drawn."""
    rotates_lead: ClassVar[bool] = False
    """Whether the match passes the lead round by round (Milo) rather than letting the
    game's lead rule pick it afresh each deal (the highest double)."""

    def __init__(
        self,
        hands: Sequence[Iterable[Tile]],
        boneyard: Iterable[Tile] = (),
        leader: int | None = None,
        *,
        options: Options | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        """Build a round from an explicit deal (R-ALL-3). ``leader`` None: the game's rule
        picks the leader. ``scores``: each side's running total when the round starts."""
        self.n = len(hands)
        self.options = options or Options.for_game(type(self), self.n)
        self.hands = [mask_of(hand) for hand in hands]
        self.boneyard = [t.index for t in boneyard]
        self._check_partition(hands)
        self.start_scores = tuple(scores) if scores is not None else (0,) * self.sides
        self.scores = list(self.start_scores)
        self.named_leader = leader is not None
        """Whether the caller chose the leader (Milo: the lead passed on, R-MI-3)."""
        self.leader = self._default_leader() if leader is None else leader
        if not 0 <= self.leader < self.n:
            raise InvalidDeal(f"leader {self.leader} is not a seat")
        if not self._lead_mask():
            raise InvalidDeal(f"seat {self.leader} holds no tile it may lead")
        self.turn = self.leader
        self.drew = False
        """Whether the seat to move has drawn this turn."""
        self.history: list[tuple[int, Move]] = []
        self.score_events: list[ScoreEvent] = []
        self._fits: Fits | None = None
        self._playable = 0
        self._legal: tuple[Move, ...] | None = None
        self._outcome: RoundOutcome | None = None
        self._init_layout()

    # -- construction -------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        players: int,
        rng: random.Random,
        *,
        options: Options | None = None,
        scores: Sequence[int] | None = None,
        leader: int | None = None,
    ) -> Round:
        """Shuffle and deal with ``rng`` (never the global random state, R-ALL-3),
        dealing again while the game's lead rule finds no leader (R-CR-2, R-MG-2)."""
        size = cls.hand_size(players)
        while True:
            tiles = list(TILES)
            rng.shuffle(tiles)
            hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
            try:
                return cls(hands, tiles[players * size :], leader, options=options, scores=scores)
            except InvalidDeal:
                continue

    @classmethod
    @abstractmethod
    def hand_size(cls, players: int) -> int: ...

    def _check_partition(self, hands: Sequence[Iterable[Tile]]) -> None:
        union, total = 0, 0
        for hand in self.hands:
            union |= hand
            total += hand.bit_count()
        for index in self.boneyard:
            union |= 1 << index
        total += len(self.boneyard)
        if union != FULL_SET or total != len(TILES):
            raise InvalidDeal("hands and boneyard must hold each of the 28 tiles exactly once")
        if self.n not in self.player_counts:
            raise InvalidDeal(f"{self.title} is not played by {self.n} players")

    # -- the hooks a game fills in ---------------------------------------------------

    @abstractmethod
    def _default_leader(self) -> int:
        """The seat that leads when the caller names none; raise InvalidDeal if none may."""

    @abstractmethod
    def _lead_mask(self) -> int:
        """The tiles the leader may lead."""

    @abstractmethod
    def _why_not_lead(self, tile: Tile) -> IllegalMove: ...

    @abstractmethod
    def _init_layout(self) -> None: ...

    @abstractmethod
    def _lay(self, tile: Tile, end: int | None) -> None:
        """Put ``tile`` on ``end`` (None: the lead) and update the layout."""

    @abstractmethod
    def _compute_fits(self) -> Fits: ...

    @abstractmethod
    def _why_not_fit(self, tile: Tile, end: int) -> IllegalMove:
        """Why ``tile`` may not go on ``end`` now (only asked when it may not)."""

    @abstractmethod
    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> tuple[int | None, str]:
        """Award the round's points with :meth:`_award`; return the winning side (None on
        a tie) and the explanation. ``winner_seat`` is who dominoed, or the one seat with
        the lowest count in a blocked round. A tie of seats for the lowest count is settled
        here only in team games (Milo adds partners' counts, R-MI-5); elsewhere it scores
        nothing (R-ALL-8) and this hook is not called.

        Explanations name seats as ``{0}``, ``{1}`` … so that a caller can fill in
        player names with ``str.format`` (see :meth:`RoundOutcome.describe`)."""

    @abstractmethod
    def open_ends(self) -> dict[str, int]:
        """The number each live end needs, by end name (what the picture labels)."""

    @abstractmethod
    def _layout_dict(self) -> dict[str, Any]: ...

    @abstractmethod
    def _load_layout(self, data: dict[str, Any]) -> None: ...

    def _may_draw(self) -> bool:
        """Whether the seat to move, holding nothing that fits, may draw now."""
        return len(self.boneyard) > self.draw_reserve

    def _after_lay(self, seat: int, tile: Tile) -> None:  # noqa: B027 (optional hook)
        """Called after every tile is laid, the lead included (play scoring, R-MG-4)."""

    def _after_draw(self) -> None:  # noqa: B027 (optional hook)
        """Called after every draw (dead arms, R-MC-5)."""

    def _award(self, side: int, points: int, reason: str, kind: str = "round") -> None:
        """Add ``points`` to ``side``'s running total (``kind``: see ScoreEvent). A round
        worth nothing (a domino against a lone 0-0, R-MG-6's 2 → 0) is no event."""
        if not points:
            return
        self.scores[side] += points
        self.score_events.append(ScoreEvent(side, points, reason, kind=kind))

    # -- the round as players see it -------------------------------------------------

    @property
    def sides(self) -> int:
        """How many sides score: seats, or the two Milo teams."""
        return 2 if self.teams else self.n

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> RoundOutcome | None:
        return self._outcome

    def hand(self, seat: int) -> list[Tile]:
        return tiles_of(self.hands[seat])

    def count(self, seat: int) -> int:
        return pip_count(self.hands[seat])

    @property
    def led(self) -> bool:
        return self._fits is not None

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the seat to move may make, each naming its end (R-SP-3)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> tuple[Move, ...]:
        if self._outcome is not None:
            return ()
        fits = self._fits
        hand = self.hands[self.turn]
        if fits is None:
            return tuple(LEADS[i] for i in indices(self._lead_mask() & hand))
        if hand & self._playable:
            moves: tuple[Move, ...] = ()
            for end, mask in fits:
                if hand & mask:
                    moves += placements(end, hand & mask)
            return moves
        return (DRAW,) if self._may_draw() else (PASS,)

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile that fits somewhere now."""
        return bool(self.hands[seat] & self._playable)

    def play(self, move: Move) -> None:
        """Make ``move`` for the seat to move, or raise :class:`IllegalMove` saying why."""
        if move not in (self._legal or self.legal_moves()):
            raise self._refusal(move)
        seat = self.turn
        self.history.append((seat, move))
        self._legal = None
        # Moves are interned, so a play is told by its tile and a draw by identity: both
        # far cheaper than comparing ``move.kind`` (an enum member lookup per move).
        tile = move.tile
        if tile is not None:
            self._place(seat, tile, move.end)
        elif move is DRAW:
            self.hands[seat] |= 1 << self.boneyard.pop(0)
            self.drew = True
            self._after_draw()
            self._check_blocked()
        else:
            self._next_turn()

    def _place(self, seat: int, tile: Tile, end: int | None) -> None:
        self.hands[seat] ^= tile.bit
        self._lay(tile, end)
        self._refresh_fits()
        self._after_lay(seat, tile)
        if self._outcome is not None:
            return
        if not self.hands[seat]:
            self._finish(Reason.DOMINO, seat)
            return
        self._next_turn()
        self._check_blocked()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.n
        self.drew = False

    def _refresh_fits(self) -> None:
        self._fits = fits = self._compute_fits()
        playable = 0
        for _, mask in fits:
            playable |= mask
        self._playable = playable
        self._legal = None

    def _check_blocked(self) -> None:
        """End the round at once if nobody can play and nobody may draw (R-ALL-5)."""
        if len(self.boneyard) > self.draw_reserve:
            return
        playable = self._playable
        if self.hands[self.turn] & playable:  # the usual case, settled at once
            return
        for hand in self.hands:
            if hand & playable:
                return
        counts = [pip_count(h) for h in self.hands]
        low = min(counts)
        lowest = [s for s, c in enumerate(counts) if c == low]
        self._finish(Reason.BLOCKED, lowest[0] if len(lowest) == 1 else None, counts)

    def _finish(
        self, reason: Reason, winner_seat: int | None, counts: list[int] | None = None
    ) -> None:
        if counts is None:
            counts = [pip_count(h) for h in self.hands]
        if winner_seat is None and reason is Reason.BLOCKED and not self.teams:
            winner, explanation = None, _TIE
        else:
            winner, explanation = self._score_round(reason, winner_seat, counts)
        self._set_outcome(reason, winner, counts, explanation)

    def _set_outcome(
        self, reason: Reason, winner: int | None, counts: list[int], explanation: str
    ) -> None:
        self._outcome = RoundOutcome(
            reason,
            winner,
            tuple(now - then for now, then in zip(self.scores, self.start_scores, strict=True)),
            tuple(counts),
            tuple(tuple(tiles_of(h)) for h in self.hands),
            explanation,
        )
        self._legal = None

    # -- refusals --------------------------------------------------------------------

    def _refusal(self, move: Move) -> IllegalMove:
        """Explain why ``move`` is not legal now (the slow path: only on refusal)."""
        if self._outcome is not None:
            return IllegalMove("the round is over")
        hand = self.hands[self.turn]
        if move.kind is not Kind.PLAY:
            if hand & self._playable and self.led:
                return IllegalMove("you hold a tile that fits, so you must play it", "R-ALL-4")
            if not self.led:
                return IllegalMove("the round has not been led yet: lead a tile", self.lead_rule)
            if move.kind is Kind.DRAW:
                return self._why_no_draw()
            return IllegalMove("you cannot play, so you must draw first", self.draw_rule)
        tile = move.tile
        assert tile is not None
        if not hand & tile.bit:
            return IllegalMove(f"{tile} is not in your hand")
        if not self.led:
            if move.end is not None:
                return IllegalMove(
                    f"the first tile names no end: play just {tile}", self.place_rule
                )
            return self._why_not_lead(tile)
        places = [END_NAMES[e] for e, mask in self._fits or () if mask & tile.bit]
        if move.end is None:
            if places:
                return IllegalMove(f"say where {tile} goes: {' or '.join(places)}", self.place_rule)
            return IllegalMove(f"{tile} does not fit anywhere now")
        if END_NAMES[move.end] not in self.ends:
            return IllegalMove(f"this layout's ends are {', '.join(self.ends)}", self.place_rule)
        error = self._why_not_fit(tile, move.end)
        if places:
            return IllegalMove(f"{error.reason}; {tile} fits on {' or '.join(places)}", error.rule)
        return error

    def _why_no_draw(self) -> IllegalMove:
        return IllegalMove(
            f"nobody draws: {len(self.boneyard)} tiles are left in the boneyard, you pass",
            self.draw_rule,
        )

    # -- views and the dict form ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state, hidden parts included; ``from_dict`` rebuilds it exactly."""
        return {
            "game": self.game,
            "options": self.options.to_dict(),
            "hands": [[str(t) for t in tiles_of(h)] for h in self.hands],
            "boneyard": [str(TILES[i]) for i in self.boneyard],
            **self._shared_dict(),
        }

    def public_view(self) -> dict[str, Any]:
        """What everyone may see (R-ALL-6): hand sizes and the boneyard count, no tiles."""
        return {
            "game": self.game,
            "title": self.title,
            "options": self.options.to_dict(),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "boneyard_count": len(self.boneyard),
            "open_ends": self.open_ends(),
            **self._shared_dict(),
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: the public view, its own hand and, on its turn, its moves."""
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = [str(t) for t in tiles_of(self.hands[seat])]
        view["legal"] = [m.text for m in self.legal_moves()] if seat == self.turn else []
        return view

    def _shared_dict(self) -> dict[str, Any]:
        return {
            "players": self.n,
            "leader": self.leader,
            "named_leader": self.named_leader,
            "turn": self.turn,
            "drew": self.drew,
            "scores": list(self.scores),
            "start_scores": list(self.start_scores),
            "history": [[seat, move.text] for seat, move in self.history],
            "score_events": [e.to_dict() for e in self.score_events],
            "layout": self._layout_dict() if self.led else None,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        """Rebuild a round from :meth:`to_dict` (or a view whose hidden parts a computer
        player has filled with a guess)."""
        options = Options(**data["options"])
        self = cls.__new__(cls)
        self.n = data["players"]
        self.options = options
        self.hands = [mask_of(Tile.parse(t) for t in hand) for hand in data["hands"]]
        self.boneyard = [Tile.parse(t).index for t in data["boneyard"]]
        self.start_scores = tuple(data["start_scores"])
        self.scores = list(data["scores"])
        self.leader = data["leader"]
        self.named_leader = data["named_leader"]
        self.turn = data["turn"]
        self.drew = data["drew"]
        self.history = [(seat, Move.parse(text)) for seat, text in data["history"]]
        self.score_events = [ScoreEvent.from_dict(e) for e in data["score_events"]]
        self._legal = None
        self._fits = None
        self._playable = 0
        self._init_layout()
        if data["layout"] is not None:
            self._load_layout(data["layout"])
            self._refresh_fits()
        self._outcome = RoundOutcome.from_dict(data["outcome"]) if data["outcome"] else None
        return self

    def copy(self) -> Round:
        """An independent copy (for search: computer players try moves on copies)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.hands = self.hands.copy()
        new.boneyard = self.boneyard.copy()
        new.scores = self.scores.copy()
        new.history = self.history.copy()
        new.score_events = self.score_events.copy()
        self._copy_layout(new)
        return new

    @abstractmethod
    def _copy_layout(self, new: Round) -> None:
        """Give ``new`` its own copies of the layout's mutable parts."""
