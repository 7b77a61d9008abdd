"""A match: rounds played to the target (R-CR-7, R-MC-6, R-MG-7, R-MI-6), games played
to the match length (R-MI-7), and the record that replays all of it.

The record is the match's one text form (see ``docs/RECORD.md``)::

    {"format": "domino-record/1", "game": "cross", "players": 3,
     "options": {"target": 100, "keep_last_two": false, "match_games": 1},
     "seed": 42, "deals": [], "actions": [[0, "6-6"], [1, "6-4 N"], [2, "draw"]]}

``seed`` fixes every deal the record does not give explicitly in ``deals``; ``actions``
are each seat's moves in order, across rounds and games. ``Match.from_record`` replays it
to the identical state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.engine.errors import (
    BadOptionType,
    EngineError,
    InvalidDeal,
    LeadRule,
    MatchOver,
    ReplayError,
    WrongHandCount,
    WrongLeader,
    WrongSeat,
    brief,
)
from bot.engine.moves import Move
from bot.engine.options import Options
from bot.engine.outcome import MatchOutcome, RoundOutcome, game_winner
from bot.engine.record import RECORD_FORMAT, SEEDS, Deal, read_record
from bot.engine.round import Round
from bot.engine.tiles import highest_double
from bot.engine.variants import find_variant
from bot.engine.views import PublicView, SeatView

__all__ = ["RECORD_FORMAT", "STATE_FORMAT", "Deal", "Match"]

STATE_FORMAT = 2
"""The shape of :meth:`Match.to_dict`; states without it (stored before outcomes and
score events were data, and before a draw was one turn) are rebuilt from their record."""


class Match:
    """Rounds of one game to the target; in a Milo match, games to the match length.

    Every side's running total is in :attr:`scores`; the round in play is :attr:`round`.
    When a round ends the next one is dealt at once (the finished one stays readable as
    :attr:`previous`), so a match is always either over or waiting for the seat to move.
    """

    def __init__(
        self,
        game: str | type[Round],
        players: int,
        options: Options | None = None,
        *,
        seed: int = 0,
        deals: Sequence[Deal] = (),
    ) -> None:
        if isinstance(game, str):
            self.variant = find_variant(game)
        elif isinstance(game, type) and issubclass(game, Round):
            self.variant = game
        else:
            raise BadOptionType("game", "a game's name", game)
        if options is None:
            options = Options.for_game(self.variant, players)
        elif isinstance(options, Options):  # options built for another game are checked again
            options = Options.for_game(
                self.variant,
                players,
                target=options.target,
                keep_last_two=options.keep_last_two,
                match_games=options.match_games,
            )
        else:
            raise BadOptionType("options", "Options", options)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed not in SEEDS:
            raise BadOptionType("seed", "an integer from 0 to 2**64 - 1", seed)
        self.players = players
        self.options = options
        self.seed = seed
        self.deals = tuple(deals)
        self._check_deals()
        self.actions: list[tuple[int, str]] = []
        self.rounds: list[RoundOutcome] = []
        """Every finished round's outcome, in order."""
        self.rounds_dealt = 0
        self.game_number = 1
        self.round_in_game = 0
        self.games_won = [0] * self.variant.side_count(players)
        self.game_first_leader: int | None = None
        self.previous: Round | None = None
        self.previous_at: tuple[int, int, tuple[int, ...]] | None = None
        """The finished round's number in its game, that game's number and the games
        won when it ended (what its view shows)."""
        self._outcome: MatchOutcome | None = None
        self.round = self._deal([0] * len(self.games_won))

    # -- dealing -------------------------------------------------------------------------

    def _check_deals(self) -> None:
        """Every explicit deal is checked before any play (R-ALL-3): its hands and
        boneyard, and its leader wherever the rules name one whatever the play. In the
        spinner games that is the holder of the highest double (R-CR-2, R-MG-2). In Milo
        the holder of 6-6 leads the first deal and the lead passes on round by round
        (R-MI-3), but a new game of a match is led by the seat after the previous game's
        first leader (R-MI-7): a deal's leader is known in advance until a game can have
        ended after two rounds or more, and a later deal's is checked when it is dealt."""
        variant, players = self.variant, self.players
        if variant.rotates_lead and self.options.match_games > 1:
            known = max(2, variant.fewest_rounds(self.options.target))
        else:
            known = len(self.deals)
        first_leader = 0
        for index, deal in enumerate(self.deals):
            if not isinstance(deal, Deal):
                raise InvalidDeal(f"must be a Deal, not {brief(deal)}").in_deal(index)
            if len(deal.hands) != players:
                raise WrongHandCount(variant, (players,), len(deal.hands)).in_deal(index)
            named = None if variant.rotates_lead else deal.leader
            try:
                variant._checked_leader(deal.leader, players)
                dealt = variant(deal.hands, deal.boneyard, named, options=self.options)
            except InvalidDeal as error:
                raise error.in_deal(index) from None
            if index == 0:
                first_leader = dealt.leader
            if named is not None or deal.leader is None or index >= known:
                continue  # checked by the game's lead rule, not named, or not known yet
            expected = (first_leader + index) % players
            if deal.leader == expected:
                continue
            if index == 0:
                lead, double = variant.dealt_lead, highest_double(dealt.hands[expected])
            else:
                lead, double = LeadRule.PASSED_ON, None
            raise WrongLeader(deal.leader, expected, lead, double, variant.lead_rule).in_deal(index)

    def _deal(self, scores: list[int]) -> Round:
        """Deal the next round: from ``deals`` while it lasts, then from the seed."""
        index = self.rounds_dealt
        self.rounds_dealt += 1
        self.round_in_game += 1
        leader, rule = self._next_leader()
        options, variant = self.options, self.variant
        if index < len(self.deals):
            deal = self.deals[index]
            if deal.leader is not None and leader is not None and deal.leader != leader:
                raise WrongLeader(deal.leader, leader, LeadRule.PASSED_ON, None, rule).in_deal(
                    index
                )
            new = variant(deal.hands, deal.boneyard, leader, options=options, scores=scores)
        else:
            rng = random.Random(f"{self.seed}:{index}")
            new = variant.deal(self.players, rng, options=options, scores=scores, leader=leader)
        if self.round_in_game == 1:
            self.game_first_leader = new.leader
        return new

    def _next_leader(self) -> tuple[int | None, str]:
        """Who leads the next round (None: the game's lead rule decides), and the rule.

        Milo passes the lead on each round (R-MI-3); a new game of a match is led by the
        seat after the one that led the previous game's first round (R-MI-7)."""
        variant = self.variant
        if not variant.rotates_lead or self.rounds_dealt == 1:
            return None, variant.lead_rule
        if self.round_in_game == 1:
            assert self.game_first_leader is not None
            rule = variant.match_rule or variant.lead_rule
            return (self.game_first_leader + 1) % self.players, rule
        return (self.round.leader + 1) % self.players, variant.lead_rule

    # -- play ----------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        return None if self._outcome else self.round.turn

    @property
    def scores(self) -> list[int]:
        return self.round.scores

    def legal_moves(self) -> tuple[Move, ...]:
        return () if self._outcome else self.round.legal_moves()

    def forced_move(self) -> Move | None:
        """See :meth:`Round.forced_move`."""
        return None if self._outcome else self.round.forced_move()

    def outcome(self) -> MatchOutcome | None:
        return self._outcome

    def play(self, move: Move | str) -> RoundOutcome | None:
        """Make a move (a :class:`Move` or its exact text) for the seat to move; returns
        the round's outcome if it ended it. Refusals as :meth:`Round.play`."""
        if self._outcome is not None:
            raise MatchOver()
        if isinstance(move, str):
            move = Move.parse(move)
        seat = self.round.turn
        self.round.play(move)
        self.actions.append((seat, move.text))
        ended = self.round.outcome()
        if ended is not None:
            self._end_round(ended)
        return ended

    def parse_move(self, text: str) -> Move:
        """Read a player's move text against the position: see :meth:`Round.parse_move`."""
        if self._outcome is not None:
            raise MatchOver()
        return self.round.parse_move(text)

    def _end_round(self, ended: RoundOutcome) -> None:
        self.rounds.append(ended)
        self.previous = self.round
        self.previous_at = (self.round_in_game, self.game_number, tuple(self.games_won))
        scores = list(self.round.scores)
        winner = self._game_winner(scores)
        if winner is None:
            self.round = self._deal(scores)
            return
        self.games_won[winner] += 1
        if self.games_won[winner] >= self.options.match_games:
            self._outcome = MatchOutcome(winner, tuple(scores), tuple(self.games_won))
            return
        self.game_number += 1
        self.round_in_game = 0
        self.round = self._deal([0] * len(scores))

    def _game_winner(self, scores: list[int]) -> int | None:
        return game_winner(scores, self.options.target, self.variant.exact_target)

    # -- the record -----------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match's record: enough to replay it exactly."""
        return {
            "format": RECORD_FORMAT,
            "game": self.variant.game,
            "players": self.players,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "deals": [d.to_dict() for d in self.deals],
            "actions": [[seat, text] for seat, text in self.actions],
        }

    @classmethod
    def from_record(cls, data: object) -> Match:
        """Replay a record; raise :class:`ReplayError` naming the first bad action, or
        (index -1) what is wrong with the record before any action: a field of the wrong
        type or out of range (:func:`~bot.engine.record.read_record`), options or a deal
        the game refuses."""
        try:
            record = read_record(data)
            match = cls(
                record.variant,
                record.players,
                record.options,
                seed=record.seed,
                deals=record.deals,
            )
        except EngineError as error:
            raise ReplayError(-1, None, error) from None
        for index, (seat, text) in enumerate(record.actions):
            try:
                if match._outcome is not None:
                    raise MatchOver()
                if seat != match.round.turn:
                    raise WrongSeat(match.round.turn, seat)
                match.play(text)
            except EngineError as error:
                raise ReplayError(index, (seat, text), error) from None
        return match

    # -- state ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state (the record plus where it has got to); ``from_dict`` rebuilds it
        without replaying."""
        return {
            "state": STATE_FORMAT,
            "record": self.record(),
            "rounds": [r.to_dict() for r in self.rounds],
            "rounds_dealt": self.rounds_dealt,
            "game_number": self.game_number,
            "round_in_game": self.round_in_game,
            "games_won": list(self.games_won),
            "game_first_leader": self.game_first_leader,
            "previous": self.previous.to_dict() if self.previous else None,
            "previous_at": list(self.previous_at) if self.previous_at else None,
            "round": self.round.to_dict(),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    def copy(self) -> Match:
        """An independent copy, for trying an action without touching this match: what
        a move changes is copied (the round in play, the lists that grow), what it never
        changes is shared (the deals, the options, a finished round's outcome, the round
        before, which only ever shows). Far cheaper than a round trip through
        :meth:`to_dict`, and the table service makes one on every action."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.actions = self.actions.copy()
        new.rounds = self.rounds.copy()
        new.games_won = self.games_won.copy()
        new.round = self.round.copy()
        return new

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Rebuild a match from :meth:`to_dict`. A state stored in an older shape is not
        read: the match is replayed from the record it carries (:meth:`from_record`),
        which raises :class:`ReplayError` if that record breaks the rules as they are
        now refereed."""
        record = data["record"]
        if data.get("state") != STATE_FORMAT:
            return cls.from_record(record)
        match = cls.__new__(cls)
        match.variant = find_variant(record["game"])
        match.players = record["players"]
        match.options = Options(**record["options"])
        match.seed = record["seed"]
        match.deals = tuple(Deal.from_dict(d, match.players) for d in record["deals"])
        match.actions = [(seat, text) for seat, text in record["actions"]]
        match.rounds = [RoundOutcome.from_dict(r) for r in data["rounds"]]
        match.rounds_dealt = data["rounds_dealt"]
        match.game_number = data["game_number"]
        match.round_in_game = data["round_in_game"]
        match.games_won = list(data["games_won"])
        match.game_first_leader = data["game_first_leader"]
        match.previous = match.variant.from_dict(data["previous"]) if data["previous"] else None
        at = data.get("previous_at")
        match.previous_at = (at[0], at[1], tuple(at[2])) if at else None
        match.round = match.variant.from_dict(data["round"])
        outcome = data["outcome"]
        match._outcome = (
            MatchOutcome(outcome["winner"], tuple(outcome["scores"]), tuple(outcome["games_won"]))
            if outcome
            else None
        )
        return match

    def view(self) -> PublicView:
        """The round's public view with the match around it (what a picture shows)."""
        return self.round._view(self.round_in_game, self.game_number, self.games_won, self._outcome)

    def previous_view(self) -> PublicView | None:
        """The last finished round as it ended: its final layout, every hand revealed in
        its outcome (what a round's end shows). None before the first round ends."""
        if self.previous is None or self.previous_at is None:
            return None
        number, game, won = self.previous_at
        return self.previous._view(number, game, list(won), None)

    def seat_view(self, seat: int) -> SeatView:
        """What ``seat`` may see of the round, with the match around it."""
        return self.round._seat_view(self.view(), seat)
