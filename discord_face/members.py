"""The members a command names, as the boards and the games played show them."""

from __future__ import annotations

from typing import Any

import discord

from discord_face.unanswered import UNANSWERED
from words import boards
from words.common import computer_names


def seat_name(user: discord.abc.User) -> str:
    """The name a member is seated and entered under: their name in the server, unless
    it is a computer seat's (``Computer 2 (hard)``, in any language the bot speaks),
    which would let no one, least of all a screen reader's user, tell them from a
    computer; their username then, which no computer's can be (the browser refuses a
    guest such a name: ``web.identity``)."""
    name = user.display_name
    return user.name if " ".join(name.split()).casefold() in computer_names() else name


async def public_name(client: discord.Client, user_id: int) -> str:
    """A member's name as every server may see it, for one no server's name is kept for
    where it is shown (the board of every server names a player by the name they played
    under in the server it is shown in, never by a nickname given in another): their
    Discord name, looked up if discord.py does not hold them (the bot asks for no member
    events), or words for one Discord does not answer for."""
    user = client.get_user(user_id)
    if user is None:
        try:
            user = await client.fetch_user(user_id)
        except (discord.HTTPException, *UNANSWERED):
            return boards.unknown_player(user_id)  # a deleted user, or Discord not reached
    return user.global_name or user.name


def display_name(client: discord.Client, user_id: int) -> str:
    """A member's name as this bot knows them, or words for one it does not."""
    user = client.get_user(user_id)
    return user.display_name if user else boards.unknown_player(user_id)


def whose(
    interaction: discord.Interaction[Any], user: discord.abc.Snowflake | None
) -> tuple[int, str]:
    """The member a ``user`` option names (the caller when left out) and the name to
    show. Discord sends the member along with the command; should it not, the id it
    sends is enough to look them up."""
    who = user or interaction.user
    if isinstance(who, discord.User | discord.Member):
        return who.id, who.display_name
    return who.id, display_name(interaction.client, who.id)
