"""Tournaments in Discord: the herald that the tournament service tells what happened,
and the announcement's buttons.

The service opens each round's tables in places the herald gives it (:meth:`place_for`:
a public thread per table in the tournament's channel, started from a short heading
message, since a thread needs a channel of its own for its table) and tells it what
happened once it is stored (:meth:`told`), which must not wait: the herald queues it and
a worker per tournament posts its news in order, in the server's language, each request
within the bot's share of Discord's global rate limit (the announcer's own budget once
the tables' cog shares it, :meth:`TournamentHerald.share`), and marks each piece done
once Discord took every message of it. A piece Discord refuses for good (403, 404: the
channel or the permission is gone; 400: it cannot be done there) is given up; one that
fails for now (5xx, 429, the network) is tried again later, the tournament's later news
waiting behind it and other tournaments' going on.

A piece told again after a restart (stored, not marked) may have been posted already:
each message is sent with a nonce of its own (:func:`nonce_of`: the piece and the
message's place in it), so Discord hands back the message it made with that nonce in
its last few minutes instead of making another. The channel's history is not searched
for older ones: only a stop in the instant between Discord's answer and the mark, that
then lasts longer than Discord's window, posts a message twice, while telling a picture
or an embed apart in the history is guesswork, and news more than an hour old is not
told again at all (``NEWS_KEPT``). The tables themselves are posted by the announcer, as
any table is: the herald asks the table service to show each new lobby
(``TableService.repost``), which the announcer then posts in the table's thread.

A table's place is made once. The tournament service keeps the thread it was given
until its table opens there; a thread made before a restart (the store had failed the
table, or the bot stopped before keeping it) is found again, once a round in a process,
among the channel's latest messages since the announcement: a heading of ours named as
the table, its thread holding no table (one left without its thread gets one). Only a
heading beyond :data:`LOOKBACK` is missed, and its table given another.

The announcement is edited as entrants come and go; its message id lives in memory, and
after a restart it is found again in the channel's latest messages by its buttons'
custom_ids (``domino-t:<tournament>:<action>``).

Milo by pairs: Sign up answers privately with a member select (``domino-t:<tournament>:
partner``, persistent like the buttons); a pair is entered once each of the two chose
the other, and the announcement lists it as ``A & B``, with those still waiting for a
partner apart.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import io
import itertools
import logging
import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import discord

from bot.engine import find_variant
from bot.refusals import OtherServer, Refusal
from bot.service import TableService
from bot.standings import Standings
from bot.tournaments import (
    Adjustment,
    Bracket,
    Bye,
    Entrant,
    Result,
    Standing,
    TooFewEntrants,
    TournamentError,
    knockout,
    placings,
    progress,
    round_robin,
    round_robin_standings,
    swiss_standings,
)
from bot.tournaments.model import OPEN_PHASES, Drawn, Format, News, NoPlace, Phase, Tournament
from discord_face import acting, buttons, members
from discord_face.budget import RequestBudget
from discord_face.embeds import embed
from discord_face.unanswered import UNANSWERED
from rendering.painter import Painter
from rendering.tournament import render_bracket, render_standings
from words import boards, i18n, refusals
from words import tournaments as said

if TYPE_CHECKING:  # the face reaches the service through the client, never its store
    from bot.tournaments.service import Done, TournamentService

log = logging.getLogger(__name__)

PREFIX = "domino-t"
LOOKBACK = 50
"""The channel's latest messages read after a restart to find the announcement, and
once a round in a process to find the tables' headings made before it."""
RETRY_SECONDS = 30.0
"""The first wait before a piece of news that failed for now is tried again (doubled
each time, up to :data:`RETRY_AT_MOST`)."""
RETRY_AT_MOST = 600.0
GIVEN_UP = {400: "bad-request", 403: "forbidden", 404: "not-found"}
"""Discord's answers that no retry changes, by what the mark says (400: what was asked
cannot be done there, such as a thread made in a thread)."""
DEFAULT_RATING = 0.0
"""The seed of a member with no rating in the server: the openskill ordinal of a new
player (mu 25 − 3 × sigma 25/3)."""

Button = discord.ui.Button[Any]
UserSelect = discord.ui.UserSelect[Any]
Answer = str | tuple[str, discord.ui.View]
"""A private answer: its words, and the components it carries, if any."""


# -- the announcement's buttons -------------------------------------------------------------


class TournamentButton(discord.ui.DynamicItem[Button], template=r"(?!)"):
    """A button of a tournament's announcement: ``domino-t:<tournament>:<action>``, parsed
    strictly; never registered itself (its template matches nothing)."""

    action: ClassVar[said.Action]

    def __init_subclass__(cls, *, action: said.Action) -> None:
        super().__init_subclass__(template=rf"{PREFIX}:(?P<tournament>[0-9a-f]{{8}}):{action}")
        cls.action = action

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(discord.ui.Button(label=self.action, custom_id=self.id_for(tournament_id)))

    @classmethod
    def id_for(cls, tournament_id: str) -> str:
        return f"{PREFIX}:{tournament_id}:{cls.action}"

    @classmethod
    def on(cls, tournament_id: str, style: discord.ButtonStyle) -> buttons.Component:
        """This button as the announcement carries it, labelled in the words' language."""
        return buttons.button(said.tournament_label(cls.action), cls.id_for(tournament_id), style)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TournamentButton:
        return cls(match["tournament"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _answering(interaction, self.clicked, self.action, self.tournament_id)

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TournamentService
    ) -> Answer:
        """Do what the button says; the member's private answer."""
        raise NotImplementedError


async def _answering(
    interaction: discord.Interaction[Any],
    clicked: Callable[[discord.Interaction[Any], TournamentService], Awaitable[Answer]],
    what: str,
    tournament_id: str,
) -> None:
    """A click on a tournament's component, answered privately: what ``clicked`` says,
    or the refusal, or an apology for a failure of ours."""
    acting.track(interaction)
    try:
        service = tournaments_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if service.get(tournament_id).guild_id != interaction.guild_id:
            raise OtherServer()  # a forged click from another server
        answer = await clicked(interaction, service)
        if isinstance(answer, str):
            await acting.reply(interaction, answer)
        else:
            text, view = answer
            await acting.reply(interaction, text, view=view)
    except acting.Starting:
        await acting.apologize(interaction, refusals.starting())
    except Refusal as error:
        await acting.answer(interaction, error)
    except Exception:
        log.exception("the %s of tournament %s failed", what, tournament_id)
        await acting.apologize(interaction)


class SignUpButton(TournamentButton, action="signup"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TournamentService
    ) -> Answer:
        tournament = service.get(self.tournament_id)
        user = interaction.user
        if tournament.settings.pairs:  # by pairs: the member chooses their partner
            choosers = service.choosers(tournament.id, user.id)
            words = said.choose_partner([tournament.name_of(member) for member in choosers])
            return words, partner_view(tournament.id)
        seed = await rating_of(interaction, tournament.settings.game, user.id)
        await service.sign_up(tournament.id, user.id, members.seat_name(user), seed)
        return said.signed_up()


class WithdrawButton(TournamentButton, action="withdraw"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TournamentService
    ) -> str:
        await service.withdraw(self.tournament_id, interaction.user.id)
        return said.withdrew(interaction.user.display_name)


class CheckInButton(TournamentButton, action="checkin"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TournamentService
    ) -> str:
        user = interaction.user.id
        await service.check_in(self.tournament_id, user)
        tournament = service.get(self.tournament_id)
        if not tournament.settings.pairs:
            return said.checked_in()
        pair = tournament.pair_of(user)
        if pair is None:
            return said.checked_in_without_pair()
        if tournament.pair_checked_in(pair):
            return said.checked_in()
        partner = next(member for member in pair.members if member != user)
        return said.checked_in_before_partner(tournament.name_of(partner))


class PartnerSelect(
    discord.ui.DynamicItem[UserSelect],
    template=rf"{PREFIX}:(?P<tournament>[0-9a-f]{{8}}):partner",
):
    """The member select of Sign up's answer, by pairs: the member chooses their
    partner (``domino-t:<tournament>:partner``)."""

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(discord.ui.UserSelect(custom_id=self.id_for(tournament_id)))

    @staticmethod
    def id_for(tournament_id: str) -> str:
        return f"{PREFIX}:{tournament_id}:partner"

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PartnerSelect:
        return cls(match["tournament"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _answering(interaction, self.chosen, "partner select", self.tournament_id)

    async def chosen(
        self, interaction: discord.Interaction[Any], service: TournamentService
    ) -> str:
        """The member chose their partner: the pair is entered, or waits for the partner
        to choose them back."""
        tournament = service.get(self.tournament_id)
        user, partner = interaction.user, self.item.values[0]
        seed = await rating_of(interaction, tournament.settings.game, user.id)
        pair = await service.choose_partner(
            tournament.id,
            user.id,
            members.seat_name(user),
            seed,
            partner.id,
            partner_is_bot=partner.bot,
        )
        if pair is None:
            return said.partner_chosen(partner.id)
        return said.pair_signed_up(partner.display_name)


def partner_view(tournament_id: str) -> discord.ui.View:
    """Sign up's answer by pairs: one member select, written as Discord reads it."""
    view = buttons._Buttons()
    view.add(
        {
            "type": discord.ComponentType.user_select.value,
            "custom_id": PartnerSelect.id_for(tournament_id),
            "placeholder": said.partner_placeholder(),
            "min_values": 1,
            "max_values": 1,
        }
    )
    return view


TOURNAMENT_BUTTONS = (SignUpButton, WithdrawButton, CheckInButton)
TOURNAMENT_ITEMS = (*TOURNAMENT_BUTTONS, PartnerSelect)
"""Every component class of tournaments (the buttons, and the partner select)."""


def _unclaimed_by_any() -> re.Pattern[str]:
    """Any custom_id that neither the tables' buttons nor the tournaments' claim."""
    claimed = "|".join(
        re.sub(r"\(\?P<\w+>", "(?:", c.__discord_ui_compiled_template__.pattern)
        for c in (*buttons.CLAIMED, *TOURNAMENT_ITEMS)
    )
    return re.compile(rf"(?s)(?!(?:{claimed})\Z).*")


class NoLongerValid(buttons.NoLongerValid, template=_unclaimed_by_any()):
    """``buttons.NoLongerValid``, leaving the tournaments' buttons to their own classes
    (discord.py runs every dynamic item whose template matches a click)."""


DYNAMIC_ITEMS = (*buttons.CLAIMED, *TOURNAMENT_ITEMS, NoLongerValid)
"""Every component class the client registers, tournaments' included."""


def announcement_view(tournament: Tournament) -> discord.ui.View:
    """Sign up, Withdraw and Check in, while sign-up is open, and paused before the
    start (sign-up opens again on resume, and the buttons say it is paused meanwhile);
    none after."""
    view = buttons._Buttons()
    if tournament.phase in (Phase.SIGNUP, Phase.PAUSED) and not tournament.started:
        view.add(SignUpButton.on(tournament.id, discord.ButtonStyle.primary))
        view.add(WithdrawButton.on(tournament.id, discord.ButtonStyle.secondary))
        view.add(CheckInButton.on(tournament.id, discord.ButtonStyle.success))
    return view


def tournaments_of(interaction: discord.Interaction[Any]) -> TournamentService:
    """The client's tournament service (``acting.Starting`` while it has none)."""
    service: TournamentService | None = getattr(interaction.client, "tournaments", None)
    if service is None or getattr(interaction.client, "stopping", False):
        raise acting.Starting()
    return service


async def rating_of(interaction: discord.Interaction[Any], game: str, user_id: int) -> float:
    """A member's seed: their openskill rating of ``game`` in this server, when the
    store has one, else :data:`DEFAULT_RATING` (as when the store cannot say)."""
    store = getattr(interaction.client, "store", None)
    if store is None:
        return DEFAULT_RATING
    try:
        board = await Standings(store).leaderboard(
            game, guild_id=interaction.guild_id, order="rating", page=1, user_id=user_id
        )
    except Refusal:
        return DEFAULT_RATING
    return board.me.rating if board.me is not None else DEFAULT_RATING


# -- the herald -------------------------------------------------------------------------------


class _Queued(NamedTuple):
    """A piece of news told, queued for its tournament's worker (see ``Herald.told``)."""

    tournament: Tournament
    news: News
    done: Done


def nonce_of(news: News, part: int) -> str:
    """The nonce of the ``part``-th message of a piece of news: the same each time the
    piece is posted, another for every other message (Discord's nonce is a string of at
    most 25 characters: the tournament's 8, its version and the two places fit)."""
    return f"{news.tournament_id}.{news.version}.{news.ordinal}.{part}"


_nonces: contextvars.ContextVar[Iterator[str] | None] = contextvars.ContextVar(
    "tournament_nonces", default=None
)
"""The nonces of the piece of news a worker posts, one per message sent, in order (each
worker is a task of its own, so each has its own). None outside a piece: a table's
thread heading is no news."""


class TournamentHerald:
    """What the Discord face makes of the tournament service's news (``Herald``)."""

    def __init__(
        self, client: discord.Client, tables: TableService, painter: Painter, budget: RequestBudget
    ) -> None:
        self.client = client
        self.tables = tables
        self.painter = painter
        self.budget = budget
        self._queues: dict[str, collections.deque[_Queued]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        """One worker per tournament with news to post (it ends when none is left)."""
        self.retry_seconds = RETRY_SECONDS
        self._announcements: dict[str, int] = {}
        self._edited: dict[str, int] = {}
        """The version each announcement was last edited for (older news skip the edit)."""
        self._latest: dict[str, Tournament] = {}
        self._headings: dict[str, tuple[int, dict[str, discord.Message]]] = {}
        """Each tournament's headings made before this process for its current round,
        by name, as its first place asked for found them (:meth:`_headings_left`); each
        taken out as it is used again."""

    def share(self, budget: RequestBudget) -> None:
        """Take the announcer's budget, so that the two never pass the bot's share."""
        self.budget = budget

    async def close(self) -> None:
        """Stop posting: what is not marked posted is told again at the next start."""
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        for worker in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def settled(self) -> None:
        """Until everything told so far has been posted or given up (for tests)."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))

    # -- Herald ------------------------------------------------------------------------------

    async def place_for(self, tournament: Tournament, drawn: Drawn) -> int:
        """A public thread for the table, started from its heading in the tournament's channel
        (two requests, within the budget). Discord's refusal (403, 404: the channel is gone, or
        the bot may not post or make threads there; 400: the channel cannot hold threads) is
        ``NoPlace`` for good; any other failure of Discord's or the network's, for now. A
        heading whose thread was not made is deleted (as far as Discord lets it), or each try
        would leave one more in the channel. One made before a restart is used again
        (:meth:`_headings_left`)."""
        heading: discord.Message | None = None
        try:
            # Not waiting for the bot to know its servers: a restart opens the round's
            # missing tables from inside its setup_hook, before it connects.
            with i18n.speaking(await self._language(tournament.guild_id, wait=False)):
                game = tournament.settings.game
                name = said.table_thread_name(game, drawn.round, drawn.position + 1)
                names = {name} | {
                    said.table_thread_name(game, d.round, d.position + 1)
                    for d in tournament.tables_of(drawn.round)
                }
            channel = await self._channel(tournament.channel_id)
            found = await self._headings_left(tournament, drawn.round, channel, names)
            left = await self._left(found, name)
            if left is not None:
                heading, started = left  # one left without its thread gets one
                if started is not None:
                    if self.tables.in_channel(started) is None:
                        return started  # empty: the table opens there
                    heading = None  # a table plays there: a heading of its own
            if heading is None:
                await self.budget.take()
                heading = await channel.send(name)
            await self.budget.take()
            thread = await heading.create_thread(name=name)
        except discord.HTTPException as error:
            await self._unsay(heading)
            raise NoPlace(str(error.status), for_good=error.status in GIVEN_UP) from error
        except UNANSWERED as error:
            await self._unsay(heading)
            raise NoPlace(type(error).__name__) from error
        thread_id: int = thread.id
        return thread_id

    async def _headings_left(
        self, tournament: Tournament, round_number: int, channel: Any, names: set[str]
    ) -> dict[str, discord.Message]:
        """The round's headings of ours (named as its tables, ``names``) made before this
        process, the store having failed their tables or the bot stopped before keeping
        them, by name: a new one beside one of them would leave it, and its thread,
        empty. The channel's latest messages are read once a round, since the
        tournament's announcement (older ones are another tournament's); a channel that
        cannot be read has none. Each is taken out as it is used (:meth:`_left`)."""
        kept = self._headings.get(tournament.id)
        if kept is not None and kept[0] == round_number:
            return kept[1]
        found: dict[str, discord.Message] = {}
        self._headings[tournament.id] = (round_number, found)
        me = self.client.user
        if me is None:  # not logged in: nothing can be told ours
            return found
        announcement = {b.id_for(tournament.id) for b in TOURNAMENT_BUTTONS}
        try:
            await self.budget.take()
            async for message in channel.history(limit=LOOKBACK):
                if _custom_ids(message) & announcement:
                    break
                if message.author.id == me.id and message.content in names:
                    found.setdefault(message.content, message)
        except discord.HTTPException as error:
            log.info("tournament %s: cannot read its channel for headings (%s)",
                     tournament.id, error.status)  # fmt: skip
        return found

    async def _left(
        self, found: dict[str, discord.Message], name: str
    ) -> tuple[discord.Message, int | None] | None:
        """The heading named ``name`` among those ``found``, taken out, with the thread
        it started (which takes its id; None: it started none). Discord's other failures
        are raised, the heading kept for the next try: the place fails for now."""
        heading = found.get(name)
        if heading is None:
            return None
        try:
            thread: int | None = (await self._channel(heading.id)).id
        except discord.NotFound:
            thread = None
        del found[name]
        return heading, thread

    async def _unsay(self, heading: discord.Message | None) -> None:
        """Delete a table's heading left without its thread, if there is one; a failure
        to is logged, the heading left."""
        if heading is None:
            return
        try:
            await self.budget.take()
            await heading.delete()
        except (discord.HTTPException, *UNANSWERED) as error:
            log.info("a table's heading %s left without its thread (%r)", heading.id, error)

    def told(self, tournament: Tournament, news: Sequence[News], done: Done) -> None:
        newest = self._latest.get(tournament.id)
        if newest is None or newest.version <= tournament.version:
            self._latest[tournament.id] = tournament
        queue = self._queues.setdefault(tournament.id, collections.deque())
        for piece in news:
            queue.append(_Queued(tournament, piece, done))
        if tournament.id not in self._workers:
            self._workers[tournament.id] = asyncio.create_task(
                self._work(tournament.id), name=f"tournament-herald-{tournament.id}"
            )

    # -- the workers ---------------------------------------------------------------------------

    async def _work(self, tournament_id: str) -> None:
        """Post the tournament's news in order, each marked done once posted or given up;
        one that failed for now is tried again after a wait, the later ones behind it."""
        queue = self._queues[tournament_id]
        wait = self.retry_seconds
        try:
            while queue:
                tournament, news, done = queue[0]
                given_up = await self._post(tournament, news)
                if given_up == "later":
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, RETRY_AT_MOST)
                    continue
                wait = self.retry_seconds
                queue.popleft()
                await done(news, given_up)
        finally:
            del self._workers[tournament_id]
            if not queue:
                del self._queues[tournament_id]
                self._forget_if_ended(tournament_id)

    def _forget_if_ended(self, tournament_id: str) -> None:
        """A tournament that ended, all its news posted, needs its announcement no more:
        what was kept of it goes (else every tournament the process ever told of stays
        in memory until it stops)."""
        latest = self._latest.get(tournament_id)
        if latest is not None and latest.phase not in OPEN_PHASES:
            del self._latest[tournament_id]
            self._announcements.pop(tournament_id, None)
            self._edited.pop(tournament_id, None)
            self._headings.pop(tournament_id, None)

    async def _post(self, tournament: Tournament, news: News) -> str | None:
        """Post one piece of news: None once Discord took each of its messages, else why
        it is given up, or ``later`` when it failed for now."""
        nonces = _nonces.set(nonce_of(news, part) for part in itertools.count())
        try:
            with i18n.speaking(await self._language(tournament.guild_id)):
                await self._tell(tournament, news.what, news.about, news.adjustment)
        except discord.HTTPException as error:
            if error.status in GIVEN_UP:
                log.warning("tournament %s: %r given up, Discord refused it (%s)",
                            tournament.id, news.what, error.status)  # fmt: skip
                return GIVEN_UP[error.status]
            log.info("tournament %s: %r to be tried again (%s)", tournament.id, news.what,
                     error.status)  # fmt: skip
            return "later"
        except UNANSWERED as error:
            log.info("tournament %s: %r to be tried again (%s)", tournament.id, news.what,
                     type(error).__name__)  # fmt: skip
            return "later"
        except Exception:  # a bug of ours: trying again would fail again
            log.exception("tournament %s: telling %r failed", tournament.id, news.what)
            return "failed"
        finally:
            _nonces.reset(nonces)
        return None

    async def _send(self, channel: Any, *args: Any, **kwargs: Any) -> discord.Message:
        """``channel.send`` within the budget, with the next nonce of the piece of news
        being posted (see :func:`nonce_of`)."""
        nonces = _nonces.get()
        if nonces is not None:
            kwargs["nonce"] = next(nonces)
        await self.budget.take()
        sent: discord.Message = await channel.send(*args, **kwargs)
        return sent

    async def _tell(
        self,
        tournament: Tournament,
        what: str,
        about: tuple[int, ...],
        adjustment: Adjustment | None,
    ) -> None:
        names = _names(tournament)
        if what == "created":
            await self._announce(tournament)
        elif what in ("signed-up", "checked-in", "withdrew", "dropped", "replaced"):
            await self._edit_announcement(tournament.id)
            if tournament.settings.pairs and what in ("withdrew", "dropped") and len(about) == 3:
                leaver, first, second = (names.get(u, "?") for u in about)  # and their pair
                pair_line = said.pair_withdrew if what == "withdrew" else said.pair_dropped
                await self._say(tournament, pair_line(leaver, said.pair_name(first, second)))
            elif tournament.phase is not Phase.SIGNUP and what in ("withdrew", "dropped"):
                line = said.withdrew if what == "withdrew" else said.dropped
                await self._say(tournament, "\n".join(line(names.get(u, "?")) for u in about))
            elif what == "replaced" and len(about) == 2:
                old, new = about
                await self._say(tournament, said.replaced(names.get(new, "?"), names.get(old, "?")))
        elif what == "round":
            await self._round(tournament)
        elif what == "adjusted" and adjustment is not None:
            await self._adjusted(tournament, about, adjustment)
        elif what == "unopened" and about:
            await self._say(tournament, said.round_not_opened(tournament.round, about[0]),
                            mention=True)  # fmt: skip
        elif what == "absent":
            await self._say(tournament, "\n".join(_no_show(tournament, names, u) for u in about))
        elif what == "not-both-checked-in":
            await self._say(
                tournament, "\n".join(said.not_both_checked_in(names.get(p, "?")) for p in about)
            )
        elif what == "round-over":
            await self._say(tournament, said.round_over(tournament.round))
            await self._picture(tournament)
        elif what == "resumed":
            running = tournament.phase is Phase.RUNNING
            await self._say(tournament, said.resumed(tournament.due if running else None))
        elif what in ("paused", "cancelled"):
            words = {"paused": said.paused, "cancelled": said.cancelled}
            await self._say(tournament, words[what]())
            if what == "cancelled":
                await self._edit_announcement(tournament.id, closed=True)
        elif what == "too-few":
            await self._edit_announcement(tournament.id, closed=True)
            await self._say(
                tournament,
                said.too_few(len(tournament.entrants), tournament.settings.least_entrants),
            )
        elif what == "finished":
            await self._picture(tournament)
            await self._podium(tournament)

    # -- the announcement --------------------------------------------------------------------

    async def _announce(self, tournament: Tournament) -> None:
        channel = await self._channel(tournament.channel_id)
        posted = await self._send(
            channel,
            embed=embed(said.announcement_card(_announcement(tournament))),
            view=announcement_view(tournament),
        )
        self._announcements[tournament.id] = posted.id
        self._edited[tournament.id] = tournament.version

    async def _edit_announcement(self, tournament_id: str, *, closed: bool = False) -> None:
        """The announcement as the tournament stands now (its newest news): its list of
        entrants, and no buttons once sign-up is over. An edit that failed for now (the
        network, Discord's 5xx) fails the piece of news, which is tried again (edited
        then); one Discord refuses for good (the message is gone) is given up."""
        tournament = self._latest[tournament_id]
        if self._edited.get(tournament_id, 0) >= tournament.version:
            return
        message_id = self._announcements.get(tournament_id)
        if message_id is None:
            message_id = await self._find_announcement(tournament)
        if message_id is None:
            return
        view = None if closed else announcement_view(tournament)
        channel = await self._channel(tournament.channel_id)
        await self.budget.take()
        try:
            await channel.get_partial_message(message_id).edit(
                embed=embed(said.announcement_card(_announcement(tournament))), view=view
            )
        except discord.HTTPException as error:
            if error.status not in GIVEN_UP:
                raise
            log.info("tournament %s: could not edit its announcement (%s)", tournament_id,
                     error.status)  # fmt: skip
        self._edited[tournament_id] = tournament.version

    async def _find_announcement(self, tournament: Tournament) -> int | None:
        """After a restart: the announcement among the channel's latest messages, by its
        buttons (an announcement whose buttons are gone needs no more edits)."""
        wanted = {b.id_for(tournament.id) for b in TOURNAMENT_BUTTONS}
        channel = await self._channel(tournament.channel_id)
        await self.budget.take()
        try:
            async for message in channel.history(limit=LOOKBACK):
                if _custom_ids(message) & wanted:
                    found: int = message.id
                    self._announcements[tournament.id] = found
                    return found
        except discord.HTTPException as error:
            log.info("tournament %s: cannot read its channel (%s)", tournament.id, error.status)
        return None

    # -- rounds ---------------------------------------------------------------------------------

    async def _round(self, tournament: Tournament) -> None:
        """Each table's lobby shown in its thread (by the announcer), then the pairing in
        the tournament's channel: every table with its thread and its players pinged,
        and the byes."""
        if tournament.round == 1:
            await self._edit_announcement(tournament.id, closed=True)
        lines = [said.round_begins(tournament.round, tournament.due or 0.0)]
        for drawn in tournament.tables_of(tournament.round):
            table = self.tables.find(drawn.table_id or "")
            if table is None:
                continue
            if self.tables.shown(acting.FACE, table.id).message_id is None:
                with contextlib.suppress(Refusal):  # its lobby, once (news may be told again)
                    await self.tables.repost(table.id)
            players = (
                [_mentioned(tournament, e) for side in drawn.sides for e in side]
                if tournament.settings.pairs
                else list(drawn.seats)  # in seat order (drawn partners: across)
            )
            lines.append(said.table_line(drawn.position + 1, table.channel_id, players))
        byes = [_mentioned(tournament, b.entrant) for b in tournament.record
                if isinstance(b, Bye) and b.round == tournament.round]  # fmt: skip
        if byes:
            lines.append(said.bye_line(byes))
        for chunk in acting.chunks(lines):
            await self._say(tournament, chunk, mention=True)

    async def _adjusted(
        self, tournament: Tournament, about: tuple[int, ...], adjustment: Adjustment
    ) -> None:
        """An organiser's change, with the reason they gave, then the standings again."""
        result = adjustment.result
        if about:  # the organiser who changed it, shown (never pinged: see _say)
            changed = said.result_changed(result.table + 1, result.round, about[0],
                                          adjustment.reason)  # fmt: skip
            await self._say(tournament, changed)
        await self._picture(tournament)

    # -- pictures ---------------------------------------------------------------------------------

    async def _picture(self, tournament: Tournament) -> None:
        """The standings after the round (Swiss, round robin) or the bracket (knockout)."""
        names = _names(tournament)
        format_ = tournament.settings.format
        title = said.tournament_title(tournament.settings.game, format_)
        starters = tournament.starters
        results = [r for r in tournament.record if isinstance(r, Result)]
        try:
            if tournament.settings.format is Format.KNOCKOUT:
                bracket = knockout(starters, tournament.settings.seating)
                reached = progress(bracket, results)
                btext = said.bracket_text(bracket, title)
                image = await self.painter.draw(render_bracket, bracket, reached, names, btext)
                alt = said.describe_bracket(bracket, reached, names, title)
                lines = said.bracket_lines(bracket, reached, names)
                filename = "bracket.png"
            else:
                rows = said.standings_rows(standings_of(tournament), names, _left(tournament))
                stext = said.standings_text(
                    title, format_, tournament.round, _rounds(tournament), len(rows)
                )
                image = await self.painter.draw(render_standings, rows, stext)
                alt = said.describe_standings(rows, stext, format_)
                lines = said.standings_lines(rows, format_)
                filename = "standings.png"
        except TournamentError as error:
            log.warning("tournament %s: no picture (%s)", tournament.id, error)
            return
        file = discord.File(io.BytesIO(image.png), filename=filename, description=alt[:1024])
        # Every line, in as many messages as they need (a large knockout's matches not
        # drawn are listed here alone): the picture with the first.
        chunks = acting.chunks(lines) or [""]
        for index, chunk in enumerate(chunks):
            await self._say(tournament, chunk, file=file if index == 0 else None)

    async def _podium(self, tournament: Tournament) -> None:
        names = _names(tournament)
        format_ = tournament.settings.format
        title = said.tournament_title(tournament.settings.game, format_)
        try:
            if tournament.settings.format is Format.KNOCKOUT:
                bracket = knockout(tournament.starters, tournament.settings.seating)
                results = [r for r in tournament.record if isinstance(r, Result)]
                order = placings(bracket, results)
            else:
                order = tuple((s.place, s.entrant) for s in standings_of(tournament))
        except TournamentError as error:
            log.warning("tournament %s: no podium (%s)", tournament.id, error)
            return
        podium = [(place, [names.get(user, "?")]) for place, user in order if place <= 3]
        channel = await self._channel(tournament.channel_id)
        await self._send(channel, embed=embed(said.podium_card(title, podium)))

    # -- requests ---------------------------------------------------------------------------------

    async def _say(
        self,
        tournament: Tournament,
        text: str,
        *,
        mention: bool = False,
        file: discord.File | None = None,
    ) -> None:
        """A message in the tournament's channel, within the budget; ``mention``: the
        members it names are pinged (users only, never roles or everyone)."""
        if not text and file is None:
            return
        channel = await self._channel(tournament.channel_id)
        mentions = (
            discord.AllowedMentions(users=True) if mention else discord.AllowedMentions.none()
        )
        kwargs: dict[str, Any] = {"allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        await self._send(channel, text or None, **kwargs)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            await self.budget.take()
            channel = await self.client.fetch_channel(channel_id)
        return channel

    async def _language(self, guild_id: int, *, wait: bool = True) -> i18n.Language:
        return await acting.posting_language(self.client, self.tables, guild_id, wait=wait)


# -- what the words need of a tournament ------------------------------------------------------


def _custom_ids(message: discord.Message) -> set[str | None]:
    """The custom_ids of a message's buttons and selects."""
    return {
        getattr(child, "custom_id", None)
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
    }


def _names(tournament: Tournament) -> dict[int, str]:
    """Each player's name as the words show it: a member forgotten since (``/domino
    forget-me`` empties their name in an ended tournament) is a former player; and each
    pair's (``A & B``), by its id."""
    names = {p.user_id: p.name or boards.former_player() for p in tournament.players}
    for pair in tournament.pairs:
        first, second = (names.get(member, boards.former_player()) for member in pair.members)
        names[pair.id] = said.pair_name(first, second)
    return names


def _mentioned(tournament: Tournament, entrant: int) -> int | tuple[int, int]:
    """An entrant as a round's lines mention them: the member, or a pair's two."""
    pair = next((p for p in tournament.pairs if p.id == entrant), None)
    return pair.members if pair is not None else entrant


def _no_show(tournament: Tournament, names: dict[int, str], user: int) -> str:
    """An absentee, and by pairs the pair that forfeits with them."""
    pair = tournament.pair_of(user)
    if pair is None:
        return said.no_show(names.get(user, "?"))
    return said.no_show_in_pair(names.get(user, "?"), names[pair.id])


def _left(tournament: Tournament) -> dict[int, said.Left]:
    """Each entrant who left, and why, as the tournament keeps it (``Player.dropped``):
    by pairs, a pair is dropped when the organiser dropped either member."""
    left: dict[int, said.Left] = {
        p.user_id: "dropped" if p.dropped else "withdrew" for p in tournament.players if p.out
    }
    for pair in tournament.pairs:
        if tournament.pair_out(pair):
            dropped = any(p.dropped for p in tournament.players if p.user_id in pair.members)
            left[pair.id] = "dropped" if dropped else "withdrew"
    return left


def standings_of(tournament: Tournament) -> tuple[Standing, ...]:
    """The standings as the format counts them (Swiss, round robin)."""
    if tournament.settings.format is Format.ROUND_ROBIN:
        return round_robin_standings(tournament.starters, tournament.record)
    return swiss_standings(tournament.starters, tournament.record)


def _rounds(tournament: Tournament) -> int:
    """How many rounds the tournament plays (as far as its entrants say so far)."""
    settings = tournament.settings
    if settings.format is Format.SWISS:
        return settings.rounds or 0
    entrants: Sequence[Entrant] = tournament.starters
    if not entrants:  # nobody checked in yet: everyone still in
        entrants = (
            [Entrant(p.id, 0.0) for p in tournament.pairs if not tournament.pair_out(p)]
            if settings.pairs
            else [Entrant(p.user_id, p.rating) for p in tournament.players if not p.out]
        )
    try:
        if settings.format is Format.ROUND_ROBIN:
            return len(round_robin(entrants, settings.seating))
        bracket: Bracket = knockout(entrants, settings.seating)
        return len(bracket.rounds)
    except (TooFewEntrants, TournamentError):
        return 0


def _announcement(tournament: Tournament) -> said.Announcement:
    settings = tournament.settings
    return said.Announcement(
        game=find_variant(settings.game),
        format=settings.format,
        rounds=_rounds(tournament) if tournament.phase is not Phase.SIGNUP else None,
        seats=settings.size,
        start=settings.start_at,
        checkin_opens=settings.checkin_at,
        checkin_closes=settings.start_at,
        rated=settings.rated,
        organiser=tournament.organiser_id,
        entrants=_entrant_names(tournament),
        waiting=_waiting(tournament),
        smaller=settings.smaller,
        partners="pairs" if settings.pairs else "drawn" if settings.teams else None,
        target=settings.target,
    )


def _entrant_names(tournament: Tournament) -> list[str]:
    """The announcement's entrants: the players, or by pairs the pairs, still in."""
    if not tournament.settings.pairs:
        return [p.name for p in tournament.players if not p.out]
    names = _names(tournament)
    return [names[pair.id] for pair in tournament.pairs if not tournament.pair_out(pair)]


def _waiting(tournament: Tournament) -> list[tuple[str, int | None]]:
    """By pairs: who signed up and waits for a partner, with whom they chose."""
    if not tournament.settings.pairs:
        return []
    return [
        (p.name, tournament.asked_by(p.user_id))
        for p in tournament.players
        if not p.out and tournament.pair_of(p.user_id) is None
    ]
