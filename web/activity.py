"""The page inside Discord, as an Activity: who the member is and which channel's table
they see, both confirmed with Discord before any seat or hand.

The browser face speaks no Discord: the Discord face gives it :class:`Activities`
(``discord_face/activity.py``), which exchanges the code the page's Embedded App SDK got
from ``authorize`` for an access token, and asks Discord who that token is and whether
they are a participant of the Activity instance, in which channel, and their name in
that server. The page's own word for any of it counts for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Participant:
    """A member in a running Activity instance, as Discord confirmed: their id, their
    name in that server (as the chat's buttons seat them: the server nickname, else the
    global name, else the username), and the server and channel the instance runs in."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int


class Activities(Protocol):
    """Discord's side of an Activity, for the browser face."""

    client_id: str
    """The application's id: the page's SDK needs it, and the Activity's page is served
    from ``https://<client_id>.discordsays.com``."""

    async def exchange(self, code: str) -> str:
        """The access token for a code from the SDK's ``authorize`` (refused:
        ``NotConfirmed``)."""
        ...

    async def participant(self, token: str, instance_id: str) -> Participant:
        """Who ``token`` is, confirmed a participant of ``instance_id``, named as they
        are in its server at the time of asking (refused: ``NotConfirmed`` for a token
        Discord does not confirm as this application's, or a member Discord does not
        answer for; ``NotInActivity`` for an instance they are not in, or in a server
        they are no longer a member of or whose tables are not served here;
        ``SignInLater`` for a member whose pages named too many instances they were not
        in lately, each asked of Discord on the bot's requests)."""
        ...

    def parent_of(self, channel_id: int) -> int | None:
        """The channel ``channel_id`` is a thread of, or None (not a thread, or one the
        bot does not know): with threads on, a channel's tables play in threads of it,
        and an Activity opened in the channel shows them (``web.face``)."""
        ...


def activity_host(client_id: str) -> str:
    """The name Discord's proxy serves an application's Activity under."""
    return f"{client_id}.discordsays.com"


def activity_origin(client_id: str) -> str:
    """Where Discord serves an application's Activity from (its proxy): the page's
    origin inside Discord."""
    return f"https://{activity_host(client_id)}"
