"""The project's four games as OpenSpiel games, refereed by the project's engine, so that
OpenSpiel's algorithms for imperfect information (ISMCTS above all) can play every game
against our players — not only Milo, the one OpenSpiel ships a cousin of.

One OpenSpiel episode is one round (:class:`bot.engine.Round`): chance deals the hands
tile by tile (dealing again, as the engine does, while nobody may lead: R-CR-2, R-MG-2),
then the players move; a draw is the player's action ``draw`` followed by a chance node
that picks the drawn tile among the boneyard's. Every rule is the engine's: the legal
actions are the engine's legal moves, and a move is made by the engine's ``play``.

Actions: a play is ``tile index * 7 + end`` (the end an index into
:data:`bot.engine.END_NAMES`, 6 for the lead, which names no end); then ``draw`` and
``pass``. Chance outcomes are tile indices.

Returns are +1 to each seat of the side that won the round and −1 to the others (0 to
all on a tied round), by default: the tournament scores rounds won, and in Merry-Go-Round
the side with more points may lose the round (R-MG-6), so playing for points would play
for something the tournament does not count. ``returns=points`` gives each seat its
side's round points (as the engine scores them) less the other sides' mean instead.

Each player's information state is built from its own seat's view only
(``Round.seat_view``): its hand, the tile it drew this turn and the public history (every
play, draw and pass), never another seat's tiles or the boneyard's order.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from benchmarks.players import seats
from bot.engine import (
    DRAW,
    END_NAMES,
    GAMES,
    PASS,
    TILES,
    InvalidDeal,
    Move,
    Options,
    Round,
    SeatView,
)

LEAD_END = len(END_NAMES)
"""The ``end`` part of a lead's action: a lead names no end."""
DRAW_ACTION = len(TILES) * (LEAD_END + 1)
PASS_ACTION = DRAW_ACTION + 1
NUM_ACTIONS = PASS_ACTION + 1
MAX_GAME_LENGTH = 400
"""Deals (again while nobody holds a double), draws, plays and passes: more than a round
ever takes."""
POINTS_BOUND = 200.0
"""More than a round's points in any game: every pip on the table is 168 (R-CR-6)."""
SHORT_NAMES = {game: "python_domino_" + game.replace("-", "_") for game in GAMES}
"""OpenSpiel's name for each of our games: ``pyspiel.load_game("python_domino_milo")``."""
DEFAULT_PLAYERS = {game: seats(variant) for game, variant in GAMES.items()}
"""Players at the table as the tournament seats them (:func:`benchmarks.players.seats`)."""


def action_of(move: Move) -> int:
    """OpenSpiel's action for one of our moves."""
    if move is DRAW:
        return DRAW_ACTION
    if move is PASS:
        return PASS_ACTION
    assert move.tile is not None
    return move.tile.index * (LEAD_END + 1) + (LEAD_END if move.end is None else move.end)


def move_of(action: int) -> Move:
    """Our move for an OpenSpiel action."""
    if action == DRAW_ACTION:
        return DRAW
    if action == PASS_ACTION:
        return PASS
    tile, end = divmod(action, LEAD_END + 1)
    return Move.play(TILES[tile], None if end == LEAD_END else end)


class DominoGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games; a subclass per game fixes :attr:`variant` (see :func:`register`)."""

    variant: type[Round]
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**self.game_type.parameter_specification, **(params or {})}
        self.players = int(params["players"])
        self.scoring = str(params["returns"])
        if self.scoring not in ("win", "points"):
            raise ValueError(f"returns must be win or points, not {self.scoring!r}")
        self.options = Options.for_game(self.variant, self.players)
        bound = 1.0 if self.scoring == "win" else POINTS_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(TILES),
            num_players=self.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> DominoState:
        return DominoState(self)

    def state_for(self, round_: Round) -> DominoState:
        """The state of a round already dealt (for a search from a guessed deal: the
        round is the state's own from then on, so hand over a copy to keep one)."""
        state = DominoState(self)
        state.body.round = round_
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> DominoObserver:
        if params:
            raise ValueError(f"no observation parameters are offered, not {params}")
        return DominoObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class Rules:
    """What a state needs of its game: never copied with it."""

    def __init__(self, game: DominoGame) -> None:
        self.variant = game.variant
        self.players = game.players
        self.options = game.options
        self.scoring = game.scoring
        self.hand_size = game.variant.hand_size(game.players)

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self


class Body:
    """A state's contents: while :attr:`round` is None, chance is dealing :attr:`dealt`;
    then the engine's round, with :attr:`drawing` set while chance picks a drawn tile.

    OpenSpiel clones a Python state by deep-copying its attributes: this one copies
    itself with the engine's own copy of the round, which is what searches need and far
    cheaper."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.dealt: list[int] = []
        self.round: Round | None = None
        self.drawing = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Body:
        new = Body(self.rules)
        new.dealt = self.dealt.copy()
        new.round = None if self.round is None else self.round.copy()
        new.drawing = self.drawing
        return new


class DominoState(pyspiel.State):  # type: ignore[misc]
    """A round of one of our games, as OpenSpiel plays it (all of it in :attr:`body`)."""

    def __init__(self, game: DominoGame) -> None:
        super().__init__(game)
        self.body = Body(Rules(game))

    @property
    def round(self) -> Round | None:
        """The engine's round; None while chance deals."""
        return self.body.round

    def current_player(self) -> int:
        round_ = self.body.round
        if round_ is None or self.body.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        if round_.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return round_.turn

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.is_over

    def _legal_actions(self, player: int) -> list[int]:
        assert self.round is not None and player == self.round.turn
        return sorted(action_of(move) for move in self.round.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.round is None:
            dealt = set(self.body.dealt)
            left = [i for i in range(len(TILES)) if i not in dealt]
        else:
            left = sorted(self.round.boneyard)
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        body = self.body
        round_ = body.round
        if round_ is None:
            self._deal(action)
        elif body.drawing:  # the drawn tile goes first in the boneyard, then is drawn
            round_.boneyard.remove(action)
            round_.boneyard.insert(0, action)
            body.drawing = False
            round_.play(DRAW)
        elif action == DRAW_ACTION:
            assert DRAW in round_.legal_moves()
            body.drawing = True
        else:
            round_.play(move_of(action))

    def _deal(self, tile: int) -> None:
        """Deal ``tile`` to the next hand; with every hand full, start the round, or deal
        again if the game's lead rule finds no leader (as ``Round.deal`` does)."""
        body = self.body
        rules = body.rules
        body.dealt.append(tile)
        size = rules.hand_size
        if len(body.dealt) < size * rules.players:
            return
        hands = [[TILES[i] for i in body.dealt[s * size : (s + 1) * size]] for s in range(4)]
        rest = sorted(set(range(len(TILES))) - set(body.dealt))
        try:
            body.round = rules.variant(
                hands[: rules.players], [TILES[i] for i in rest], options=rules.options
            )
        except InvalidDeal:  # nobody holds a double (R-CR-2, R-MG-2)
            body.dealt = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {TILES[action]}" if self.round is None else f"draws {TILES[action]}"
        return move_of(action).text

    def returns(self) -> list[float]:
        rules = self.body.rules
        round_ = self.body.round
        players = rules.players
        outcome = None if round_ is None else round_.outcome()
        if outcome is None:
            return [0.0] * players
        variant = rules.variant
        if rules.scoring == "win":
            if outcome.winner is None:
                return [0.0] * players
            return [1.0 if variant.side_of(s) == outcome.winner else -1.0 for s in range(players)]
        points, sides = outcome.points, len(outcome.points)
        total = sum(points)
        value = [p - (total - p) / (sides - 1) for p in points]
        return [float(value[variant.side_of(s)]) for s in range(players)]

    def dealt_to(self, player: int) -> list[int]:
        """The tiles chance has dealt ``player`` so far (while it deals)."""
        size = self.body.rules.hand_size
        return self.body.dealt[player * size : (player + 1) * size]

    def seat_view(self, player: int) -> SeatView | None:
        """What ``player``'s seat sees (None while chance deals)."""
        return None if self.round is None else self.round.seat_view(player)

    def __str__(self) -> str:
        if self.round is None:
            return "dealing: " + " ".join(TILES[i].text for i in self.body.dealt)
        return " ".join(f"{seat}:{move.text}" for seat, move in self.round.history)


class DominoObserver:
    """OpenSpiel's observer: a string and a tensor for one player, each from that
    player's seat view alone (while chance deals: the tiles dealt to it so far).

    The information state (``perfect_recall``) is the hand, the tile drawn this turn and
    the whole public history; an observation is the position as it stands: the hand, the
    open ends, the tiles each seat has laid, hand sizes and the boneyard's count. The
    tensor holds the latter, from the player's seat round the table."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType) -> None:
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        tiles = len(TILES)
        pieces = [
            ("hand", tiles),
            ("drawn", tiles),
            ("laid_by", 4 * tiles),
            ("hand_sizes", 4),
            ("boneyard", 1),
            ("open_ends", len(END_NAMES) * 8),
        ]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        start = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[start : start + size]
            start += size

    def set_from(self, state: DominoState, player: int) -> None:
        self.tensor.fill(0)
        view = state.seat_view(player)
        if view is None:
            if self.private:
                for i in state.dealt_to(player):
                    self.dict["hand"][i] = 1
            return
        public = view.public
        if self.private:
            for tile in view.hand:
                self.dict["hand"][tile.index] = 1
            if view.drawn is not None:
                self.dict["drawn"][view.drawn.index] = 1
        if not self.public:
            return
        laid_by = self.dict["laid_by"].reshape(4, len(TILES))
        for seat, move in public.history:
            if move.tile is not None:
                laid_by[(seat - player) % public.players, move.tile.index] = 1
        for seat, size in enumerate(public.hand_sizes):
            self.dict["hand_sizes"][(seat - player) % public.players] = size / len(TILES)
        self.dict["boneyard"][0] = public.boneyard_count / len(TILES)
        ends = self.dict["open_ends"].reshape(len(END_NAMES), 8)
        for end, name in enumerate(END_NAMES):
            number = public.open_ends.get(name)
            ends[end, 7 if number is None else number] = 1

    def string_from(self, state: DominoState, player: int) -> str:
        view = state.seat_view(player)
        if view is None:
            mine = state.dealt_to(player) if self.private else []
            return f"p{player} dealt {' '.join(TILES[i].text for i in mine)}"
        public = view.public
        parts = [f"p{player}"]
        if self.private:
            parts.append("hand " + " ".join(t.text for t in view.hand))
            if view.drawn is not None:
                parts.append(f"drew {view.drawn}")
        if not self.public:
            return " | ".join(parts)
        if state.body.drawing:
            parts.append("drawing")
        if self.recall:
            parts.append(" ".join(f"{seat}:{move.text}" for seat, move in public.history))
        else:
            parts.append("ends " + " ".join(f"{k}{v}" for k, v in public.open_ends.items()))
            parts.append("laid " + " ".join(t.text for t in public.laid))
            parts.append(f"sizes {list(public.hand_sizes)} boneyard {public.boneyard_count}")
            parts.append(f"turn {public.turn}")
        return " | ".join(parts)


def register(game: str) -> type[DominoGame]:
    """Register one of our games with OpenSpiel (under :data:`SHORT_NAMES`)."""
    variant = GAMES[game]
    players = DEFAULT_PLAYERS[game]
    game_type = pyspiel.GameType(
        short_name=SHORT_NAMES[game],
        long_name=f"{variant.title} (this project's engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(variant.player_counts),
        min_num_players=min(variant.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": players, "returns": "win"},
    )
    cls = type(
        f"{variant.__name__}Game", (DominoGame,), {"variant": variant, "game_type": game_type}
    )
    pyspiel.register_game(game_type, cls)
    return cls


GAME_CLASSES = {game: register(game) for game in sorted(GAMES)}


def load(game: str, **params: Any) -> DominoGame:
    """One of our games as OpenSpiel loads it (``params``: ``players``, ``returns``)."""
    loaded: DominoGame = pyspiel.load_game(SHORT_NAMES[game], params)
    return loaded


def random_state_for(seed: int | str) -> np.random.RandomState:
    """A NumPy generator fixed by ``seed`` (OpenSpiel's algorithms draw from NumPy)."""
    return np.random.RandomState(random.Random(seed).getrandbits(32))
