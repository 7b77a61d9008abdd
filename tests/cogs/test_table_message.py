"""A table message's embeds within Discord's ten: rounds that piled up while posts were
refused lose their oldest cards, never the table's card or the game's end (the winner,
and the game's id that /domino replay and /domino analysis ask for)."""

from __future__ import annotations

import discord

from discord_face.announcer import EMBEDS_MOST, within_embeds


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
