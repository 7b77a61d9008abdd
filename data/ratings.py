"""openskill ratings, one per player and game kind, updated once per finished game.

Plackett-Luce handles several players and teams, so Milo's partnerships are rated as
teams of two and a four-player Cross as four teams of one. Computer seats take part with
a fixed default rating that is never stored, so a member's rating still moves sensibly
after a game against the computer.
"""

from __future__ import annotations

from collections.abc import Mapping

from openskill.models import PlackettLuce

from data.models import Participant

MODEL = PlackettLuce()
Rating = tuple[float, float]
"""(mu, sigma)."""
DEFAULT: Rating = (MODEL.mu, MODEL.sigma)


def ordinal(rating: Rating) -> float:
    """The displayed rating: mu − 3σ, a cautious estimate that grows with evidence."""
    mu, sigma = rating
    return mu - 3 * sigma


def ranks(participants: list[Participant]) -> dict[int, int]:
    """Rank per team: the winners first, then by final score; equal scores share a rank."""
    score = {p.team: (not p.won, -p.final_score) for p in participants}
    ordered = sorted(set(score.values()))
    return {team: ordered.index(key) for team, key in score.items()}


def rate(participants: list[Participant], current: Mapping[int, Rating]) -> dict[int, Rating]:
    """New ratings for the members of a finished game (``current``: by user id; missing
    members start at the default)."""
    teams = sorted({p.team for p in participants})
    team_ranks = ranks(participants)
    members = [[p for p in participants if p.team == team] for team in teams]
    ratings = [[MODEL.rating(*_current(p, current)) for p in team] for team in members]
    updated = MODEL.rate(ratings, ranks=[team_ranks[team] for team in teams])
    return {
        p.user_id: (new.mu, new.sigma)
        for team, news in zip(members, updated, strict=True)
        for p, new in zip(team, news, strict=True)
        if p.user_id is not None
    }


def _current(participant: Participant, current: Mapping[int, Rating]) -> Rating:
    """A member's stored rating, or the default for a newcomer and for a computer seat."""
    if participant.user_id is None:
        return DEFAULT
    return current.get(participant.user_id, DEFAULT)
