"""A table message's embeds within Discord's ten, and its 6,000 characters in all:
rounds that piled up while posts were refused lose their oldest cards, never the
table's card or the game's end (the winner, and the game's id that /domino replay and
/domino analysis ask for)."""

from __future__ import annotations

import discord

from discord_face.announcer import EMBEDS_MOST, EMBEDS_TEXT_MOST, within_embeds


def cards(count: int) -> list[discord.Embed]:
    return [discord.Embed(title=f"Round {n} over") for n in range(1, count + 1)]


def titles(embeds: list[discord.Embed]) -> list[str | None]:
    return [embed.title for embed in embeds]


def test_the_games_end_stays_first_when_twelve_rounds_piled_up() -> None:
    end = discord.Embed(title="Winner: Ann")
    sent = within_embeds(end, cards(12), ended=True)
    assert len(sent) == EMBEDS_MOST
    assert titles(sent) == ["Winner: Ann", *(f"Round {n} over" for n in range(4, 13))]


def test_the_tables_card_stays_last_under_the_latest_rounds() -> None:
    table = discord.Embed(title="Cross, round 13")
    assert titles(within_embeds(table, cards(10), ended=False)) == [
        *(f"Round {n} over" for n in range(2, 11)),
        "Cross, round 13",
    ]
    assert titles(within_embeds(table, cards(2), ended=False)) == [
        "Round 1 over",
        "Round 2 over",
        "Cross, round 13",
    ]


def test_round_cards_long_with_names_are_dropped_oldest_first_to_fit_discords_total() -> None:
    """Nine Milo rounds whose cards run to 900 characters each (four long names, each
    escaped, in every line) are more text than Discord takes in one message."""
    end = discord.Embed(title="Winner: Ann", description="x" * 300)
    long = [discord.Embed(title=f"Round {n} over", description="y" * 880) for n in range(1, 10)]
    sent = within_embeds(end, long, ended=True)
    assert sum(len(embed) for embed in sent) <= EMBEDS_TEXT_MOST
    assert titles(sent) == ["Winner: Ann", *(f"Round {n} over" for n in range(4, 10))]
