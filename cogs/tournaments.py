"""``/domino tournament``: a server's tournaments. An organiser (Manage Server, or the
role the server chose in ``/domino settings``) opens one with ``new``; its creator or
any organiser then pauses, resumes, cancels it, drops or replaces a player, and changes
a table's result with a reason; a player asks for their ``status`` or ``withdraw``s.
Sign-up and check-in are the announcement's buttons (``discord_face.tournaments``).
Every refusal is raised for the tree to answer privately.

Which tournament a command is about: the one whose channel (or one of whose tables'
threads) it is used in; else the server's only open one.

A result change names the winning member (``winner``): their side is placed first, the
others keep their order behind it, and the game points stay as played.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.engine import find_variant
from bot.refusals import NotSaved, TournamentRefused
from bot.service import TableService
from bot.tournaments import Bye, Result, knockout, placings
from bot.tournaments.model import Format, Settings, Tournament
from discord_face import members
from discord_face.acting import check_can_post, reply
from discord_face.choices import GAME_CHOICES
from discord_face.commands_i18n import slash
from discord_face.tournaments import TournamentHerald, rating_of, standings_of
from discord_face.tree import DominoCommands
from words import lobby
from words import tournaments as said

if TYPE_CHECKING:
    from bot.client import DominoBot
    from bot.tournaments.service import TournamentService

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name=locale_str("Swiss"), value=Format.SWISS.value),
    app_commands.Choice(name=locale_str("Knockout"), value=Format.KNOCKOUT.value),
    app_commands.Choice(name=locale_str("Round robin"), value=Format.ROUND_ROBIN.value),
]
PARTNER_CHOICES = [
    app_commands.Choice(name=locale_str("Drawn each round"), value="drawn"),
    app_commands.Choice(name=locale_str("Sign up as pairs"), value="pairs"),
]


class TournamentsCog(DominoCommands, name="Tournaments"):
    """Tournaments: the organiser's commands and a player's."""

    tournament = app_commands.Group(
        name=slash("command", "tournament"),
        description=locale_str("Tournaments in this server: rounds of tables, standings"),
    )

    def __init__(
        self,
        bot: DominoBot,
        tables: TableService,
        service: TournamentService,
        herald: TournamentHerald,
    ) -> None:
        super().__init__(bot)
        self.tables = tables
        self.service = service
        self.herald = herald

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its open tournaments are cancelled where
        they stand (stored so), since no round of them could be posted or played; their
        tables close with the server's (the tables' cog)."""
        await self._cancel(self.service.in_guild(guild.id))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A moderator deleted a tournament's channel: it is cancelled where it stands,
        as no round of it could be posted there any more (its tables' threads went with
        the channel, and closed with them)."""
        here = self.service.in_guild(channel.guild.id)
        await self._cancel([t for t in here if t.channel_id == channel.id])

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Discord has said which servers the bot is in, and their channels: a tournament
        of a server that removed the bot while it was down, or whose channel was deleted
        then, is cancelled as it would have been then. A server that Discord has not
        made available yet keeps its tournaments."""
        await self._cancel([t for t in self.service.open.values() if self._gone(t)])

    def _gone(self, tournament: Tournament) -> bool:
        guild = self.bot.get_guild(tournament.guild_id)
        if guild is None:
            return True
        return not guild.unavailable and guild.get_channel_or_thread(tournament.channel_id) is None

    async def _cancel(self, tournaments: list[Tournament]) -> None:
        """Cancel each of ``tournaments`` in turn. One the store fails is logged and left
        to the next start's check (``on_ready``); the others are cancelled all the same."""
        me = self.bot.user.id if self.bot.user is not None else 0
        for tournament in tournaments:
            try:
                await self.service.cancel(tournament.id, me, staff=True)
            except TournamentRefused:  # it ended meanwhile
                continue
            except NotSaved as error:
                log.warning("tournament %s not cancelled: the store failed (%s)",
                            tournament.id, error.fault)  # fmt: skip

    # -- the organiser ------------------------------------------------------------------------

    @tournament.command(
        name=slash("command", "new"),
        description=locale_str(
            "Announce a tournament in this channel (Manage Server or the organisers' role)"
        ),
    )
    @app_commands.rename(
        game=slash("option", "game"),
        format=slash("option", "format"),
        rounds=slash("option", "rounds"),
        seats=slash("option", "seats"),
        target=slash("option", "target"),
        start_in=slash("option", "start_in"),
        checkin=slash("option", "checkin"),
        rated=slash("option", "rated"),
        partners=slash("option", "partners"),
    )
    @app_commands.describe(
        game=locale_str("Which game"),
        format=locale_str("Swiss, knockout or round robin"),
        rounds=locale_str("Swiss: how many rounds"),
        seats=locale_str("Players at a table (2–4, as the game allows)"),
        target=locale_str("Points to win each table's game"),
        start_in=locale_str("Minutes until round one starts"),
        checkin=locale_str("Minutes before the start that check-in opens"),
        rated=locale_str("Whether the games count toward ratings"),
        partners=locale_str("Milo: partners drawn each round, or pairs that sign up together"),
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, partners=PARTNER_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 30] | None = None,
        seats: app_commands.Range[int, 2, 4] | None = None,
        target: app_commands.Range[int, 1, 1000] | None = None,
        start_in: app_commands.Range[int, 1, 10080] = 60,
        checkin: app_commands.Range[int, 1, 1440] = 15,
        rated: bool = True,
        partners: app_commands.Choice[str] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not await self._staff(interaction):
            await reply(interaction, lobby.organisers_only())
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if not isinstance(interaction.channel, discord.TextChannel):
            raise TournamentRefused("text-channel")  # its tables play in threads of one
        check_can_post(interaction, threads=True)
        variant = find_variant(game.value)
        counts = variant.player_counts
        if seats is None:  # two a table where the game allows it, else the game's own
            seats = 2 if 2 in counts else max(counts)
        if seats not in counts:
            raise TournamentRefused("seats")
        if partners is not None and not variant.teams:
            raise TournamentRefused("pairs-game")  # drawn or by pairs: Milo's alone
        settings = Settings(
            game.value,
            Format(format.value),
            size=seats,
            smaller=tuple(n for n in counts if 2 <= n < seats),
            rounds=rounds,
            target=target,
            start_at=self.service.clock() + 60.0 * start_in,
            checkin_minutes=min(checkin, start_in),
            rated=rated,
            teams=variant.teams,  # Milo: partners drawn each round, never the same twice,
            pairs=partners is not None and partners.value == "pairs",  # or pairs sign up
        )
        await self.service.create(
            interaction.guild_id, interaction.channel_id, interaction.user.id, settings
        )
        await reply(interaction, said.signup_open())

    @tournament.command(
        name=slash("command", "pause"),
        description=locale_str("Start no new round until resumed (organiser)"),
    )
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        here, staff = self._here(interaction), await self._staff(interaction)
        await self.service.pause(here.id, interaction.user.id, True, staff=staff)
        await reply(interaction, said.paused())

    @tournament.command(
        name=slash("command", "resume"), description=locale_str("Resume the tournament (organiser)")
    )
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        here, staff = self._here(interaction), await self._staff(interaction)
        await self.service.pause(here.id, interaction.user.id, False, staff=staff)
        await reply(interaction, said.resumed(None))

    @tournament.command(
        name=slash("command", "cancel"), description=locale_str("Cancel the tournament (organiser)")
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        here, staff = self._here(interaction), await self._staff(interaction)
        await self.service.cancel(here.id, interaction.user.id, staff=staff)
        await reply(interaction, said.cancelled())

    @tournament.command(
        name=slash("command", "drop"),
        description=locale_str("Take a player out of the tournament (organiser)"),
    )
    @app_commands.rename(member=slash("option", "member"))
    @app_commands.describe(member=locale_str("Who no longer plays"))
    async def drop(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        here, staff = self._here(interaction), await self._staff(interaction)
        await self.service.withdraw(here.id, member.id, by=interaction.user.id, staff=staff)
        await reply(interaction, said.dropped(here.name_of(member.id)))

    @tournament.command(
        name=slash("command", "replace"),
        description=locale_str("Seat another member in a player's place (organiser)"),
    )
    @app_commands.rename(old=slash("option", "old"), new=slash("option", "new"))
    @app_commands.describe(
        old=locale_str("The player who leaves"), new=locale_str("The member who plays instead")
    )
    async def replace(
        self, interaction: discord.Interaction[Any], old: discord.Member, new: discord.Member
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        here, staff = self._here(interaction), await self._staff(interaction)
        seed = await rating_of(interaction, here.settings.game, new.id)
        await self.service.replace_player(
            here.id, old.id, new.id, members.seat_name(new), seed,
            by=interaction.user.id, staff=staff, new_is_bot=new.bot,
        )  # fmt: skip
        await reply(interaction, said.replaced(new.display_name, here.name_of(old.id)))

    @tournament.command(
        name=slash("command", "adjust"),
        description=locale_str("Change a table's result, with a reason (organiser)"),
    )
    @app_commands.rename(
        round=slash("option", "round"),
        table=slash("option", "table"),
        winner=slash("option", "winner"),
        reason=slash("option", "reason"),
    )
    @app_commands.describe(
        round=locale_str("The round"),
        table=locale_str("The table's number in that round"),
        winner=locale_str("Who wins that table"),
        reason=locale_str("Why (said in the channel and kept in the log)"),
    )
    async def adjust(
        self,
        interaction: discord.Interaction[Any],
        round: app_commands.Range[int, 1, 1000],
        table: app_commands.Range[int, 1, 1000],
        winner: discord.Member,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        here, staff = self._here(interaction), await self._staff(interaction)
        here.check_manager(interaction.user.id, staff)
        result = here.result_of(round, table - 1)
        if result is None:
            raise TournamentRefused("no-result")
        changed = won_by(result, here.entrant_of(winner.id))  # by pairs, the winner's pair
        await self.service.adjust(here.id, changed, reason, by=interaction.user.id, staff=staff)
        await reply(interaction, said.result_changed(table, round, interaction.user.id, reason))

    # -- a player ---------------------------------------------------------------------------------

    @tournament.command(
        name=slash("command", "status"),
        description=locale_str("Your place and your next table in this server's tournaments"),
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        user = interaction.user.id
        mine = [t for t in self.service.in_guild(interaction.guild_id) if t.player(user)]
        if not mine:
            if not self.service.in_guild(interaction.guild_id):
                raise TournamentRefused("none")
            raise TournamentRefused("not-entered")
        await reply(interaction, "\n\n".join(self._status_of(t, user) for t in mine))

    def _status_of(self, tournament: Tournament, user: int) -> str:
        title = said.tournament_title(tournament.settings.game, tournament.settings.format)
        entrant = tournament.entrant_of(user)  # by pairs, their pair
        place = points = None
        if tournament.round > 1 or any(isinstance(r, Result) for r in tournament.record):
            mine = next((s for s in standings_of(tournament) if s.entrant == entrant), None)
            if mine is not None:
                place, points = mine.place, mine.points
        where = None
        for drawn in tournament.tables_of(tournament.round):
            if user in drawn.seats and tournament.result_of(drawn.round, drawn.position) is None:
                table = self.tables.find(drawn.table_id or "")
                if table is not None:
                    where = (tournament.round, table.channel_id)
        bye = next(
            (b.round for b in tournament.record
             if isinstance(b, Bye) and b.entrant == entrant and b.round == tournament.round),
            None,
        )  # fmt: skip
        out = _out_of_knockout(tournament, entrant)
        starters = len(tournament.starters)
        return said.player_status(title, place, starters, points, where, bye, out)

    @tournament.command(
        name=slash("command", "withdraw"),
        description=locale_str("Leave the tournament (you keep what you earned)"),
    )
    async def withdraw(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.withdraw(self._here(interaction).id, interaction.user.id)
        await reply(interaction, said.withdrew(interaction.user.display_name))

    # -- who organises -----------------------------------------------------------------------

    async def _staff(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the member is one of the server's tournament organisers: Manage Server,
        or the role the server chose (``/domino settings tournament_role``). They may
        announce a tournament and manage any of the server's; the service also lets each
        tournament's creator manage it."""
        if interaction.permissions.manage_guild:
            return True
        role = (await self.tables.settings(interaction.guild_id or 0)).tournament_role
        user = interaction.user
        return (
            role is not None
            and isinstance(user, discord.Member)
            and user.get_role(role) is not None
        )

    # -- which tournament --------------------------------------------------------------------

    def _here(self, interaction: discord.Interaction[Any]) -> Tournament:
        """The tournament of this channel (its own, or one of its tables' threads), else
        the server's only open one; refused when there is none, or several and the
        channel names none."""
        open_ = self.service.in_guild(interaction.guild_id or 0)
        channel = interaction.channel_id or 0
        parent = getattr(interaction.channel, "parent_id", None)
        table = self.tables.in_channel(channel)
        found = [
            t
            for t in open_
            if channel == t.channel_id
            or parent == t.channel_id
            or (table is not None and table.tournament == t.id)
        ]
        if len(found) == 1:
            return found[0]
        if not open_:
            raise TournamentRefused("none")
        if len(open_) == 1 and not found:
            return open_[0]
        raise TournamentRefused("which")


def _out_of_knockout(tournament: Tournament, entrant: int) -> bool:
    """Whether the entrant's run in a knockout has ended: they lost a table that sent
    others on, or left (by pairs, either member). Only a knockout puts a player out; in
    a Swiss or a round robin one who left is no longer paired, and is told nothing of
    the sort."""
    if tournament.settings.format is not Format.KNOCKOUT:
        return False
    members = tournament.members_of(entrant)
    if any(p.out for p in tournament.players if p.user_id in members):
        return True
    if not tournament.started:  # no bracket before the start (nor enough checked in)
        return False
    bracket = knockout(tournament.starters, tournament.settings.seating)
    results = [r for r in tournament.record if isinstance(r, Result)]
    return any(gone == entrant for _, gone in placings(bracket, results))


def won_by(result: Result, winner: int) -> Result:
    """``result`` with ``winner``'s side placed first and the others behind it in the
    order they finished (sides that tied stay tied); the game points as played."""
    side = next((i for i, s in enumerate(result.sides) if winner in s), None)
    if side is None:
        raise TournamentRefused("not-at-table")
    places = tuple(
        1 if i == side else 2 + sum(1 for j, p in enumerate(result.places)
                                    if j != side and p < place)
        for i, place in enumerate(result.places)
    )  # fmt: skip
    return Result(result.round, result.table, result.sides, places, result.points)


async def setup(bot: DominoBot) -> None:
    assert bot.service is not None and bot.tournaments is not None and bot.herald is not None, (
        "the client makes the services before the cogs"
    )
    await bot.add_cog(TournamentsCog(bot, bot.service, bot.tournaments, bot.herald), override=True)
