"""Members of the fake server, who run the slash commands the bot registered and click
the buttons on the messages the bot sent — and see only what Discord would show them."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from tests.fakediscord.server import ALL_PERMISSIONS, FakeDiscord, Interaction, Message

MEMBER_PERMISSIONS = str(((1 << 50) - 1) & ~(1 << 5) & ~(1 << 3))
"""Everything but Manage Server and Administrator."""
OPTION_TYPES = {3: str, 4: int, 5: bool, 10: float}
USER_OPTION = 6
ROLE_OPTION = 8
USER_SELECT = 5
"""A message component: a select of members (a user select)."""
PARTIAL_LEAVES_OUT = ("user", "deaf", "mute")
"""The member object's fields an interaction's resolved members do not have."""


@dataclass
class Sent:
    """An interaction a user started; wait on it through the fake."""

    fake: FakeDiscord
    interaction: Interaction

    async def acknowledged(self, timeout: float = 10.0) -> float:
        """Seconds from dispatch to acknowledgement."""
        await self.fake.wait_for(lambda: self.interaction.acknowledged_at is not None, timeout)
        assert self.interaction.acknowledged_at is not None
        return self.interaction.acknowledged_at - self.interaction.dispatched_at

    async def reply(self, timeout: float = 10.0) -> Message:
        """The answer the user sees: the response message, or the first follow-up once a
        "thinking" response has been completed (or a later follow-up after a silent
        acknowledgement)."""

        def answer() -> Message | None:
            i = self.interaction
            if i.response_type == 4 and i.original_id:
                return self.fake.messages[i.original_id]
            if i.response_type == 7 and i.original_id:
                return self.fake.messages[i.original_id]
            if i.followups:
                return self.fake.messages[i.followups[-1]]
            return None

        message: Message = await self.fake.wait_for(answer, timeout)
        return message

    async def follow_up(self, timeout: float = 10.0) -> Message:
        """The newest follow-up message, once there is one (what comes after an answer
        that updated the message clicked)."""

        def newest() -> Message | None:
            followups = self.interaction.followups
            return self.fake.messages[followups[-1]] if followups else None

        message: Message = await self.fake.wait_for(newest, timeout)
        return message

    async def launched(self, timeout: float = 10.0) -> str:
        """The id of the Activity instance the answer opened for this user, once the bot
        has answered with ``LAUNCH_ACTIVITY`` (the user is then among its users)."""
        instance_id: str = await self.fake.wait_for(
            lambda: self.fake.activities.launched.get(self.interaction.id), timeout
        )
        return instance_id


class Member:
    def __init__(
        self,
        fake: FakeDiscord,
        guild_id: int,
        name: str,
        *,
        manager: bool = False,
        locale: str = "en-US",
        nick: str | None = None,
    ) -> None:
        """A new user ``name`` (their global name), a member of the guild; ``nick``, their
        nickname there."""
        self.fake = fake
        self.locale = locale
        """The language of this member's Discord, sent with each interaction."""
        self.guild_id = guild_id
        self.user = fake.add_user(guild_id, name)
        self.id = int(self.user["id"])
        self.name = name
        fake.set_nick(guild_id, self.id, nick)
        self.permissions = ALL_PERMISSIONS if manager else MEMBER_PERMISSIONS
        self.roles: list[str] = []
        """The ids of the guild's roles (``FakeDiscord.add_role``) this member has."""

    def sees(self, channel_id: int) -> list[Message]:
        return self.fake.visible(channel_id, self.id)

    # -- building interactions ----------------------------------------------------------

    def _command(self, name: str) -> dict[str, Any]:
        for scope in (self.guild_id, None):
            for command in self.fake.commands.get(scope, []):
                if command["name"] == name:
                    return command
        raise AssertionError(f"the bot registered no /{name} command")

    def _options(
        self, path: str, values: dict[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        top, *subs = path.split()
        command = self._command(top)
        definitions, options = command.get("options", []), None
        data: dict[str, Any] = {"id": command["id"], "name": top, "type": 1}
        holder = data
        for sub in subs:
            found = next((o for o in definitions if o["name"] == sub), None)
            assert found is not None, f"/{top} has no subcommand {sub}"
            options = {"name": sub, "type": found["type"]}
            holder["options"] = [options]
            holder, definitions = options, found.get("options", [])
        given = []
        for key, value in values.items():
            definition = next((o for o in definitions if o["name"] == key), None)
            assert definition is not None, f"/{path} has no option {key}"
            option = {"name": key, "type": definition["type"], "value": value}
            if key == focused:
                option["focused"] = True
            elif definition["type"] in OPTION_TYPES:
                option["value"] = OPTION_TYPES[definition["type"]](value)
            elif definition["type"] == USER_OPTION:  # a member: its id, the user resolved
                assert isinstance(value, Member), f"/{path} {key} takes a Member"
                option["value"] = str(value.id)
                value.resolve_in(data)
            elif definition["type"] == ROLE_OPTION:  # a role: its id, the role resolved
                option["value"] = value["id"]
                resolved = data.setdefault("resolved", {"users": {}, "members": {}})
                resolved.setdefault("roles", {})[value["id"]] = value
            given.append(option)
        holder["options"] = given
        for required in (o for o in definitions if o.get("required")):
            assert required["name"] in values, f"/{path} needs {required['name']}"
        return data

    def as_member(self) -> dict[str, Any]:
        """This member as an interaction names them: the guild member object (their
        nickname as it is now), with their roles and permissions in the channel."""
        member = self.fake.guild_member(self.guild_id, self.id)
        return {**member, "roles": self.roles, "permissions": self.permissions}

    def resolve_in(self, data: dict[str, Any]) -> None:
        """This member as an interaction's ``resolved`` data names a chosen member: the
        user under ``users``, and the member object under ``members`` without the
        fields Discord leaves out of it there (``user``, ``deaf``, ``mute``)."""
        resolved = data.setdefault("resolved", {"users": {}, "members": {}})
        resolved["users"][str(self.id)] = self.user
        member = self.as_member()
        resolved["members"][str(self.id)] = {
            key: value for key, value in member.items() if key not in PARTIAL_LEAVES_OUT
        }

    async def _dispatch(
        self, kind: int, channel_id: int, data: dict[str, Any], message: Message | None = None
    ) -> Sent:
        token = secrets.token_hex(16)
        interaction = Interaction(
            self.fake.new_id(),
            token,
            self.id,
            channel_id,
            kind,
            time.perf_counter(),
            message_id=message.id if message else None,
        )
        self.fake.interactions[token] = interaction
        channel = self.fake.channels[channel_id]
        payload = {
            "id": str(interaction.id),
            "application_id": str(self.fake.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(self.guild_id),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": self.as_member(),
            "token": token,
            "version": 1,
            "app_permissions": str(self.fake.bot_permissions(channel_id)),
            "locale": self.locale,
            "guild_locale": self.fake.guilds[self.guild_id].get("preferred_locale", "en-US"),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.to_dict()
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        return Sent(self.fake, interaction)

    async def slash(self, path: str, channel_id: int, **options: Any) -> Sent:
        """Run ``/path`` (``"domino new"``) with options, as Discord would send it."""
        return await self._dispatch(2, channel_id, self._options(path, options))

    async def autocomplete(
        self, path: str, channel_id: int, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        sent = await self._dispatch(4, channel_id, self._options(path, options, focused))
        await self.fake.wait_for(lambda: sent.interaction.choices is not None)
        assert sent.interaction.choices is not None
        return sent.interaction.choices

    async def click(self, message: Message, label: str) -> Sent:
        """Click the button labelled ``label`` (or with that custom_id) on ``message``."""
        assert message.visible_to in (None, self.id), "that message is not visible to this user"
        button = next(
            (b for b in message.buttons() if label in (b.get("label"), b.get("custom_id"))), None
        )
        assert button is not None, (
            f"no {label!r} button on that message: {[b.get('label') for b in message.buttons()]}"
        )
        assert not button.get("disabled"), f"the {label!r} button is disabled"
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._dispatch(3, message.channel_id, data, message)

    async def select_members(self, message: Message, name: str, *chosen: Member) -> Sent:
        """Choose ``chosen`` in the member select whose placeholder (or custom_id) is
        ``name`` on ``message``, as Discord sends it: their ids, and them resolved."""
        assert message.visible_to in (None, self.id), "that message is not visible to this user"
        selects = [c for c in message.buttons() if c.get("type") == USER_SELECT]
        select = next((c for c in selects if name in (c.get("placeholder"), c["custom_id"])), None)
        assert select is not None, f"no {name!r} member select on that message"
        data: dict[str, Any] = {
            "custom_id": select["custom_id"],
            "component_type": USER_SELECT,
            "values": [str(member.id) for member in chosen],
        }
        for member in chosen:
            member.resolve_in(data)
        return await self._dispatch(3, message.channel_id, data, message)
