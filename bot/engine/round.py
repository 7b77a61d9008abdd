"""The base round: one deal of one game, from the lead to domino or block.

Everything the four games share lives here: hands, boneyard, turns, drawing and passing
(R-ALL-4; a draw is one turn, R-CR-5), explicit deals held to the rules (R-ALL-3), the
end of a round (R-ALL-5), counts (R-ALL-7), views that hide what must stay hidden
(R-ALL-6, :meth:`Round.view`), refusals with their data, and the ``to_dict``/``from_dict``
form. A game is a subclass that sets its traits (class attributes: ``drawing``,
``teams``, ``exact_target`` …) and fills in a few hooks: which tiles may lead, where
tiles fit now (``_compute_fits``), how the layout grows (``_lay``), why a tile does not
fit (``_why_not_fit``) and how a round scores (``_score_round``). Layout families
(spinner, line) sit between this class and the games.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Self

from bot.engine.errors import (
    AlreadyDrew,
    AmbiguousMove,
    BadOptionType,
    FitsNowhere,
    IllegalMove,
    InvalidDeal,
    LeadNamesNoEnd,
    LeadRule,
    MustDrawFirst,
    MustPlay,
    NoBoneyard,
    NoDouble,
    NoDrawAllowed,
    NotAMove,
    NotAnEnd,
    NotASeat,
    NotASide,
    NotEachTileOnce,
    NotInHand,
    NotLedYet,
    OnlyDrawnTile,
    RoundOver,
    WrongEnd,
    WrongHandCount,
    WrongHandSize,
    WrongPlayerCount,
    WrongScores,
    brief,
)
from bot.engine.moves import DRAW, END_NAMES, LEADS, PASS, Kind, Move, placements
from bot.engine.options import Options
from bot.engine.outcome import (
    MatchOutcome,
    Reason,
    RoundOutcome,
    RoundScore,
    ScoreEvent,
    ScoreKind,
)
from bot.engine.tiles import FULL_SET, TILES, Tile, indices, mask_of, pip_count, tiles_of
from bot.engine.traits import Drawing, LayoutKind
from bot.engine.views import Layout, PublicView, SeatView, layout_from_dict

Fits = list[tuple[int, int]]
"""Where tiles may go now: ``(end index, mask of tiles that fit there)`` per open end."""


def _items(what: str, value: object) -> list[object]:
    """``value`` as a list, if it is a sequence (a string is not one)."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidDeal(f"{what} must be a list, not {brief(value)}")
    return list(value)


@functools.cache
def _sides(variant: type[Round], players: int) -> tuple[tuple[int, ...], ...]:
    """Each side's seats (memoised: outcomes and awards ask for them every round)."""
    sides = range(variant.side_count(players))
    return tuple(tuple(s for s in range(players) if variant.side_of(s) == side) for side in sides)


def _seat(seat: int, players: int) -> int:
    """``seat``, if it is one of ``players`` seats (R-ALL-2): an ``int`` (not a bool) from
    0, which a list index would not check (``hands[-1]`` is the last seat's)."""
    if type(seat) is not int or not 0 <= seat < players:
        raise NotASeat(seat, players)
    return seat


def _tiles(what: str, value: object) -> list[Tile]:
    tiles = _items(what, value)
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise InvalidDeal(f"{what} must hold tiles, not {brief(tile)}")
    return tiles  # type: ignore[return-value]


class Round(ABC):
    """One round of one game. ``legal_moves()`` for the seat to move, ``play(move)``,
    ``outcome()`` (None while running), ``scores`` (running totals per side)."""

    game: ClassVar[str]
    """The name commands and records use (``maltese-cross``)."""
    title: ClassVar[str]
    lead_rule: ClassVar[str]
    """The rule that says who leads and with what (cited when a lead is refused)."""
    dealt_lead: ClassVar[LeadRule]
    """Whom the rules name to lead a deal the lead did not pass on to: the holder of the
    highest double (R-CR-2, R-MG-2) or of 6-6 (Milo, R-MI-3)."""
    draw_rule: ClassVar[str]
    """The rule for drawing and passing (cited when a draw or pass is refused)."""
    deal_rule: ClassVar[str]
    """The rule that sets the players and hand sizes (cited when a deal is refused)."""
    target_rule: ClassVar[str]
    """The rule that sets the game's target."""
    score_rule: ClassVar[str]
    """The rule that scores a round."""
    player_counts: ClassVar[tuple[int, ...]]
    """The numbers of players the game is played by, fewest first."""
    ends: ClassVar[tuple[str, ...]]
    """The end names of this layout, in order (N E S W, or L R)."""
    place_rule: ClassVar[str]
    """The rule that says what a move names (cited when a move names the wrong end)."""
    default_target: ClassVar[int]
    target_range: ClassVar[tuple[int, int]]
    offers_keep_last_two: ClassVar[bool] = False
    offers_match: ClassVar[bool] = False
    match_rule: ClassVar[str | None] = None
    """The rule for a match of several games, where the game offers one (R-MI-7)."""
    draw_reserve: ClassVar[int] = 0
    """Boneyard tiles that are never drawn."""

    # -- traits: what the layers above ask instead of testing a game's name -------------

    teams: ClassVar[bool] = False
    """Two fixed partnerships, seats 0 and 2 against 1 and 3, scoring per team (R-MI-1);
    see :meth:`side_of` and :meth:`partners`."""
    fixed_target: ClassVar[bool] = False
    """The target cannot be changed at the table (R-MG-7)."""
    exact_target: ClassVar[bool] = False
    """The game is won by reaching the target exactly; a score that would pass it is not
    added ("bust", R-MG-7), and reaching it ends the round at once."""
    drawing: ClassVar[Drawing]
    """How a seat that cannot play gets a tile (R-CR-5, R-MG-5, R-MI-4)."""
    layout_kind: ClassVar[LayoutKind]
    """Spinner (four arms) or line (two ends)."""
    scores_plays: ClassVar[bool] = False
    """Tiles score as they are laid when the open ends make a multiple of 5 (R-MG-4)."""
    has_caps: ClassVar[bool] = False
    """Every arm is capped with a double before open play, and uncapped arms die when the
    boneyard runs down (R-MC-3..5)."""
    rotates_lead: ClassVar[bool] = False
    """Whether the match passes the lead round by round (Milo) rather than letting the
    game's lead rule pick it afresh each deal (the highest double)."""

    @classmethod
    def side_of(cls, seat: int) -> int:
        """The side ``seat`` scores for: itself, or its team (R-MI-1). The one place the
        partnership rule is written. ``seat`` is one of the most seats the game has (the
        check spelled out: searches ask it of every position they try)."""
        most = cls.player_counts[-1]
        if type(seat) is not int or not 0 <= seat < most:
            raise NotASeat(seat, most)
        return seat % 2 if cls.teams else seat

    @classmethod
    def partners(cls, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side: its partner across the table in a team
        game, none otherwise."""
        _seat(seat, cls.player_counts[-1])
        return ((seat + 2) % 4,) if cls.teams else ()

    @classmethod
    def side_count(cls, players: int) -> int:
        """How many sides score with ``players`` seats: seats, or the two teams."""
        return 2 if cls.teams else players

    @classmethod
    def seats_of(cls, side: int, players: int) -> tuple[int, ...]:
        """The seats that score for ``side``, in seat order."""
        sides = cls.sides_of(players)
        if type(side) is not int or not 0 <= side < len(sides):
            raise NotASide(side, len(sides))
        return sides[side]

    @classmethod
    def sides_of(cls, players: int) -> tuple[tuple[int, ...], ...]:
        """Each side's seats, with ``players`` seats (a number the game is played by)."""
        if type(players) is not int or players not in cls.player_counts:
            raise WrongPlayerCount(cls, cls.player_counts, players)
        return _sides(cls, players)

    @classmethod
    def fewest_rounds(cls, target: int) -> int:
        """The fewest rounds a game to ``target`` can last: one, unless the game's scoring
        says more (what a match knows of its later deals' leaders before any play)."""
        return 1

    def __init__(
        self,
        hands: Sequence[Iterable[Tile]],
        boneyard: Iterable[Tile] = (),
        leader: int | None = None,
        *,
        options: Options | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        """Build a round from an explicit deal, held to the game's rules (R-ALL-3): each
        tile once, the game's hand sizes, and the leader the rules name (``leader`` None:
        the game's rule picks it). ``scores``: each side's running total when the round
        starts. Anything else is refused with :class:`InvalidDeal` before any play."""
        dealt = [_tiles("a hand", hand) for hand in _items("hands", hands)]
        bone = _tiles("the boneyard", boneyard)
        players = len(dealt)
        if players not in self.player_counts:
            raise WrongHandCount(type(self), self.player_counts, players)
        options = self._checked_options(options, players)
        start_scores = self._checked_scores(scores, players, options)
        leader = self._checked_leader(leader, players)
        size = self.hand_size(players)
        for seat, hand in enumerate(dealt):
            if len(hand) != size:
                raise WrongHandSize(type(self), players, seat, size, len(hand))
        every = [t for hand in dealt for t in hand] + bone
        if len(every) != len(TILES) or mask_of(every) != FULL_SET:
            raise NotEachTileOnce()
        self._start(
            [mask_of(hand) for hand in dealt],
            [t.index for t in bone],
            options,
            start_scores,
            leader,
        )

    def _start(
        self,
        hands: list[int],
        boneyard: list[int],
        options: Options,
        start_scores: tuple[int, ...],
        leader: int | None,
    ) -> None:
        """Begin the round from a deal of the right shape (each tile once, the game's
        hand sizes), with the leader the rules name (R-ALL-3)."""
        self.n = len(hands)
        self.options = options
        self.hands = hands
        self.boneyard = boneyard
        self.start_scores = start_scores
        self.scores = list(start_scores)
        self.named_leader = leader is not None
        """Whether the caller chose the leader (Milo: the lead passed on, R-MI-3)."""
        if leader is None:
            self.leader = self._default_leader()
        else:
            self.leader = leader
            self._check_leader()
        self.turn = self.leader
        self.drew = False
        """Whether the seat to move has drawn this turn."""
        self.drawn = 0
        """While :attr:`drew`: the bit of the tile drawn last, the only one that may be
        played this turn (R-CR-5, R-MG-5, R-MC-5)."""
        self.history: list[tuple[int, Move]] = []
        self.score_events: list[ScoreEvent] = []
        self._fits: Fits | None = None
        self._playable = 0
        self._legal: tuple[Move, ...] | None = None
        self._outcome: RoundOutcome | None = None
        self._init_layout()

    @classmethod
    def _checked_options(cls, options: Options | None, players: int) -> Options:
        if options is None:
            return Options.for_game(cls, players)
        if not isinstance(options, Options):
            raise BadOptionType("options", "Options", options)
        return options

    @classmethod
    def _checked_scores(
        cls, scores: Sequence[int] | None, players: int, options: Options
    ) -> tuple[int, ...]:
        """Each side's total when the round starts: one a side, each a score the game can
        be at and still go on, below its target (R-CR-7, R-MC-6, R-MG-7, R-MI-6)."""
        sides = cls.side_count(players)
        if scores is None:
            return (0,) * sides
        target = options.target
        if isinstance(scores, str | bytes) or not isinstance(scores, Iterable):
            raise WrongScores(cls, sides, target, scores)
        totals = tuple(scores)
        if len(totals) != sides or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < target for s in totals
        ):
            raise WrongScores(cls, sides, target, scores)
        return totals

    @staticmethod
    def _checked_leader(leader: int | None, players: int) -> int | None:
        if leader is None:
            return None
        if isinstance(leader, bool) or not isinstance(leader, int):
            raise InvalidDeal(f"the leader must be a seat number, not {brief(leader)}")
        if not 0 <= leader < players:
            raise InvalidDeal(f"leader {brief(leader)} is not a seat")
        return leader

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
    ) -> Self:
        """Shuffle and deal with ``rng`` (never the global random state, R-ALL-3),
        dealing again while the game's lead rule finds no leader (R-CR-2, R-MG-2)."""
        if type(players) is not int or players not in cls.player_counts:
            raise WrongPlayerCount(cls, cls.player_counts, players)
        options = cls._checked_options(options, players)
        start_scores = cls._checked_scores(scores, players, options)
        leader = cls._checked_leader(leader, players)
        size = cls.hand_size(players)
        while True:
            tiles = list(TILES)
            rng.shuffle(tiles)
            new = cls.__new__(cls)
            try:
                new._start(
                    [mask_of(tiles[i * size : (i + 1) * size]) for i in range(players)],
                    [t.index for t in tiles[players * size :]],
                    options,
                    start_scores,
                    leader,
                )
            except NoDouble:
                continue
            return new

    @classmethod
    @abstractmethod
    def hand_size(cls, players: int) -> int: ...

    # -- the hooks a game fills in ---------------------------------------------------

    @abstractmethod
    def _default_leader(self) -> int:
        """The seat that leads when the caller names none; raise :class:`NoDouble` if
        nobody may (then :meth:`deal` deals again)."""

    @abstractmethod
    def _check_leader(self) -> None:
        """Refuse a leader the caller named that the rules do not name (R-ALL-3)."""

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
    def _why_not_fit(self, tile: Tile, end: int, fits_on: tuple[str, ...]) -> WrongEnd:
        """Why ``tile`` may not go on ``end`` now (only asked when it may not);
        ``fits_on``: the ends where it may."""

    @abstractmethod
    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> RoundScore:
        """Award the round's points with :meth:`_award`; return how the round scored.
        ``winner_seat`` is who dominoed, or the one seat with the lowest count in a
        blocked round. A tie of seats for the lowest count is settled here only in team
        games (Milo adds partners' counts, R-MI-5); elsewhere it scores nothing (R-ALL-8)
        and this hook is not called."""

    @abstractmethod
    def open_ends(self) -> dict[str, int]:
        """The number each live end needs, by end name (what the picture labels)."""

    @abstractmethod
    def _layout_dict(self) -> dict[str, Any]: ...

    @abstractmethod
    def _layout_view(self) -> Layout:
        """The layout as :class:`PublicView` shows it (only asked once led)."""

    @abstractmethod
    def _load_layout(self, layout: Layout) -> None:
        """Lay the tiles of ``layout`` on this round's empty layout."""

    def _may_draw(self) -> bool:
        """Whether the seat to move, holding nothing that fits, may draw now: while the
        boneyard holds more than nobody draws, once a turn in Cross (R-CR-5)."""
        if self.drew and self.drawing is Drawing.ONE_THEN_PASS:
            return False
        return len(self.boneyard) > self.draw_reserve

    def _after_lay(self, seat: int, tile: Tile) -> None:  # noqa: B027 (optional hook)
        """Called after every tile is laid, the lead included (play scoring, R-MG-4)."""

    def _after_draw(self) -> None:  # noqa: B027 (optional hook)
        """Called after every draw (dead arms, R-MC-5)."""

    def _award(
        self, side: int, points: int, kind: ScoreKind, rule: str, open_sum: int | None = None
    ) -> None:
        """Add ``points`` to ``side``'s running total, or, where the target must be hit
        exactly, refuse them if they would pass it (bust, R-MG-7). A round worth nothing
        (a domino against a lone 0-0, R-MG-6's 2 → 0) is no event."""
        if not points:
            return
        seats = self.seats_of(side, self.n)
        target = self.options.target
        if self.exact_target and self.scores[side] + points > target:
            event = ScoreEvent(
                side, points, kind, rule, seats, True, open_sum, target, self.target_rule
            )
        else:
            self.scores[side] += points
            event = ScoreEvent(side, points, kind, rule, seats, open_sum=open_sum)
        self.score_events.append(event)

    # -- the round as players see it -------------------------------------------------

    @property
    def sides(self) -> int:
        """How many sides score: seats, or the two Milo teams."""
        return self.side_count(self.n)

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> RoundOutcome | None:
        return self._outcome

    def hand(self, seat: int) -> list[Tile]:
        return tiles_of(self.hands[_seat(seat, self.n)])

    def count(self, seat: int) -> int:
        return pip_count(self.hands[_seat(seat, self.n)])

    @property
    def led(self) -> bool:
        return self._fits is not None

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the seat to move may make, each naming its end (R-SP-3)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def forced_move(self) -> Move | None:
        """The move the rules leave the seat to move no choice about: the pass when it
        can neither play nor draw (R-CR-5, R-MG-5, R-MI-4), or one that follows its own
        draw: another draw, as Merry-Go-Round draws on until a tile fits (R-MG-5), or
        the pass when the tile drawn fits nowhere (R-CR-5, R-MC-3). None while there is
        a choice (where a tile goes is one), and for a turn's first draw, which brings
        the player new tiles: that is their own act, made with their hand in sight."""
        legal = self.legal_moves()
        if len(legal) != 1:
            return None
        move = legal[0]
        return move if move is PASS or (move is DRAW and self.drew) else None

    def _generate(self) -> tuple[Move, ...]:
        if self._outcome is not None:
            return ()
        fits = self._fits
        if fits is None:
            return tuple(LEADS[i] for i in indices(self._lead_mask() & self.hands[self.turn]))
        # A draw is one turn (R-CR-5, R-MG-5): after it only the drawn tile may be played,
        # even when the draw changed where tiles fit (R-MC-5). See _movable, spelled out.
        movable = self.drawn if self.drew else self.hands[self.turn]
        if movable & self._playable:
            moves: tuple[Move, ...] = ()
            for end, mask in fits:
                if movable & mask:
                    moves += placements(end, movable & mask)
            return moves
        return (DRAW,) if self._may_draw() else (PASS,)

    def _movable(self) -> int:
        """The tiles the seat to move may play this turn, if they fit: its hand, or after
        a draw only the tile it drew last. A draw is one turn (R-CR-5, R-MG-5): the drawn
        tile is played if it fits, and no other tile may be, even when the draw changed
        where tiles fit (R-MC-5: the arms die, and play opens on the capped ones)."""
        return self.drawn if self.drew else self.hands[self.turn]

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile that fits somewhere now."""
        return bool(self.hands[_seat(seat, self.n)] & self._playable)

    def play(self, move: Move | str) -> None:
        """Make ``move`` (a :class:`Move`, or its exact text form) for the seat to move, or
        raise :class:`IllegalMove` saying why; anything else is :class:`NotAMove`."""
        if move not in (self._legal or self.legal_moves()):
            if isinstance(move, str):
                self.play(Move.parse(move))
                return
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
            drawn = 1 << self.boneyard.pop(0)
            self.hands[seat] |= drawn
            self.drew = True
            self.drawn = drawn
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
        self.drew = False  # ``drawn`` is read only while ``drew``: no need to clear it

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
            score = RoundScore(None, "R-ALL-8")
        else:
            score = self._score_round(reason, winner_seat, counts)
        self._outcome = RoundOutcome(
            reason,
            score.winner,
            tuple(now - then for now, then in zip(self.scores, self.start_scores, strict=True)),
            tuple(counts),
            tuple(tuple(tiles_of(h)) for h in self.hands),
            self.sides_of(self.n),
            score.rule,
            score.seat,
            score.own,
            score.others,
            score.raw,
            score.rounded,
            score.bonus,
            score.team_counts,
            score.target,
        )
        self._legal = None

    # -- refusals --------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a player's move text against the position, as python-chess's
        ``Board.parse_uci`` does: ``6-5 N``, ``6-5`` (the end filled in when the tile fits
        just one), ``draw`` or ``pass``, in any form :meth:`Move.parse` reads. Returns a
        legal move, or raises: :class:`NotAMove` for text that is no move,
        :class:`AmbiguousMove` (with the tile and its ends) when the tile fits several
        ends and none was named, and another :class:`IllegalMove` for a move the rules
        refuse now."""
        move = Move.parse(text)
        legal = self.legal_moves()
        if move in legal:
            return move
        if move.tile is not None and move.end is None and self.led:
            places = [m for m in legal if m.tile is move.tile]
            if len(places) == 1:
                return places[0]
        raise self._refusal(move)

    def _refusal(self, move: object) -> IllegalMove:
        """Explain why ``move`` is not legal now (the slow path: only on refusal)."""
        if not isinstance(move, Move):
            return NotAMove(move)
        if self._outcome is not None:
            return RoundOver()
        hand = self.hands[self.turn]
        drawn = TILES[self.drawn.bit_length() - 1] if self.drew else None
        if move.kind is not Kind.PLAY:
            if self._movable() & self._playable and self.led:
                return MustPlay(self.draw_rule, drawn) if drawn else MustPlay("R-ALL-4")
            if not self.led:
                return NotLedYet(self.lead_rule)
            if move.kind is Kind.DRAW:
                return self._why_no_draw()
            return MustDrawFirst(self.draw_rule, drawn)
        tile = move.tile
        assert tile is not None
        if not hand & tile.bit:
            return NotInHand(tile)
        if not self.led:
            if move.end is not None:
                return LeadNamesNoEnd(tile, self.place_rule)
            return self._why_not_lead(tile)
        if drawn is not None and tile is not drawn:
            fits = bool(self._playable & drawn.bit)
            return OnlyDrawnTile(drawn, self.draw_rule, fits, not fits and self._may_draw())
        places = tuple(END_NAMES[e] for e, mask in self._fits or () if mask & tile.bit)
        if move.end is None:
            return AmbiguousMove(tile, places, self.place_rule) if places else FitsNowhere(tile)
        end = END_NAMES[move.end]
        if end not in self.ends:
            return NotAnEnd(end, self.ends, self.place_rule)
        return self._why_not_fit(tile, move.end, places)

    def _why_no_draw(self) -> IllegalMove:
        if self.drawing is Drawing.NO_BONEYARD:
            return NoBoneyard(self.draw_rule)
        if self.drew and self.drawing is Drawing.ONE_THEN_PASS:
            return AlreadyDrew(self.draw_rule)
        return NoDrawAllowed(len(self.boneyard), self.draw_rule)

    # -- views and the dict form ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state, hidden parts included; ``from_dict`` rebuilds it exactly."""
        return {
            "game": self.game,
            "options": self.options.to_dict(),
            "hands": [[t.text for t in tiles_of(h)] for h in self.hands],
            "boneyard": [TILES[i].text for i in self.boneyard],
            "drawn": self._drawn_text(),
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

    def view(self) -> PublicView:
        """What everyone may see (R-ALL-6), typed (see ``docs/VIEWS.md``). A round on its
        own shows as the first round of a one-game match; :meth:`Match.view` fills in
        the match around it."""
        return self._view(1, 1, (0,) * self.sides, None)

    def seat_view(self, seat: int) -> SeatView:
        """What ``seat`` may see: the public view, its hand and, on its turn, its moves."""
        return self._seat_view(self.view(), seat)

    def _view(
        self,
        round_number: int,
        game_number: int,
        games_won: Sequence[int],
        match_outcome: MatchOutcome | None,
    ) -> PublicView:
        return PublicView(
            type(self),
            self.options,
            self.n,
            tuple(hand.bit_count() for hand in self.hands),
            len(self.boneyard),
            self.turn,
            self.leader,
            self.named_leader and self.rotates_lead,
            self.drew,
            self.start_scores,
            tuple(self.scores),
            tuple(self.history),
            tuple(self.score_events),
            self._layout_view() if self.led else None,
            MappingProxyType(self.open_ends()),
            self._open_sum(),
            self._outcome,
            round_number,
            game_number,
            tuple(games_won),
            self.options.target,
            match_outcome,
        )

    def _seat_view(self, public: PublicView, seat: int) -> SeatView:
        _seat(seat, self.n)
        on_turn = seat == self.turn and self._outcome is None
        return SeatView(
            public,
            seat,
            tuple(tiles_of(self.hands[seat])),
            self.legal_moves() if on_turn else (),
            TILES[self.drawn.bit_length() - 1] if on_turn and self.drew else None,
        )

    def _open_sum(self) -> int | None:
        """What the open ends add up to, in a game that scores them (R-MG-4)."""
        return None

    def _drawn_text(self) -> str | None:
        return str(TILES[self.drawn.bit_length() - 1]) if self.drew else None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        """Rebuild a round from :meth:`to_dict` (a computer player's guess goes through
        :meth:`from_seat_view` instead)."""
        self = cls.__new__(cls)
        drawn = data.get("drawn")
        self._restore(
            Options(**data["options"]),
            [mask_of(Tile.parse(t) for t in hand) for hand in data["hands"]],
            [Tile.parse(t).index for t in data["boneyard"]],
            Tile.parse(drawn).bit if drawn is not None else 0,
            data["leader"],
            data["named_leader"],
            data["turn"],
            data["drew"],
            tuple(data["start_scores"]),
            data["scores"],
            [(seat, Move.parse(text)) for seat, text in data["history"]],
            [ScoreEvent.from_dict(e) for e in data["score_events"]],
            layout_from_dict(data["layout"]) if data["layout"] is not None else None,
            RoundOutcome.from_dict(data["outcome"]) if data["outcome"] else None,
        )
        return self

    @classmethod
    def from_seat_view(
        cls,
        view: SeatView,
        hands: Sequence[Iterable[Tile]],
        boneyard: Sequence[Tile],
        drawn: Tile | None = None,
    ) -> Round:
        """The round ``view`` shows, with what its seat cannot see filled in by a guess —
        for search: a computer player tries moves on it. ``hands``: every seat's hand
        (the view's own for its seat); ``boneyard``: in draw order. The guess must agree
        with the view: the hand sizes, the boneyard count, and with the table every tile
        exactly once. ``drawn``: when another seat is to move and has drawn this turn,
        the tile it drew (on the view's own turn, the view says). Refused with
        :class:`InvalidDeal` otherwise."""
        public = view.public
        dealt = [_tiles("a hand", hand) for hand in _items("hands", hands)]
        bone = _tiles("the boneyard", boneyard)
        sizes = tuple(len(hand) for hand in dealt)
        if sizes != public.hand_sizes or len(bone) != public.boneyard_count:
            raise InvalidDeal(
                f"the guess must hold {list(public.hand_sizes)} tiles by seat and"
                f" {public.boneyard_count} in the boneyard, not {list(sizes)} and {len(bone)}"
            )
        if set(dealt[view.seat]) != set(view.hand):
            raise InvalidDeal(f"the guess must give seat {view.seat} the hand it sees")
        every = [t for hand in dealt for t in hand] + bone + list(public.laid)
        if len(every) != len(TILES) or mask_of(every) != FULL_SET:
            raise NotEachTileOnce()
        masks = [mask_of(hand) for hand in dealt]
        if public.drew and view.seat == public.turn:
            drawn = view.drawn
        if public.drew and (drawn is None or not masks[public.turn] & drawn.bit):
            raise InvalidDeal(f"say which of seat {public.turn}'s tiles it drew this turn")
        self = public.variant.__new__(public.variant)
        self._restore(
            public.options,
            masks,
            [t.index for t in bone],
            drawn.bit if public.drew and drawn is not None else 0,
            public.leader,
            public.lead_passed,
            public.turn,
            public.drew,
            public.start_scores,
            public.scores,
            list(public.history),
            list(public.score_events),
            public.layout,
            public.outcome,
        )
        return self

    def _restore(
        self,
        options: Options,
        hands: list[int],
        boneyard: list[int],
        drawn: int,
        leader: int,
        named_leader: bool,
        turn: int,
        drew: bool,
        start_scores: tuple[int, ...],
        scores: Sequence[int],
        history: list[tuple[int, Move]],
        score_events: list[ScoreEvent],
        layout: Layout | None,
        outcome: RoundOutcome | None,
    ) -> None:
        """Set a round's whole state at once (no rule is checked: the state is one a
        round reached, or a guess that agrees with a view of one)."""
        self.n = len(hands)
        self.options = options
        self.hands = hands
        self.boneyard = boneyard
        self.drawn = drawn
        self.leader = leader
        self.named_leader = named_leader
        self.turn = turn
        self.drew = drew
        self.start_scores = start_scores
        self.scores = list(scores)
        self.history = history
        self.score_events = score_events
        self._legal = None
        self._fits = None
        self._playable = 0
        self._init_layout()
        if layout is not None:
            self._load_layout(layout)
            self._refresh_fits()
        self._outcome = outcome

    def copy(self) -> Self:
        """An independent copy (for search: computer players try moves on copies)."""
        new = object.__new__(type(self))
        # Built as a dict and set at once: a third faster than setting each attribute,
        # and searches copy rounds by the hundred thousand a decision.
        state = self.__dict__.copy()
        state["hands"] = self.hands.copy()
        state["boneyard"] = self.boneyard.copy()
        state["scores"] = self.scores.copy()
        state["history"] = self.history.copy()
        state["score_events"] = self.score_events.copy()
        self._copy_layout(state)
        new.__dict__ = state
        return new

    @abstractmethod
    def _copy_layout(self, state: dict[str, Any]) -> None:
        """Give a copy's attributes (``state``, its ``__dict__`` to be) their own copies
        of the layout's mutable parts."""
