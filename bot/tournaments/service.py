"""The tournament service: tournaments above the table service, as tables are above the
engine. It signs players up, pairs each round (the pure core: ``pairing``, ``bracket``),
opens each round's tables through the table service in places a face gives it (a
thread each, in Discord: one that fails for now is tried again on a backoff, one refused
for good pauses the tournament, and a round is told and timed once its last table is
open), starts each table once its players sit, lets a computer stand
in for whoever has not come by the round's deadline (they forfeit), hears each table's
end from the table service's events and records it, and goes on to the next round or
to the podium. Milo's partners sign up as pairs where the organiser chose so
(:meth:`TournamentService.choose_partner`): each pair is one entrant to the core, its
members seated across. Everything is stored before it is told (compare-and-swap on the
tournament's version, as for tables); after a restart the open tournaments, their
deadlines and their tables' results are taken up again from the store.

A face hears of tournaments through a :class:`Herald` (what to announce): each piece of
news is stored in the transaction of the change it tells (``tournament_news``, an
outbox), the herald is told it then, and marks it once posted (a mark the store fails
is written again later: :mod:`bot.tournaments.marks`); a start hands the herald again
what was stored and not posted, of the open tournaments and the ended ones alike (news
older than :data:`NEWS_KEPT` is passed over). A change the store kept though its answer
was lost is taken up from the store (:meth:`TournamentService._settle`), its news told.
The service hears of tables as one more listener of the table service (``face =
"tournaments"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import NamedTuple, Protocol

from bot.commands import Cancel, StandIn, Start
from bot.engine import EngineError, Match, Options, find_variant
from bot.events import Cancelled, Event, GameOver, Joined
from bot.refusals import (
    InTournament,
    NotRead,
    NotSaved,
    OptionsRefused,
    Refusal,
    SeatedElsewhere,
    TournamentRefused,
)
from bot.service import NewTable, TableService, TournamentSeats
from bot.service.settling import UNANSWERED
from bot.snapshot import TableSnapshot
from bot.table import Status
from bot.tournaments import bracket as brackets
from bot.tournaments.errors import NotForKnockout, TooFewEntrants, TournamentError
from bot.tournaments.marks import Marks
from bot.tournaments.model import (
    OPEN_PHASES,
    Drawn,
    Format,
    News,
    NoPlace,
    Pair,
    Phase,
    Player,
    Settings,
    Tournament,
    adjustment_from_json,
    adjustment_to_json,
)
from bot.tournaments.pairing import round_robin, swiss
from bot.tournaments.results import Adjustment, Result, adjusted
from bot.tournaments.seating import Bye, Pairings, Table
from data.models import NewsRow, Told, TournamentRow
from data.repository import StoreError, VersionConflict

log = logging.getLogger(__name__)

FACE = "tournaments"
STAND_IN_LEVEL = "normal"
"""The computer that plays an absentee's seat."""
NEWS_KEPT = 3600.0
"""Seconds a tournament's news stored and not posted is still told at a start: older,
it is passed over (marked ``stale``), since a round's pairings, a round's standings or a
podium an hour late say nothing the tournament's status does not, and would ping
players for a round long past. The announcement of a tournament still open is told
however old: without it no one can sign up."""

PLACE_RETRY_SECONDS = 30.0
"""The first wait before a round's table whose place failed for now is tried again, or a
change the store failed to keep is made again (doubled each time, up to
:data:`PLACE_RETRY_AT_MOST`): the deadline loop tries it, so a platform or a store that
fails for a while is asked a few times an hour, not in a busy loop."""
PLACE_RETRY_AT_MOST = 600.0

Done = Callable[[News, "str | None"], Awaitable[None]]
"""How a herald says it is done with a piece of news: posted (None), or given up (why)."""


class Herald(Protocol):
    """What a face is told of tournaments (each piece of news once it is stored)."""

    async def place_for(self, tournament: Tournament, drawn: Drawn) -> int:
        """A channel (a thread) for a round's table: a table needs a channel of its own.
        Raises :class:`NoPlace` when it cannot make one (for now, or for good)."""
        ...

    def told(self, tournament: Tournament, news: Sequence[News], done: Done) -> None:
        """``news`` of ``tournament`` (as it stood at their version), stored: each
        ``what`` happened (``signed-up``, ``round``, ``absent``, ``result``,
        ``round-over``, ``finished``, by pairs ``not-both-checked-in``, ``unopened``: a
        round's place refused for good, the tournament paused …), ``about``
        whom (members, or pairs' ids; for ``adjusted``, the organiser who made the
        ``adjustment``, which says which table and why). To be posted after everything
        told before of the same tournament, each piece then marked with ``done`` (once
        posted, or given up and why); one not marked is told again at the next start,
        so a face that posts makes a second post of it come to nothing. Must not wait
        (it queues)."""
        ...


class _Telling(NamedTuple):
    """A piece of news a change tells, before it is stored (:meth:`TournamentService._save`
    names it by the change's version)."""

    what: str
    about: tuple[int, ...] = ()
    adjustment: Adjustment | None = None


class TournamentService:
    """Every open tournament of this process, over ``tables``."""

    def __init__(
        self,
        tables: TableService,
        herald: Herald,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.herald = herald
        self.clock = clock
        self.open: dict[str, Tournament] = {}
        self._lock = asyncio.Lock()
        self._work: asyncio.Queue[tuple[TableSnapshot, list[Event]]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._retries: dict[str, tuple[float, float]] = {}
        """Each started tournament with something left undone: a round's table whose
        place failed for now, or a change of its own the store failed to keep (a table's
        result, the next round, the round's tables); when it is taken up again
        (:meth:`_catch_up`, as after a restart; a paused one's once it is resumed), and
        the wait that led there (doubled at each failure). In memory: a restart takes it
        up at once."""
        self._unclosed: dict[str, tuple[float, float]] = {}
        """The tables of ended tournaments left waiting in their lobby because the store
        failed their cancel (:meth:`_close_waiting`): when each is tried again, and the
        wait that led there; a restart closes them anyway (:meth:`resume`)."""
        self._opening: set[str] = set()
        """The tournaments whose missing tables are being opened (the deadline loop,
        a resume and a start may ask at once; a table is opened once)."""
        self._places: dict[tuple[str, int, int], int] = {}
        """The place the herald made for a round's table (by tournament, round and
        position) whose table has not opened in it yet, the store having failed to keep
        it: the next try opens the table there, instead of making the players another
        heading and thread beside the empty one (:meth:`_open`). Kept until the table
        opens, or its tournament ends (:meth:`_keep`)."""
        self._unsure: set[str] = set()
        """The tournaments whose last write's answer was lost (the store said
        ``unavailable``): it may be stored. Each has its entry in :attr:`_retries`, in
        any phase, and the store is asked again then (:meth:`_settle`)."""
        self._unanswered: dict[str, Tournament] = {}
        """Tournaments whose creation's answer was lost (the store said ``unavailable``):
        each may be stored, so its channel is held for it until the store is asked, on
        the backoff of :attr:`_creations` or at the next creation in that channel
        (:meth:`_created_after_all`)."""
        self._creations: dict[str, tuple[float, float]] = {}
        """When each of :attr:`_unanswered` is asked about again, and the wait before."""
        self.marks = Marks(self.store, clock)
        """The marks of news done with that the store failed, written again later."""

    # -- the table service's listener --

    face = FACE
    catches_up = False

    def shows(self, guild_id: int) -> bool:
        """It follows a tournament's tables, on whichever server."""
        return True

    def forgotten(self, user_id: int) -> None:
        """Nothing to let go: a member entered in an open tournament is not forgotten."""

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        if table.tournament is not None and table.tournament in self.open:
            self._work.put_nowait((table, list(events)))

    # -- the table service's commitment --

    def holds(self, guild_id: int, user_id: int) -> Refusal | None:
        """A member who plays in one of this server's open tournaments (from its check-in
        on: :meth:`Tournament.keeps`) sits at its tables only: a casual table would hold
        their one seat of the server when their round's table opens, and a started game
        cannot be left, so a computer would take their round's seat and they would
        forfeit. Asked by the table service before it seats a member anywhere else."""
        now = self.clock()
        for tournament in self.open.values():
            if tournament.guild_id == guild_id and tournament.keeps(user_id, now):
                settings = tournament.settings
                return InTournament(
                    tournament.channel_id,
                    settings.game,
                    settings.format.value,
                    tournament.round,
                    settings.start_at,
                    waiting=self._waiting_for(tournament, user_id),
                )
        return None

    def _waiting_for(self, tournament: Tournament, user_id: int) -> int | None:
        """The channel of the current round's table that keeps a seat for the member
        now (open, and they have not sat down), if there is one."""
        for drawn in tournament.tables_of(tournament.round):
            table = None if drawn.table_id is None else self.tables.find(drawn.table_id)
            if table is not None and user_id in table.invited:
                return table.channel_id
        return None

    async def close(self) -> None:
        self.tables.remove_commitment(self)
        for task in (self._worker, self._timer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.marks.flush()

    # -- start and stop --

    async def resume(self, owns: Callable[[int], bool] = lambda guild_id: True) -> int:
        """Take up every open tournament of the servers this process ``owns`` (its
        shards', as for tables: another process runs the others' deadlines and tables):
        its tables' results that came while the bot was down, and its deadlines. Returns
        how many."""
        rows = [row for row in await self.store.load_open_tournaments() if owns(row.guild_id)]
        for row in rows:
            try:
                tournament = Tournament.from_dict(row.state)
            except (KeyError, TypeError, ValueError) as error:
                log.error("tournament %s cannot be read back (%s)", row.id, error)
                continue
            self._keep(tournament)
        await self._take_up_news(owns)
        # A stop between ending a tournament and closing its waiting tables left them.
        stored = {row.id for row in rows}  # an unreadable one's are left as they are
        await self._close_waiting(
            table.id
            for table in map(self.tables.find, list(self.tables.tables))
            if table is not None and table.tournament not in (None, *stored)
        )
        self.tables.add_listener(self)
        self.tables.add_commitment(self)
        self._worker = asyncio.create_task(self._listen(), name="tournaments")
        self._timer = asyncio.create_task(self._tick(), name="tournament-deadlines")
        for tournament in list(self.open.values()):
            try:
                await self._catch_up(tournament)
            except (Refusal, StoreError) as error:  # taken up again on the backoff
                log.warning("tournament %s: %s", tournament.id, error)
                self._retry_later(tournament.id)
        return len(self.open)

    async def _take_up_news(self, owns: Callable[[int], bool]) -> None:
        """Hand the herald again the news stored and not posted (a stop came between
        the two) of the tournaments of the servers this process ``owns``, open or ended,
        each with the tournament as it stood at its version, in the order told; before
        anything new is told. News older than :data:`NEWS_KEPT` is passed over."""
        try:
            unposted = await self.store.unposted_news(owns)
        except StoreError as error:
            log.warning("the tournaments' news not yet posted cannot be read (%s)", error.fault)
            return
        await self._retell(unposted)

    async def _retell(self, unposted: Sequence[NewsRow]) -> None:
        """Hand the herald ``unposted`` news (in the order stored), each version's with
        the tournament as it stood then; news older than :data:`NEWS_KEPT` is passed
        over, and news that does not read back given up."""
        now = self.clock()
        for _, grouped in groupby(unposted, key=lambda row: (row.tournament_id, row.version)):
            rows = list(grouped)
            try:
                tournament = Tournament.from_dict(rows[0].state)
                news = [_news(row) for row in rows]
            except (KeyError, TypeError, ValueError) as error:
                log.error("tournament %s: its news of version %d cannot be read back (%s)",
                          rows[0].tournament_id, rows[0].version, error)  # fmt: skip
                for row in rows:
                    await self.news_done(_news_named(row), "unreadable")
                continue
            fresh = []
            for row, piece in zip(rows, news, strict=True):
                announcement = piece.what == "created" and tournament.id in self.open
                if now - row.created_at > NEWS_KEPT and not announcement:
                    log.info("tournament %s: %r of version %d is too old to tell now",
                             tournament.id, piece.what, piece.version)  # fmt: skip
                    await self.news_done(piece, "stale")
                else:
                    fresh.append(piece)
            if fresh:
                self.herald.told(tournament, fresh, self.news_done)

    async def news_done(self, news: News, given_up: str | None = None) -> None:
        """The herald is done with ``news``: posted (``given_up`` None), or given up
        (why). A mark the store fails is written again on a backoff by the deadline
        loop (:class:`~bot.tournaments.marks.Marks`), until stored: else the next start,
        however late, would tell the piece again, and it would be posted twice."""
        if not await self.marks.mark(news, given_up):
            self._wake.set()

    def _keep(self, tournament: Tournament) -> None:
        if tournament.phase in OPEN_PHASES:
            self.open[tournament.id] = tournament
        else:
            self.open.pop(tournament.id, None)
            for place in [p for p in self._places if p[0] == tournament.id]:
                del self._places[place]
        self._wake.set()

    # -- organising --

    async def create(
        self, guild_id: int, channel_id: int, organiser_id: int, settings: Settings
    ) -> Tournament:
        if settings.format is Format.SWISS and not settings.rounds:
            raise TournamentRefused("rounds")
        if settings.format is not Format.SWISS and settings.rounds is not None:
            # A knockout plays until one is left, a round robin until all have met:
            # a number of rounds asked for would be ignored, so it is refused.
            raise TournamentRefused("rounds-swiss-only")
        if settings.pairs and not settings.teams:
            raise TournamentRefused("pairs-game")
        if settings.format is Format.KNOCKOUT and settings.seating.drawn_partners:
            # Its bracket could never be drawn: refused now, not found at the start.
            raise TournamentRefused(NotForKnockout.__name__) from NotForKnockout()
        _check_target(settings)
        for unsure in [t for t in self._unanswered.values() if t.channel_id == channel_id]:
            await self._created_after_all(unsure.id)
        if any(t.channel_id == channel_id for t in self.open.values()):
            # One a channel: its commands and its tables' threads name it by the channel.
            raise TournamentRefused("channel-taken")
        tournament = Tournament(
            id=secrets.token_hex(4),
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            settings=settings,
            due=settings.start_at,
            version=1,
        )
        row = self._row(tournament)
        created = _Telling("created")
        try:
            await self.store.create_tournament(
                row, {"kind": "create", "by": organiser_id}, _stored(created)
            )
        except StoreError as error:
            if error.fault == UNANSWERED:
                self._unanswered[tournament.id] = tournament
                _later(self._creations, tournament.id, self.clock())
                self._wake.set()
            raise NotSaved(error.fault) from error
        self._keep(tournament)
        self._tell(tournament, [created])
        return tournament

    async def _created_after_all(self, tournament_id: str) -> None:
        """Ask the store whether a tournament whose creation's answer was lost is stored:
        if it is, it is kept and its announcement told, as if the answer had come (a
        second one is then refused its channel); if not, its channel is free. A store
        that does not answer raises ``NotSaved``: the channel stays held. Under the lock:
        the deadline loop and a creation in the channel may ask at once."""
        async with self._lock:
            tournament = self._unanswered.get(tournament_id)
            if tournament is None:
                return  # asked and answered meanwhile
            try:
                row = await self.store.get_tournament(tournament_id)
                news = [] if row is None else await self._untold(tournament, 0)
            except StoreError as error:
                _later(self._creations, tournament_id, self.clock())
                raise NotSaved(error.fault) from error
            del self._unanswered[tournament_id], self._creations[tournament_id]
            if row is not None:
                log.info("tournament %s: stored though its creation's answer was lost, taken"
                         " up", tournament_id)  # fmt: skip
                self._keep(tournament)
                await self._retell(news)

    def get(self, tournament_id: str) -> Tournament:
        tournament = self.open.get(tournament_id)
        if tournament is None:
            raise TournamentRefused("closed")
        return tournament

    def in_guild(self, guild_id: int) -> list[Tournament]:
        return [t for t in self.open.values() if t.guild_id == guild_id]

    async def check_forgettable(self, user_id: int) -> None:
        """A member named in an open tournament is refused a forget-me: one still entered
        until they withdraw (its tables and standings are theirs while it runs), as a
        member seated at an open table is; one who withdrew until it ends, since the
        store takes members out of ended tournaments only (an open one's state is the
        service's, rewritten with every change). This process's tournaments, and, as
        stored, every other process's (another shard's servers)."""
        try:
            rows = await self.store.load_open_tournaments()
        except StoreError as error:
            raise NotRead(error.fault) from error
        stored = []
        for row in rows:
            if row.id in self.open:  # this process's, read already
                continue
            with contextlib.suppress(KeyError, TypeError, ValueError):  # logged at resume
                stored.append(Tournament.from_dict(row.state))
        for tournament in (*self.open.values(), *stored):
            player = tournament.player(user_id)
            if player is not None:
                raise TournamentRefused("withdrawn" if player.out else "entered")

    async def sign_up(self, tournament_id: str, user_id: int, name: str, rating: float) -> None:
        """A member enters on their own (by pairs, they choose a partner instead:
        :meth:`choose_partner`)."""
        async with self._lock:
            tournament = self.get(tournament_id)
            if tournament.phase is not Phase.SIGNUP:
                raise TournamentRefused("started" if tournament.started else "paused")
            if tournament.settings.pairs:
                raise TournamentRefused("partners")
            known = tournament.player(user_id)
            if known is not None and not known.out:
                raise TournamentRefused("signed-up")
            self._check_free(tournament, user_id)
            await self._save(
                tournament.with_player(Player(user_id, name, rating)),
                {"kind": "sign-up", "by": user_id},
                news=[_Telling("signed-up", (user_id,))],
            )

    def choosers(self, tournament_id: str, user_id: int) -> tuple[int, ...]:
        """Before a member chooses a partner (Milo by pairs): refused as
        :meth:`choose_partner` would refuse them whomever they chose; else the members
        who chose them and wait for them to choose back."""
        tournament = self.get(tournament_id)
        _check_choosing(tournament, user_id)
        return tuple(member for member, partner in tournament.asked if partner == user_id)

    async def choose_partner(
        self,
        tournament_id: str,
        user_id: int,
        name: str,
        rating: float,
        partner: int,
        *,
        partner_is_bot: bool = False,
    ) -> Pair | None:
        """Milo by pairs: the member chooses ``partner``. A pair is entered once each of
        the two has chosen the other: returns it then, or None while the partner has not
        chosen them back (the member is signed up meanwhile, and may choose again).

        Refused, with nothing changed: outside sign-up, in a tournament not by pairs,
        choosing oneself or a bot, a member already in a pair, a partner in a pair or
        who chose someone else, or the partner already chosen."""
        async with self._lock:
            tournament = self.get(tournament_id)
            _check_choosing(tournament, user_id)
            self._check_free(tournament, user_id)
            if partner == user_id:
                raise TournamentRefused("partner-self")
            if partner_is_bot:
                raise TournamentRefused("partner-bot")
            if tournament.pair_of(partner) is not None:
                raise TournamentRefused("partner-taken")
            if tournament.asked_by(user_id) == partner:
                raise TournamentRefused("already-chosen")
            if tournament.asked_by(partner) not in (None, user_id):
                raise TournamentRefused("partner-chose-another")
            me = Player(user_id, name, rating)
            if tournament.asked_by(partner) == user_id:
                pair = Pair(tournament.next_pair_id(), (partner, user_id))
                # Whoever else chose either of the two waits for nobody now.
                asked = tuple(
                    (member, chosen) for member, chosen in tournament.asked
                    if not {member, chosen} & {user_id, partner}
                )  # fmt: skip
                changed = replace(
                    tournament.with_player(me), pairs=(*tournament.pairs, pair), asked=asked
                )
                action: dict[str, object] = {"kind": "pair", "by": user_id, "partner": partner}
            else:
                pair = None
                asked = tuple(a for a in tournament.asked if a[0] != user_id)
                changed = replace(tournament.with_player(me), asked=(*asked, (user_id, partner)))
                action = {"kind": "choose-partner", "by": user_id, "partner": partner}
            await self._save(changed, action, news=[_Telling("signed-up", (user_id, partner))])
        return pair

    def _check_free(self, tournament: Tournament, user_id: int) -> None:
        """From check-in on, a member who sits at another table of the server may not
        enter or check in: held to the tournament's tables from then on (:meth:`holds`),
        they would find their one seat of the server taken when their round's table
        opens, a started game not to be left, and forfeit. Before check-in, a casual
        table may still end in time."""
        if self.clock() < tournament.settings.checkin_at:
            return
        seated = self.tables.of_user(tournament.guild_id, user_id)
        if seated is not None and seated.tournament is None:
            raise SeatedElsewhere(seated.channel_id)

    async def check_in(self, tournament_id: str, user_id: int) -> None:
        async with self._lock:
            tournament = self.get(tournament_id)
            player = tournament.player(user_id)
            if player is None or player.out:
                raise TournamentRefused("not-entered")
            if (
                tournament.phase is not Phase.SIGNUP
                or self.clock() < tournament.settings.checkin_at
            ):
                raise TournamentRefused("check-in-closed")
            self._check_free(tournament, user_id)
            await self._save(
                tournament.with_player(replace(player, checked_in=True)),
                {"kind": "check-in", "by": user_id},
                news=[_Telling("checked-in", (user_id,))],
            )

    async def withdraw(
        self, tournament_id: str, user_id: int, *, by: int | None = None, staff: bool = False
    ) -> None:
        """A player leaves (``by`` an organiser: dropped, see :meth:`Tournament.check_manager`);
        they keep what they earned and are paired no more. By pairs, their pair leaves
        with them (:func:`_without`)."""
        async with self._lock:
            tournament = self.get(tournament_id)
            if by is not None:
                tournament.check_manager(by, staff)
            player = tournament.player(user_id)
            if player is None or player.out:
                # An organiser naming someone is told of that member, not of themselves.
                raise TournamentRefused("not-entered" if by is None else "not-a-player")
            kind = "drop" if by is not None else "withdraw"
            changed, leaving = _without(tournament, user_id, dropped=by is not None)
            await self._save(
                changed,
                {"kind": kind, "by": by or user_id, "player": user_id},
                news=[_Telling("dropped" if by else "withdrew", leaving)],
            )

    async def replace_player(
        self,
        tournament_id: str,
        old: int,
        new: int,
        name: str,
        rating: float,
        *,
        by: int,
        staff: bool = False,
        new_is_bot: bool = False,
    ) -> None:
        """An organiser seats ``new`` in ``old``'s place from the next round on (``old``
        keeps what they earned); by pairs, in ``old``'s pair, which keeps its id, its
        results and its seed (``old`` must be in one; ``rating`` then seeds nobody). Not
        in a knockout or a round robin of single players: their draw is made once, from
        everyone who checked in, and a newcomer has no place in it (one would make
        another draw under the results so far). Not a bot: it would never join its
        tables, and lose each one for its side."""
        async with self._lock:
            tournament = self.get(tournament_id)
            tournament.check_manager(by, staff)
            if new_is_bot:
                raise TournamentRefused("replace-bot")
            if not tournament.settings.pairs and tournament.settings.format is not Format.SWISS:
                raise TournamentRefused("fixed-draw")
            player = tournament.player(old)
            if player is None:
                raise TournamentRefused("not-a-player")
            if tournament.player(new) is not None:
                raise TournamentRefused("newcomer-entered")
            pair = tournament.pair_of(old)
            if tournament.settings.pairs and pair is None:
                raise TournamentRefused("not-paired")
            if (
                pair is not None
                and _drawn_once(tournament)
                and pair.id not in {entrant.id for entrant in tournament.starters}
            ):
                # A pair that did not check in whole is not in the draw: completed by a
                # newcomer checked in, it would join it, and the bracket (or schedule)
                # drawn again with it would no longer hold the results played.
                raise TournamentRefused("not-drawn")
            # By pairs the newcomer takes ``old``'s seed too: a knockout's bracket and a
            # round robin's schedule are drawn again, from the pairs' seeds (their members'
            # mean rating), whenever a round is paired, and a pair seeded anew would draw
            # another bracket than the one its results were played in (refused by it, and
            # the tournament would wait for good).
            seed = player.rating if pair is not None else rating
            # Out by an organiser's hand: the standings say "dropped", not "withdrew".
            changed = tournament.with_player(replace(player, out=True, dropped=True)).with_player(
                Player(new, name, seed, checked_in=True)
            )
            if pair is not None:
                members = tuple(new if m == old else m for m in pair.members)
                moved = Pair(pair.id, (members[0], members[1]))
                changed = replace(
                    changed, pairs=tuple(moved if p == pair else p for p in changed.pairs)
                )
            await self._save(
                changed,
                {"kind": "replace", "by": by, "old": old, "new": new},
                news=[_Telling("replaced", (old, new))],
            )

    async def pause(
        self, tournament_id: str, by: int, paused: bool, *, staff: bool = False
    ) -> None:
        """No round starts while paused (the tables under way play on), and the round's
        show-up deadline waits: resumed, it is as far off as it was at the pause, so
        nobody forfeits a table while the organiser held the round. An organiser's
        (:meth:`Tournament.check_manager`)."""
        async with self._lock:
            tournament = self.get(tournament_id)
            tournament.check_manager(by, staff)
            if (tournament.phase is Phase.PAUSED) == paused:
                raise TournamentRefused("already")
            # Resumed before its first round, it is open for sign-up again, and starts
            # at its start time (at once, if that passed while it was paused): also when
            # it was paused once started and before that round was paired (the start
            # had cleared its due, and nothing would have started it again).
            resumed = Phase.RUNNING if tournament.round else Phase.SIGNUP
            phase = Phase.PAUSED if paused else resumed
            now = self.clock()
            due = tournament.settings.start_at if phase is Phase.SIGNUP else tournament.due
            if phase is Phase.RUNNING and due is not None and tournament.paused_at is not None:
                due += max(0.0, now - tournament.paused_at)
            await self._save(
                replace(tournament, phase=phase, due=due, paused_at=now if paused else None),
                {"kind": "pause" if paused else "resume", "by": by},
                news=[_Telling("paused" if paused else "resumed")],
            )
        if phase is Phase.RUNNING:
            # A round paused for a table whose place was refused is opened now. The
            # resume stands even if the store fails what follows it: that is taken up
            # again later (:meth:`_save`), and the organiser is not told it failed.
            with contextlib.suppress(NotSaved):
                await self._open_missing(tournament_id)
                await self._advance(tournament_id)

    async def cancel(self, tournament_id: str, by: int, *, staff: bool = False) -> None:
        """An organiser ends the tournament where it stands (:meth:`Tournament.check_manager`)."""
        async with self._lock:
            tournament = self.get(tournament_id)
            tournament.check_manager(by, staff)
            cancelled = await self._save(
                replace(tournament, phase=Phase.CANCELLED, due=None),
                {"kind": "cancel", "by": by},
                news=[_Telling("cancelled")],
            )
        # Its round's tables, and any opened whose storing failed (a stray: no retry
        # takes one up now), else left waiting until the next start.
        strays = [table.id for table in self._strays(cancelled)]
        round_tables = [d.table_id or "" for d in cancelled.tables_of(cancelled.round)]
        await self._close_waiting([*round_tables, *strays])

    async def _close_waiting(self, table_ids: Iterable[str]) -> None:
        """Close those of a tournament's tables still waiting for their players (their
        host, the organiser, cancels them) once it has ended: only the tournament starts
        them and no drawn player may leave one, so they would wait for good, and
        whoever sat down could sit nowhere else in the server. Games under way play
        on. A cancel the store fails is tried again on the backoff (:attr:`_unclosed`),
        not left to the next start."""
        for table_id in table_ids:
            table = self.tables.find(table_id)
            try:
                if table is not None and table.status is Status.LOBBY:
                    await self.tables.act(table.id, Cancel(table.host_id))
            except NotSaved:  # the store failed it: tried again on the backoff
                _later(self._unclosed, table_id, self.clock())
                self._wake.set()
                continue
            except Refusal:  # it started or closed meanwhile
                pass
            self._unclosed.pop(table_id, None)

    async def adjust(
        self, tournament_id: str, result: Result, reason: str, *, by: int, staff: bool = False
    ) -> None:
        """An organiser (:meth:`Tournament.check_manager`) changes a table's result, for
        ``reason`` (kept in the log)."""
        async with self._lock:
            tournament = self.get(tournament_id)
            tournament.check_manager(by, staff)
            adjustment = Adjustment(result, reason)
            try:
                record = adjusted(tournament.record, adjustment)
            except TournamentError as error:
                raise TournamentRefused(type(error).__name__) from error
            if tournament.settings.format is Format.KNOCKOUT and not _still_drawn(
                tournament, record
            ):
                raise TournamentRefused("plays-on")
            await self._save(
                replace(tournament, record=record),
                {
                    "kind": "adjust",
                    "by": by,
                    "round": result.round,
                    "table": result.table,
                    "reason": reason,
                },
                news=[_Telling("adjusted", (by,), adjustment)],
            )

    # -- deadlines --

    async def _tick(self) -> None:
        """Wake at the nearest deadline of any open tournament (stored, so a restart
        keeps them), or when one changes."""
        while True:
            self._wake.clear()
            due = self.next_due()
            wait = None if due is None else max(0.0, due - self.clock())
            # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a cancellation
            # that comes as the event is set, and the service would never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()
            try:
                await self.run_due()
            except Exception:  # a bug must not end every tournament's deadlines for good
                log.exception("the tournaments' deadlines failed; going on")

    def next_due(self) -> float | None:
        """When the deadline loop acts next, if anything is due: the nearest deadline of
        the open tournaments that are not paused, the next take-up of a running one
        with something left undone, or of one whose last write's answer was lost
        (:attr:`_retries`), or the next try of the news marks the store failed. A
        paused one's waits for its resume (which wakes the loop): counted, a due that
        passed meanwhile would wake the loop again and again for nothing."""
        dues = [
            max(t.due, self._held(t.id) or t.due)
            for t in self.open.values()
            if t.due is not None and t.phase is not Phase.PAUSED
        ]
        dues += [at for tournament_id, (at, _) in self._retries.items()
                 if self._to_take_up(tournament_id)]  # fmt: skip
        dues += [at for at, _ in self._unclosed.values()]
        dues += [at for at, _ in self._creations.values()]
        if self.marks.due is not None:
            dues.append(self.marks.due)
        return min(dues, default=None)

    def _held(self, tournament_id: str) -> float | None:
        """Until when the tournament's due waits, if it does: while something of it that
        failed waits for its backoff (:attr:`_retries`)."""
        retry = self._retries.get(tournament_id)
        return retry[0] if retry is not None and retry[0] > self.clock() else None

    def _running(self, tournament_id: str) -> bool:
        tournament = self.open.get(tournament_id)
        return tournament is not None and tournament.phase is Phase.RUNNING

    def _to_take_up(self, tournament_id: str) -> bool:
        """Whether the tournament's entry in :attr:`_retries` is taken up when due: a
        running one's, or one whose last write may be stored (in any phase)."""
        return self._running(tournament_id) or tournament_id in self._unsure

    async def run_due(self) -> None:
        """Do what is due now: ask whether a creation whose answer was lost was stored
        (:meth:`_created_after_all`), take up again what a tournament left undone, or a
        write whose answer was lost (:meth:`_take_up`: first, so what is due next is
        done on the tournament as stored), start a tournament, close a round's
        sign-in, close an ended one's table whose cancel the store failed
        (:meth:`_close_waiting`), or write again the news marks the store failed. What
        was due and failed stays due, and waits for the backoff (:meth:`_held`), as
        what was left undone does: else the loop, finding it due at once, would try it
        again and again."""
        now = self.clock()
        for tournament_id in [t for t, (at, _) in self._creations.items() if at <= now]:
            try:
                await self._created_after_all(tournament_id)
            except NotSaved as error:
                log.warning("tournament %s: its creation not known yet (%s)", tournament_id,
                            error.fault)  # fmt: skip
        for tournament_id, retry in list(self._retries.items()):
            if tournament_id not in self.open:
                del self._retries[tournament_id]
            elif retry[0] <= now and self._to_take_up(tournament_id):
                await self._take_up(tournament_id, retry)
        for tournament in list(self.open.values()):
            if tournament.due is None or tournament.due > now or self._held(tournament.id):
                continue
            before = self._retries.get(tournament.id)
            try:
                if tournament.phase is Phase.SIGNUP:
                    await self._start(tournament.id)
                elif tournament.phase is Phase.RUNNING:
                    await self._show_up_deadline(tournament.id)
                continue
            except (Refusal, StoreError) as error:
                log.warning("tournament %s: %s", tournament.id, error)
            except Exception:  # a bug of one tournament's must not end every deadline
                log.exception("tournament %s: what was due failed", tournament.id)
            if self._retries.get(tournament.id) == before:  # not counted by the failure
                self._retry_later(tournament.id)
        unclosed = [table_id for table_id, (at, _) in self._unclosed.items() if at <= now]
        if unclosed:
            await self._close_waiting(unclosed)
        await self.marks.run_due()

    async def _take_up(self, tournament_id: str, retry: tuple[float, float]) -> None:
        """Take up again what a tournament left undone (``retry``, its entry in
        :attr:`_retries`): what the store kept of a write whose answer was lost
        (:meth:`_settle`), then, running, the rest as a restart would
        (:meth:`_catch_up`): done, the entry goes; failed again, it waits twice as
        long."""
        try:
            if tournament_id in self._unsure:
                async with self._lock:
                    await self._settle(tournament_id)
            if self._running(tournament_id):
                await self._catch_up(self.get(tournament_id))
        except (Refusal, StoreError) as error:
            log.warning("tournament %s: %s", tournament_id, error)
        except Exception:  # a bug of one tournament's must not end every deadline
            log.exception("tournament %s: taking it up again failed", tournament_id)
        else:
            if self._retries.get(tournament_id) == retry:  # nothing failed anew
                del self._retries[tournament_id]
            return
        if self._retries.get(tournament_id) == retry:  # not counted by the failure itself
            self._retry_later(tournament_id)

    def _due(self, tournament_id: str, phase: Phase) -> bool:
        """Whether what :meth:`run_due` found due is due still, the tournament in
        ``phase``: an organiser's pause (or cancel) stored while it waited for the lock,
        or between two tables, holds, and a resume's later start waits for its time."""
        tournament = self.open.get(tournament_id)
        return (
            tournament is not None
            and tournament.phase is phase
            and tournament.due is not None
            and tournament.due <= self.clock()
        )

    async def _start(self, tournament_id: str) -> None:
        async with self._lock:
            if not self._due(tournament_id, Phase.SIGNUP):
                return
            tournament = self.get(tournament_id)
            entrants = tournament.entrants
            if len(entrants) < tournament.settings.least_entrants:
                await self._save(
                    replace(tournament, phase=Phase.CANCELLED, due=None),
                    {"kind": "too-few", "entrants": len(entrants)},
                    news=[_Telling("too-few")],
                )
                return
            halves = tuple(
                pair.id for pair in tournament.pairs
                if not tournament.pair_out(pair) and not tournament.pair_checked_in(pair)
            )  # fmt: skip
            await self._save(
                replace(tournament, phase=Phase.RUNNING, due=None),
                {"kind": "start"},
                # a pair plays only if both checked in
                news=[_Telling("not-both-checked-in", halves)] if halves else [],
            )
        await self._advance(tournament_id)

    async def _show_up_deadline(self, tournament_id: str) -> None:
        """The round's players had their time: a computer stands in for each who has not
        sat down (they forfeit that table), and every table is started. A stand-in or a
        start the store fails is refused (:class:`NotSaved`), once every other table is
        seen to, and the deadline kept: the loop runs it again after its backoff
        (:meth:`run_due`). A table is never started short of a player whose stand-in
        failed: a game of fewer than were drawn has a result no drawn table can hold,
        and one of a single player cannot start, left in its lobby for good.

        Under the service's lock from the check that it is due to the last table: an
        organiser's pause stored first holds (nobody forfeits for it), one asked for
        meanwhile comes after the deadline, and no round is paired in between."""
        async with self._lock:
            if not self._due(tournament_id, Phase.RUNNING):
                return
            tournament = self.get(tournament_id)
            failed: NotSaved | None = None
            for drawn in tournament.tables_of(tournament.round):
                try:
                    await self._see_to(tournament_id, drawn)
                except NotSaved as error:
                    failed = error
            if failed is not None:
                raise failed
            await self._save(replace(self.get(tournament_id), due=None), {"kind": "deadline"})

    async def _see_to(self, tournament_id: str, drawn: Drawn) -> None:
        """One table at the show-up deadline (:meth:`_show_up_deadline`, under the lock):
        its stand-ins, its absentees, its start; NotSaved, once all are tried, if the
        store failed one."""
        table = None if drawn.table_id is None else self.tables.find(drawn.table_id)
        if table is None:
            return
        failed: NotSaved | None = None
        for user_id in table.invited if table.status is Status.LOBBY else ():
            try:
                await self.tables.act(table.id, StandIn(user_id, STAND_IN_LEVEL))
            except NotSaved as error:
                failed = error
            except Refusal:  # they sat down meanwhile
                pass
        # Absent: whoever of the table's players is not seated now, the computer in their
        # seat (also when it sat before a restart, or before a failed save of this, and the
        # table started once its seats were full: a table under way is looked at too); not
        # one still awaited, whose stand-in failed: they may sit down yet.
        now = self.tables.find(table.id)
        seated = {seat.user_id for seat in now.seats} if now is not None else set()
        awaited = set(now.invited) if now is not None else set()
        absent = tuple(
            u for u in drawn.seats if u not in seated | awaited and u not in drawn.absent
        )
        if absent:
            tournament = self.get(tournament_id)
            drawn_now = tuple(
                replace(d, absent=(*d.absent, *absent)) if d == drawn else d
                for d in tournament.drawn
            )
            await self._save(
                replace(tournament, drawn=drawn_now),
                {"kind": "absent", "players": list(absent)},
                news=[_Telling("absent", absent)],
            )
        if not awaited and table.status is Status.LOBBY:
            try:
                await self.tables.act(table.id, Start(self.get(tournament_id).organiser_id))
            except NotSaved as error:
                failed = error
            except Refusal:  # started, or closed, meanwhile: nothing to do
                pass
        if failed is not None:
            raise failed

    # -- rounds --

    async def _advance(self, tournament_id: str) -> None:
        """If the round is over (or none has begun), pair and open the next, or finish."""
        async with self._lock:
            tournament = self.get(tournament_id)
            if tournament.phase is not Phase.RUNNING:
                return
            current = tournament.tables_of(tournament.round)
            if any(tournament.result_of(d.round, d.position) is None for d in current):
                return
            pairings = self._pair(tournament)
            if pairings is None:
                await self._save(
                    replace(tournament, phase=Phase.FINISHED, due=None),
                    {"kind": "finish"},
                    news=[_Telling("finished")],
                )
                return
            number = tournament.round + 1
            drawn = tuple(
                Drawn(number, position, tournament.seats_of(table), table.sides)
                for position, table in _positioned(pairings)
            )
            tournament = replace(
                tournament,
                round=number,
                drawn=(*tournament.drawn, *drawn),
                record=(*tournament.record, *pairings.byes),
                due=None if drawn else self._show_up_due(tournament),
            )
            # The round is told, and its show-up deadline counted, once its tables are
            # open (:meth:`_store_opened`); a round with none to open, at once.
            await self._save(
                tournament,
                {"kind": "round", "round": number},
                news=[] if drawn else [_Telling("round")],
            )
        await self._open_missing(tournament_id)

    async def _open_missing(self, tournament_id: str) -> None:
        """Open the current round's tables that have none yet and store which they are:
        once the round is paired, after a restart (which may come between storing the
        round and storing its tables), when a place that failed for now is tried again
        (:data:`PLACE_RETRY_SECONDS`), and at a resume. A table opened before its id
        could be stored (one of :meth:`_strays`) is taken up again by its players, not
        opened twice. A place that fails for now is tried again later, the tables that
        opened stored meanwhile; one refused for good pauses the tournament
        (:meth:`_store_opened`)."""
        tournament = self.get(tournament_id)
        missing = [d for d in tournament.tables_of(tournament.round) if d.table_id is None]
        if tournament.phase is not Phase.RUNNING or tournament_id in self._opening:
            return
        if not missing:
            return
        self._opening.add(tournament_id)
        strays = self._strays(tournament)
        adopted: list[str] = []
        opened: list[Drawn] = []
        refused: NoPlace | None = None
        failed = False
        try:
            for drawn in missing:
                if tournament_id not in self.open:  # cancelled meanwhile
                    break
                players = set(drawn.seats)
                stray = next((t for t in strays if _players_of(t) == players), None)
                if stray is not None:  # opened after all: its place is its own now
                    strays.remove(stray)
                    self._places.pop((tournament_id, drawn.round, drawn.position), None)
                    opened.append(replace(drawn, table_id=stray.id))
                    adopted.append(stray.id)
                    continue
                try:
                    opened.append(await self._open(tournament_id, drawn))
                except NoPlace as error:
                    if error.for_good:  # the channel's: every other table's would be too
                        refused = error
                        break
                    failed = True
                    log.info("tournament %s: no place for table %d of round %d yet (%s)",
                             tournament_id, drawn.position + 1, drawn.round, error.why)  # fmt: skip
                except (Refusal, StoreError) as error:
                    failed = True
                    log.warning("tournament %s: table %d of round %d not opened (%s)",
                                tournament_id, drawn.position + 1, drawn.round, error)  # fmt: skip
                except Exception:  # logged; tried again, as the rest of the round waits
                    failed = True
                    log.exception("tournament %s: opening table %d of round %d failed",
                                  tournament_id, drawn.position + 1, drawn.round)  # fmt: skip
        finally:
            self._opening.discard(tournament_id)
            if failed and refused is None:
                self._retry_later(tournament_id)
            if opened or refused is not None:
                await self._store_opened(tournament_id, opened, refused)
        for table_id in adopted:  # stored now: those whose players all sat meanwhile begin
            table = self.tables.find(table_id)
            if table is not None and table.status is Status.LOBBY and not table.invited:
                await self._begin(tournament_id, table_id)

    def _retry_later(self, tournament_id: str) -> None:
        """A place failed for now, or the store a change: when to take the tournament
        up again (after :data:`PLACE_RETRY_SECONDS`, then twice as long each time, up to
        :data:`PLACE_RETRY_AT_MOST`; :meth:`_take_up` forgets the wait once it is done),
        the deadline loop woken to count it."""
        _later(self._retries, tournament_id, self.clock())
        self._wake.set()

    def _strays(self, tournament: Tournament) -> list[TableSnapshot]:
        """The open tables opened for ``tournament`` whose ids it has not stored: only a
        stop, or a store that failed, between opening a round's tables and storing them
        leaves any (every open table is read, as a round's tables are opened)."""
        known = {d.table_id for d in tournament.drawn}
        return [
            table
            for table in map(self.tables.find, list(self.tables.tables))
            if table is not None and table.tournament == tournament.id and table.id not in known
        ]

    async def _store_opened(
        self, tournament_id: str, opened: Sequence[Drawn], refused: NoPlace | None = None
    ) -> None:
        """Store the tables ``opened`` for the current round's drawn tables. Once every
        table of the round is open, with its news, the round (its pairings, each table
        with its thread, its players pinged), and its show-up deadline, counted from
        now: its players can join no sooner. A place ``refused`` for good before that
        pauses the tournament, its organiser told (``unopened``): their resume opens
        what is missing, or they cancel. Those opened for a tournament cancelled
        meanwhile are closed, as its other tables were (:meth:`cancel`)."""
        async with self._lock:
            tournament = self.open.get(tournament_id)
            if tournament is not None:
                await self._store_round_opened(tournament, opened, refused)
        if tournament is None:  # cancelled while they opened: closed with it
            await self._close_waiting(o.table_id or "" for o in opened)

    async def _store_round_opened(
        self, tournament: Tournament, opened: Sequence[Drawn], refused: NoPlace | None
    ) -> None:
        """:meth:`_store_opened`'s change, under the lock."""
        by_place = {(o.round, o.position): o for o in opened}
        tournament = replace(
            tournament,
            drawn=tuple(by_place.get((d.round, d.position), d) for d in tournament.drawn),
        )
        action: dict[str, object] = {"kind": "tables", "round": tournament.round}
        news: list[_Telling] = []
        if all(d.table_id for d in tournament.tables_of(tournament.round)):
            tournament = replace(tournament, due=self._show_up_due(tournament))
            if tournament.paused_at is not None:  # its clock starts at the resume
                tournament = replace(tournament, paused_at=self.clock())
            news.append(_Telling("round"))
        elif refused is not None and tournament.phase is Phase.RUNNING:
            tournament = replace(tournament, phase=Phase.PAUSED)
            action["paused"] = refused.why
            news.append(_Telling("unopened", (tournament.organiser_id,)))
        await self._save(
            tournament,
            action,
            tables=[(o.table_id or "", o.round, o.position) for o in opened if o.table_id],
            news=news,
        )

    def _show_up_due(self, tournament: Tournament) -> float:
        """The round's show-up deadline, if its players are told of it now."""
        return self.clock() + 60.0 * tournament.settings.show_up_minutes

    def _pair(self, tournament: Tournament) -> Pairings | None:
        """The next round's pairings, or None when the tournament is over."""
        settings = tournament.settings
        entrants = tournament.entrants
        number = tournament.round + 1
        try:
            if settings.format is Format.SWISS:
                # Too few left for a table (four, with drawn partners): a round of byes
                # alone would have no table whose end closes it.
                if number > (settings.rounds or 0) or len(entrants) < settings.least_entrants:
                    return None
                return swiss(entrants, tournament.record, settings.seating, number)
            if settings.format is Format.ROUND_ROBIN:
                schedule = round_robin(tournament.starters, settings.seating)
                return schedule[number - 1] if number <= len(schedule) else None
            return self._knockout_round(tournament, number)
        except TooFewEntrants:
            return None

    def _knockout_round(self, tournament: Tournament, number: int) -> Pairings | None:
        """The round's matches that are to be played (every seat known; a walkover
        decides itself), each at the position the bracket gives it in its round, which
        is how its result names it."""
        bracket = brackets.knockout(tournament.starters, tournament.settings.seating)
        results = [r for r in tournament.record if isinstance(r, Result)]
        progress = brackets.progress(bracket, results)
        if progress.champion is not None or number > len(bracket.rounds):
            return None
        ready = {m.table: m for m in progress.ready(bracket) if m.round == number}
        return _Knockout(
            number,
            tuple(
                Table(tuple((e,) for e in progress.seated[m.number] if e is not None))
                for m in ready.values()
            ),
            (),
            tuple(ready),
        )

    async def _open(self, tournament_id: str, drawn: Drawn) -> Drawn:
        """Open one table of the round, in a place of its own, its seats kept for its
        players (they sit down by joining it). The place is made once: one made on an
        earlier try, whose table the store failed to keep, is used again."""
        tournament = self.get(tournament_id)
        settings = tournament.settings
        made = (tournament_id, drawn.round, drawn.position)
        channel = self._places.get(made)
        if channel is None:
            channel = self._places[made] = await self.herald.place_for(tournament, drawn)
        organiser = tournament.player(tournament.organiser_id)  # their name, if entered
        table = await self.tables.open_table(
            NewTable(
                tournament.guild_id,
                channel,
                tournament.organiser_id,
                organiser.name if organiser is not None else "",
                settings.game,
                target=settings.target,
            ),
            drawn=TournamentSeats(
                tournament.id,
                drawn.seats,
                rated=settings.rated,
                names=tuple((player, tournament.name_of(player)) for player in drawn.seats),
            ),
        )
        self._places.pop(made, None)  # its tournament may have ended meanwhile
        return replace(drawn, table_id=table.id)

    # -- what the tables say --

    async def _listen(self) -> None:
        while True:
            table, events = await self._work.get()
            try:
                await self._heard(table, events)
            except (Refusal, StoreError, VersionConflict) as error:
                log.warning("tournament table %s: %s", table.id, error)
            except Exception:  # nor every tournament's hearing of its tables
                log.exception("tournament table %s: what it said failed", table.id)
            finally:
                self._work.task_done()

    async def settled(self) -> None:
        """Until every table action heard so far has been dealt with (what each caused:
        a start, a result, the next round)."""
        await self._work.join()

    async def _heard(self, table: TableSnapshot, events: list[Event]) -> None:
        tournament_id = table.tournament
        if tournament_id is None or tournament_id not in self.open:
            return
        if table.status is Status.LOBBY and any(isinstance(e, Joined) for e in events):
            if not table.invited:  # everyone is here: the game begins
                await self._begin(tournament_id, table.id)
            return
        over = next((e for e in events if isinstance(e, GameOver)), None)
        if over is not None and over.outcome is not None:
            await self._record(tournament_id, table.id, over.outcome.scores)
        elif any(isinstance(e, Cancelled) for e in events):
            await self._record(tournament_id, table.id, None)

    async def _begin(self, tournament_id: str, table_id: str) -> None:
        """Start a round's table whose players all sat down, if its tournament has stored
        it: one it has not (a stray: the store failed to keep the round's tables) waits
        until :meth:`_open_missing` takes it up, else its game's end would be no drawn
        table's, lost, and the table opened again for the same players."""
        tournament = self.open.get(tournament_id)
        if tournament is None or all(d.table_id != table_id for d in tournament.drawn):
            return
        with contextlib.suppress(Refusal):  # started, or closed, meanwhile
            await self.tables.act(table_id, Start(tournament.organiser_id))

    async def _record(
        self, tournament_id: str, table_id: str, scores: Sequence[int] | None
    ) -> None:
        """A table's end as the core counts it: each side's game points and place; a side
        whose player (or one of whose pair) never came is placed last, whatever the
        computer scored. A table cancelled before its game ended (``scores`` None) is a
        tie with no points, the absent still last: its round can end, and the organiser
        adjusts the result if someone should have won it."""
        async with self._lock:
            tournament = self.get(tournament_id)
            drawn = next((d for d in tournament.drawn if d.table_id == table_id), None)
            if drawn is None or tournament.result_of(drawn.round, drawn.position) is not None:
                return
            sides = drawn.sides
            variant = find_variant(tournament.settings.game)
            points = [0] * len(sides)
            for side_index, seats in enumerate(variant.sides_of(len(drawn.seats))):
                points[drawn.side_of(seats[0])] = 0 if scores is None else scores[side_index]
            forfeited = [False] * len(sides)
            for seat, user in enumerate(drawn.seats):
                if user in drawn.absent:
                    forfeited[drawn.side_of(seat)] = True
            order = sorted(range(len(sides)), key=lambda i: (forfeited[i], -points[i]))
            places = [0] * len(sides)
            for rank, index in enumerate(order, start=1):
                previous = order[rank - 2] if rank > 1 else None
                same = previous is not None and (forfeited[previous], points[previous]) == (
                    forfeited[index],
                    points[index],
                )
                places[index] = places[previous] if same and previous is not None else rank
            result = Result(drawn.round, drawn.position, sides, tuple(places), tuple(points))
            recorded = replace(tournament, record=(*tournament.record, result))
            # The round's last table ends it: its standings are told as they stand now,
            # before the next round's byes join the record.
            over = all(
                recorded.result_of(d.round, d.position) for d in recorded.tables_of(drawn.round)
            )
            await self._save(
                recorded,
                {"kind": "result", "round": drawn.round, "table": drawn.position},
                news=[_Telling("result"), *([_Telling("round-over")] if over else [])],
            )
        await self._advance(tournament_id)

    async def _catch_up(self, tournament: Tournament) -> None:
        """After a restart: a round's table that ended while the bot was down (its game
        is stored, the tournament did not hear it) is recorded now; one cancelled then,
        or no longer stored with no game, is a tie (:meth:`_record`). Tables of the round
        not yet opened are opened (:meth:`_open_missing`)."""
        if tournament.phase is Phase.RUNNING and tournament.round:
            await self._open_missing(tournament.id)
            tournament = self.get(tournament.id)
        for drawn in tournament.tables_of(tournament.round):
            if drawn.table_id is None or tournament.result_of(drawn.round, drawn.position):
                continue
            if self.tables.find(drawn.table_id) is not None:
                continue
            game = await self.store.game_of_table(drawn.table_id)
            if game is None:
                row = await self.store.get_table(drawn.table_id)
                if row is None or row.status == Status.CANCELLED:  # a tie, as when heard
                    await self._record(tournament.id, drawn.table_id, None)
                continue
            outcome = Match.from_record(game.record).outcome()
            if outcome is not None:
                await self._record(tournament.id, drawn.table_id, outcome.scores)
        if tournament.id in self.open:  # a last result recorded may have finished it
            await self._advance(tournament.id)

    # -- storing --

    def _row(self, tournament: Tournament) -> TournamentRow:
        now = self.clock()
        return TournamentRow(
            id=tournament.id,
            guild_id=tournament.guild_id,
            channel_id=tournament.channel_id,
            status=tournament.phase.value,
            version=tournament.version,
            state=tournament.to_dict(),
            due=tournament.due,
            created_at=now,
            updated_at=now,
        )

    async def _save(
        self,
        tournament: Tournament,
        action: dict[str, object],
        tables: Sequence[tuple[str, int, int]] = (),
        *,
        news: Sequence[_Telling] = (),
    ) -> Tournament:
        """Store the tournament's next version (under the lock) with the ``news`` it
        tells, then keep it and tell the herald that news; returns it as stored (a closed
        one is no longer kept: the herald is told this one). A write the store fails is
        refused as :class:`NotSaved`, as a table's is; one refused on its version is
        refused as ``moved-on``, memory having taken up the store's (:meth:`_settle`)."""
        before = tournament.version
        changed = replace(tournament, version=before + 1)
        try:
            await self.store.save_tournament(
                self._row(changed), before, action, tables, _stored(*news)
            )
        except VersionConflict:
            await self._behind(tournament.id)
            raise TournamentRefused("moved-on") from None
        except StoreError as error:
            # Refused as not saved. A change the service makes of itself (a table's
            # result, the next round, its tables stored) would wait for a restart's
            # catch-up, the tournament stuck meanwhile: one started is taken up again on
            # the backoff instead (:meth:`_take_up`; once resumed, if paused: a table's
            # end comes while it is). An answer lost may hide a write kept: the store
            # is asked again then, in any phase (:meth:`_settle`).
            kept = self.open.get(tournament.id)
            unsure = error.fault == UNANSWERED and kept is not None
            if unsure:
                self._unsure.add(tournament.id)
            if unsure or (kept is not None and kept.phase in (Phase.RUNNING, Phase.PAUSED)):
                self._retry_later(tournament.id)
            raise NotSaved(error.fault) from error
        self._keep(changed)
        self._tell(changed, news)
        return changed

    async def _behind(self, tournament_id: str) -> None:
        """Memory is behind the store (a write was refused on its version): a write of
        this tournament was kept though its answer was lost. Memory takes the store's
        up, its news told (:meth:`_settle`); then, running, what the kept change would
        have gone on to do (pair a round, open its tables) is taken up by the deadline
        loop on its backoff (:meth:`_take_up`), if it is not already. Under the lock;
        a store that does not answer now is asked again later."""
        try:
            stored = await self._settle(tournament_id)
        except StoreError as error:
            log.warning("tournament %s: the store cannot be read (%s)", tournament_id, error.fault)
            self._unsure.add(tournament_id)
            stored = self.open.get(tournament_id)
        if stored is None or tournament_id in self._retries:
            return
        if tournament_id in self._unsure or stored.phase is not Phase.SIGNUP:
            self._retry_later(tournament_id)

    async def _untold(self, tournament: Tournament, after: int) -> list[NewsRow]:
        """The news the store holds of ``tournament``'s versions after ``after`` that was
        not posted: what a change kept though its answer was lost (or its creation,
        ``after`` 0) had to tell."""
        return [
            news
            for news in await self.store.unposted_news(lambda guild: guild == tournament.guild_id)
            if news.tournament_id == tournament.id and news.version > after
        ]

    async def _settle(self, tournament_id: str) -> Tournament | None:
        """Take up the tournament as the store holds it, if it is newer than memory: a
        write whose answer was lost may have been kept. Memory takes the stored row, as
        a start does (:meth:`resume`); the herald is told the news stored with the
        versions it was not told, in order (with the tournament as it stood at each);
        one ended so has its round's tables still waiting closed (as :meth:`cancel`
        closes them). Returns the tournament as memory now holds it (None if no longer
        open); StoreError if the store does not answer (memory unchanged). Under the
        lock."""
        kept = self.open.get(tournament_id)
        row = await self.store.get_tournament(tournament_id)
        if kept is None or row is None or row.version <= kept.version:
            self._unsure.discard(tournament_id)
            return kept
        unposted = await self._untold(kept, kept.version)
        self._unsure.discard(tournament_id)
        try:
            stored = Tournament.from_dict(row.state)
        except (KeyError, TypeError, ValueError) as error:
            log.error("tournament %s cannot be read back (%s)", tournament_id, error)
            return kept
        log.info("tournament %s: version %d, stored though its answer was lost, taken up",
                 tournament_id, stored.version)  # fmt: skip
        self._keep(stored)
        await self._retell(unposted)
        if stored.phase in OPEN_PHASES:
            return stored
        round_tables = [d.table_id or "" for d in stored.tables_of(stored.round)]
        await self._close_waiting([*round_tables, *(t.id for t in self._strays(stored))])
        return None

    def _tell(self, tournament: Tournament, news: Sequence[_Telling]) -> None:
        """Tell the herald the ``news`` just stored with ``tournament``'s version (under
        the lock, so each tournament's news reaches it in the order stored). A herald
        that fails is logged: the change stands, and its news waits for the next start."""
        if not news:
            return
        pieces = [News(tournament.id, tournament.version, ordinal, *told)
                  for ordinal, told in enumerate(news)]  # fmt: skip
        try:
            self.herald.told(tournament, pieces, self.news_done)
        except Exception:  # stored: the next start tells it again
            log.exception("tournament %s: the herald was not told %s", tournament.id,
                          [piece.what for piece in pieces])  # fmt: skip


def _later(waits: dict[str, tuple[float, float]], key: str, now: float) -> None:
    """Count ``key``'s next try in ``waits`` from ``now``: after
    :data:`PLACE_RETRY_SECONDS`, then twice as long each time, up to
    :data:`PLACE_RETRY_AT_MOST`."""
    last = waits.get(key)
    wait = PLACE_RETRY_SECONDS if last is None else min(last[1] * 2, PLACE_RETRY_AT_MOST)
    waits[key] = (now + wait, wait)


def _stored(*news: _Telling) -> list[Told]:
    """News as the store keeps it."""
    return [
        Told(what, about, None if adjustment is None else adjustment_to_json(adjustment))
        for what, about, adjustment in news
    ]


def _news_named(row: NewsRow) -> News:
    """Stored news by its name alone (what a mark needs), its contents unread."""
    return News(row.tournament_id, row.version, row.ordinal, row.told.what)


def _news(row: NewsRow) -> News:
    """Stored news as the herald is told it (KeyError, TypeError or ValueError if whom it
    is about or its adjustment does not read back)."""
    if not row.readable:
        raise ValueError("whom it is about, or its adjustment, does not read back")
    told = row.told
    adjustment = None if told.adjustment is None else adjustment_from_json(told.adjustment)
    return replace(_news_named(row), about=told.about, adjustment=adjustment)


def _players_of(table: TableSnapshot) -> set[int]:
    """The members a tournament's table is kept for: those seated, and those awaited."""
    seated = {seat.user_id for seat in table.seats if seat.user_id is not None}
    return seated | set(table.invited)


def _check_target(settings: Settings) -> None:
    """Refuses a target the game does not allow (as a table's own is refused): every
    table of the tournament is opened with it, so one not allowed would be found only at
    the start, each table refused and the tournament left with no round."""
    try:
        variant = find_variant(settings.game)
        Options.for_game(variant, max(variant.player_counts), target=settings.target)
    except EngineError as error:
        raise OptionsRefused(error) from None


def _drawn_once(tournament: Tournament) -> bool:
    """Whether the tournament's draw is made, once and for good: a knockout's bracket or
    a round robin's schedule, from its starters, once it started (paused before its first
    round, it is open for sign-up again when resumed, and draws at its start)."""
    return tournament.started and tournament.settings.format is not Format.SWISS


def _still_drawn(tournament: Tournament, record: Sequence[Result | Bye]) -> bool:
    """Whether a knockout's ``record`` sends on whom its tables drawn so far seat: a
    changed result whose winner already plays on would leave a later table seating one
    the bracket no longer sends there, whose result the bracket would then refuse."""
    bracket = brackets.knockout(tournament.starters, tournament.settings.seating)
    try:
        reached = brackets.progress(bracket, [r for r in record if isinstance(r, Result)])
    except TournamentError:
        return False
    numbers = {(match.round, match.table): match.number for match in bracket.matches}
    return all(
        set(reached.seated[numbers[drawn.round, drawn.position]])
        == {entrant for side in drawn.sides for entrant in side}
        for drawn in tournament.drawn
    )


@dataclass(frozen=True, slots=True)
class _Knockout(Pairings):
    """A knockout round's tables to play, with each one's position in the bracket's
    round (walkovers take positions too, and are not played)."""

    positions: tuple[int, ...] = ()


def _positioned(pairings: Pairings) -> list[tuple[int, Table]]:
    """Each table of a round with the position its result is recorded under."""
    if isinstance(pairings, _Knockout):
        return list(zip(pairings.positions, pairings.tables, strict=True))
    return list(enumerate(pairings.tables))


def _check_choosing(tournament: Tournament, user_id: int) -> None:
    """Whether the member may choose a partner at all: during sign-up, by pairs, while
    in no pair."""
    if tournament.phase is not Phase.SIGNUP:
        raise TournamentRefused("started" if tournament.started else "paused")
    if not tournament.settings.pairs:
        raise TournamentRefused("partners")
    if tournament.pair_of(user_id) is not None:
        raise TournamentRefused("signed-up")


def _without(
    tournament: Tournament, user_id: int, *, dropped: bool
) -> tuple[Tournament, tuple[int, ...]]:
    """The tournament once the member leaves (``dropped`` by an organiser, else they
    withdrew: kept, as the standings say it), and whom the face is told of: the member,
    then, by pairs, their pair's two in order. A member's withdrawal takes their pair
    out: both members are out (their partner may sign up anew while sign-up is open),
    and whom they had chosen waits for nobody. Before the start (paused before it too)
    whoever leaves has played nothing: their check-in goes with them, so the draw made
    at the start leaves them out, and a pair is no more."""
    before_start = not tournament.started

    def leaving(player: Player, dropped: bool = False) -> Player:
        checked_in = player.checked_in and not before_start
        return replace(player, out=True, dropped=dropped, checked_in=checked_in)

    out = tuple(leaving(p, dropped) if p.user_id == user_id else p for p in tournament.players)
    asked = tuple(a for a in tournament.asked if a[0] != user_id)
    pair = tournament.pair_of(user_id)
    if pair is None:
        return replace(tournament, players=out, asked=asked), (user_id,)
    partner = next(m for m in pair.members if m != user_id)
    out = tuple(leaving(p) if p.user_id == partner else p for p in out)
    pairs = tournament.pairs
    if before_start:
        pairs = tuple(p for p in pairs if p != pair)
    return replace(tournament, players=out, asked=asked, pairs=pairs), (user_id, *pair.members)
