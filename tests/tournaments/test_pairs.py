"""Milo by pairs (issue 34: "sign up as a pair"): a member chooses a partner and the pair
is entered once the partner chooses them back; every refusal leaves the stored
tournament as it was; the stored form keeps pairs and pending choices (and reads a
tournament stored before pairs as drawing its partners); a pair plays only if both
checked in, sits across, is seeded by its members' mean rating, forfeits with an
absentee, leaves with either member and keeps its id when a member is replaced."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.commands import Join
from bot.engine import find_variant
from bot.refusals import TournamentRefused
from bot.tournaments.model import (
    PAIR_IDS_BELOW,
    Drawn,
    Format,
    Pair,
    Phase,
    Player,
    Settings,
    Tournament,
)
from bot.tournaments.results import Result
from bot.tournaments.service import TournamentService
from data.repository import Repository
from tests.tables.helpers import Clock
from tests.tournaments.test_service import (
    CHANNEL,
    GUILD,
    ORGANISER,
    Venue,
    play_out,
    play_round,
    round_tables,
    running,
)

ANN, BOB, CAT, DAN, EVE, FAY = 100, 101, 102, 103, 104, 105
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan", EVE: "Eve", FAY: "Fay"}


def milo(format_: Format = Format.SWISS, *, start_at: float, rounds: int | None = 2) -> Settings:
    return Settings("milo", format_, size=4, rounds=rounds, target=2, start_at=start_at,
                    checkin_minutes=10, teams=True, pairs=True)  # fmt: skip


async def choose(service: TournamentService, tournament_id: str, user: int, partner: int,
                 *, bot: bool = False) -> Pair | None:  # fmt: skip
    return await service.choose_partner(
        tournament_id, user, NAMES.get(user, "?"), float(user), partner, partner_is_bot=bot
    )


async def paired_and_started(
    service: TournamentService,
    clock: Clock,
    settings: Settings,
    members: list[int],
    absent: int | None = None,
) -> str:
    """A tournament of ``settings`` whose ``members`` sign up in pairs (each two in turn
    choosing each other) and check in, but ``absent``, started: its id."""
    tid = (await service.create(GUILD, CHANNEL, ORGANISER, settings)).id
    for first, second in zip(members[::2], members[1::2], strict=True):
        await choose(service, tid, first, second)
        await choose(service, tid, second, first)
    clock.now = settings.checkin_at
    for user in members:
        if user != absent:
            await service.check_in(tid, user)
    clock.now = settings.start_at
    await service.run_due()
    return tid


async def test_a_pair_is_entered_once_both_chose_each_other_and_refusals_change_nothing(
    store: Repository,
) -> None:
    clock, venue = Clock(), Venue()
    tables, service = await running(store, clock, venue)
    tid = (await service.create(GUILD, CHANNEL, ORGANISER, milo(start_at=clock.now + 3600))).id

    async def refused(why: str, user: int, partner: int, *, bot: bool = False) -> None:
        before = await store.get_tournament(tid)
        with pytest.raises(TournamentRefused) as refusal:
            await choose(service, tid, user, partner, bot=bot)
        assert refusal.value.why == why
        after = await store.get_tournament(tid)
        assert after is not None and before is not None
        assert (after.version, after.state) == (before.version, before.state), why

    await refused("partner-self", ANN, ANN)
    await refused("partner-bot", ANN, 999, bot=True)
    assert await choose(service, tid, ANN, BOB) is None, "Bob has not chosen Ann yet"
    assert service.choosers(tid, BOB) == (ANN,)
    await refused("already-chosen", ANN, BOB)
    assert await choose(service, tid, CAT, BOB) is None, "Bob may be chosen by several"
    await refused("partner-chose-another", DAN, ANN)  # Ann chose Bob
    with pytest.raises(TournamentRefused) as individually:
        await service.sign_up(tid, DAN, "Dan", 0.0)
    assert individually.value.why == "partners", "by pairs, nobody enters alone"

    pair = await choose(service, tid, BOB, ANN)
    assert pair is not None and pair.members == (ANN, BOB), "the first to choose sits first"
    assert pair.id < PAIR_IDS_BELOW, "a pair's id is no member's, guest's or computer's"
    tournament = service.get(tid)
    assert tournament.pairs == (pair,)
    assert tournament.asked == (), "Cat, who chose Bob, waits for nobody now"
    assert tournament.player(CAT) is not None, "Cat is still signed up, to choose again"
    with pytest.raises(TournamentRefused) as no_pair:
        await service.replace_player(tid, CAT, 108, "Gus", 0.0, by=ORGANISER)
    assert no_pair.value.why == "not-paired", "Cat has no pair for Gus to complete"
    assert service.get(tid) == tournament
    await refused("partner-taken", CAT, ANN)
    await refused("signed-up", ANN, DAN)
    with pytest.raises(TournamentRefused) as choosing:
        service.choosers(tid, BOB)
    assert choosing.value.why == "signed-up"

    # Cat changes her mind: choosing anew replaces her choice.
    assert await choose(service, tid, CAT, DAN) is None
    assert await choose(service, tid, CAT, EVE) is None
    assert service.get(tid).asked == ((CAT, EVE),)
    second = await choose(service, tid, EVE, CAT)
    assert second is not None and second.id == pair.id - 1
    assert ("signed-up", (EVE, CAT)) in venue.heard

    drawn_partners = replace(milo(start_at=clock.now + 60), pairs=False)
    drawn = await service.create(GUILD, CHANNEL + 1, ORGANISER, drawn_partners)
    with pytest.raises(TournamentRefused) as not_by_pairs:
        await choose(service, drawn.id, ANN, BOB)
    assert not_by_pairs.value.why == "partners"
    cross = replace(milo(start_at=clock.now + 60), game="cross", size=2, teams=False)
    with pytest.raises(TournamentRefused) as not_milo:
        await service.create(GUILD, CHANNEL + 2, ORGANISER, cross)
    assert not_milo.value.why == "pairs-game", "only Milo is played by partners"
    await service.close()
    await tables.close()


async def test_a_withdrawal_before_the_start_takes_the_pair_and_frees_the_partner(
    store: Repository,
) -> None:
    clock, venue = Clock(), Venue()
    tables, service = await running(store, clock, venue)
    tid = (await service.create(GUILD, CHANNEL, ORGANISER, milo(start_at=clock.now + 3600))).id
    await choose(service, tid, ANN, BOB)
    await choose(service, tid, BOB, ANN)
    await service.withdraw(tid, ANN)
    tournament = service.get(tid)
    assert tournament.pairs == () and tournament.entrants == ()
    assert ("withdrew", (ANN, ANN, BOB)) in venue.heard, "the face names the pair that left"
    assert await choose(service, tid, BOB, CAT) is None, "Bob may choose another partner"
    assert await choose(service, tid, CAT, BOB) is not None
    await service.close()
    await tables.close()


async def test_a_withdrawal_while_paused_before_the_start_frees_the_partner_too(
    store: Repository,
) -> None:
    """Paused before its first round, a tournament has not started: resumed, it is
    open for sign-up again, and the partner of one who withdrew meanwhile may choose
    another (the pair, which played nothing, is no more)."""
    clock, venue = Clock(), Venue()
    tables, service = await running(store, clock, venue)
    tid = (await service.create(GUILD, CHANNEL, ORGANISER, milo(start_at=clock.now + 3600))).id
    await choose(service, tid, ANN, BOB)
    await choose(service, tid, BOB, ANN)
    await service.pause(tid, ORGANISER, True)
    await service.withdraw(tid, ANN)
    await service.pause(tid, ORGANISER, False)
    assert service.get(tid).pairs == ()
    assert await choose(service, tid, BOB, CAT) is None, "Bob may choose another partner"
    assert await choose(service, tid, CAT, BOB) is not None
    await service.close()
    await tables.close()


def test_the_stored_form_keeps_pairs_and_choices_and_reads_an_older_one_as_drawn() -> None:
    tournament = Tournament(
        id="0a1b2c3d", guild_id=GUILD, channel_id=CHANNEL, organiser_id=ORGANISER,
        settings=milo(start_at=1e9), phase=Phase.RUNNING,
        players=tuple(Player(user, NAMES[user], 20.0 + n, checked_in=True)
                      for n, user in enumerate((ANN, BOB, CAT, DAN, EVE))),
        pairs=(Pair(PAIR_IDS_BELOW - 1, (ANN, BOB)), Pair(PAIR_IDS_BELOW - 2, (CAT, DAN))),
        asked=((EVE, FAY),), round=1,
        drawn=(Drawn(1, 0, (ANN, CAT, BOB, DAN), ((PAIR_IDS_BELOW - 1,), (PAIR_IDS_BELOW - 2,)),
                     "t1", (DAN,)),),
    )  # fmt: skip
    assert Tournament.from_dict(tournament.to_dict()) == tournament
    older = tournament.to_dict()
    del older["pairs"], older["asked"], older["settings"]["pairs"]
    read = Tournament.from_dict(older)
    assert not read.settings.pairs and read.settings.teams and read.pairs == ()
    assert read.settings.seating.drawn_partners, "a Milo stored before pairs draws partners"


def test_a_pair_is_seeded_by_its_members_mean_rating_and_seated_across() -> None:
    first, second = Pair(PAIR_IDS_BELOW - 1, (ANN, BOB)), Pair(PAIR_IDS_BELOW - 2, (CAT, DAN))
    tournament = Tournament(
        "0a1b2c3d", GUILD, CHANNEL, ORGANISER, milo(start_at=0.0),
        players=(Player(ANN, "Ann", 30.0, True), Player(BOB, "Bob", 10.0, True),
                 Player(CAT, "Cat", 5.0, True), Player(DAN, "Dan", 5.0)),
        pairs=(first, second),
    )  # fmt: skip
    [entrant] = tournament.entrants
    assert (entrant.id, entrant.rating) == (first.id, 20.0), "Dan never checked in"
    drawn = Drawn(1, 0, (ANN, CAT, BOB, DAN), ((first.id,), (second.id,)))
    assert find_variant("milo").sides_of(4) == ((0, 2), (1, 3))
    assert [drawn.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]


async def test_pairs_play_across_forfeit_with_an_absentee_and_keep_their_id_when_replaced(
    store: Repository,
) -> None:
    """Three pairs and a half: the pair of whom one checked in does not play; round 1
    seats two pairs, partners across, and gives the third a bye; a member who never
    comes makes their pair forfeit; a member replaced leaves their pair's id and
    results to the newcomer's pair."""
    clock, venue = Clock(), Venue()
    tables, service = await running(store, clock, venue)
    settings = milo(start_at=clock.now + 600)
    members = [ANN, BOB, CAT, DAN, EVE, FAY, 106, 107]
    # 107 never checks in: their pair does not play
    tid = await paired_and_started(service, clock, settings, members, absent=107)
    tournament = service.get(tid)
    half = tournament.pair_of(107)
    assert half is not None and ("not-both-checked-in", (half.id,)) in venue.heard
    [drawn] = tournament.tables_of(1)
    [bye] = [item for item in tournament.record if not isinstance(item, Result)]
    assert len({*drawn.sides[0], *drawn.sides[1], bye.entrant}) == 3
    one, other = (tournament.members_of(side[0]) for side in drawn.sides)
    assert drawn.seats == (one[0], other[0], one[1], other[1]), "partners sit across"
    [table] = round_tables(tables, tournament)
    absentee = drawn.seats[1]
    for user in table.invited:
        if user != absentee:
            await tables.act(table.id, Join(user, "here"))
    await service.settled()
    clock.now = tournament.due or 0.0
    await service.run_due()  # the show-up deadline: a computer plays the absentee's seat
    await play_out(tables, clock, table.id, seed=3)
    await service.settled()
    tournament = service.get(tid)
    [result] = [r for r in tournament.record if isinstance(r, Result)]
    assert result.sides == drawn.sides and result.places[1] == 2, "the absentee's pair lost"
    assert tournament.round == 2

    newcomer = 108
    await service.replace_player(tid, absentee, newcomer, "Gus", 0.0, by=ORGANISER)
    moved = service.get(tid).pair_of(newcomer)
    assert moved is not None and moved.id == drawn.sides[1][0], "the pair keeps its id"
    assert absentee not in moved.members and service.get(tid).pair_of(absentee) is None
    await service.withdraw(tid, newcomer)
    after = service.get(tid)
    assert after.pair_out(moved) and all(
        (player := after.player(m)) is not None and player.out for m in moved.members
    ), "a withdrawal takes the pair out"
    assert ("withdrew", (newcomer, *moved.members)) in venue.heard, "the pair that left is named"
    await service.close()
    await tables.close()


async def test_a_knockout_of_pairs_plays_on_after_a_member_is_replaced(
    store: Repository,
) -> None:
    """A knockout's bracket is drawn from the pairs' seeds each time a round is paired:
    a newcomer takes the seed of the member they replace, so their pair keeps its place
    in the bracket. Seeded anew by the newcomer's own rating, the pairs were drawn in
    another bracket than the one round 1 was played in, its results were refused by it,
    and the final was never paired."""
    clock, venue = Clock(), Venue()
    tables, service = await running(store, clock, venue)
    settings = milo(Format.KNOCKOUT, start_at=clock.now + 600, rounds=None)
    members = [ANN, BOB, CAT, DAN, EVE, FAY, 106, 107]
    tid = await paired_and_started(service, clock, settings, members)
    tournament = service.get(tid)
    top = tournament.pair_of(107)
    assert top is not None and any(top.id in d.sides[0] for d in tournament.tables_of(1))
    # Seeded by their own rating, the newcomer would make the top seed the lowest.
    await service.replace_player(tid, 107, 108, "Gus", -1000.0, by=ORGANISER)
    await play_round(tables, service, clock, tournament)
    final = service.get(tid)
    assert final.round == 2 and len(final.tables_of(2)) == 1, "the winners meet in the final"
    await play_round(tables, service, clock, final)
    row = await store.get_tournament(tid)
    assert row is not None and row.status == Phase.FINISHED.value
    await service.close()
    await tables.close()


async def test_a_pair_left_out_of_a_knockouts_draw_is_not_completed_by_a_replacement(
    store: Repository,
) -> None:
    """A pair of whom one checked in is not in a knockout's bracket, drawn once from the
    pairs who both did. Replacing the one who did not is refused, nothing changed:
    completed by a newcomer checked in, the pair joined the bracket drawn again under
    the results played, which no longer held them, and the tournament waited for
    good."""
    clock, venue = Clock(), Venue()
    tables, service = await running(store, clock, venue)
    settings = milo(Format.KNOCKOUT, start_at=clock.now + 600, rounds=None)
    # Fay never checks in: her pair is not drawn
    tid = await paired_and_started(service, clock, settings, [ANN, BOB, CAT, DAN, EVE, FAY], FAY)
    before = service.get(tid)
    assert before.round == 1 and len(before.tables_of(1)) == 1, "two pairs: the final"
    with pytest.raises(TournamentRefused) as refused:
        await service.replace_player(tid, FAY, 108, "Gus", 0.0, by=ORGANISER)
    assert refused.value.why == "not-drawn"
    assert service.get(tid) == before
    await play_round(tables, service, clock, before)
    row = await store.get_tournament(tid)
    assert row is not None and row.status == Phase.FINISHED.value
    await service.close()
    await tables.close()
