"""The words write no markup of their own: mentions, times, names and codes are the
marks of the face that shows them (Discord's here, or plain text for another face),
and the Discord face shows a card as the embed it showed before."""

from __future__ import annotations

import discord

from bot.refusals import SeatedElsewhere
from discord_face.embeds import embed
from discord_face.marks import DISCORD
from words import boards, marks, play, refusals
from words.cards import Card, Field, Tone


def test_plain_marks_mention_time_and_quote_without_discord_markup() -> None:
    with marks.using(marks.PLAIN):
        reminder = play.time_running_out(110000000000000001, 1_800_000_000.7)
        again = boards.replay_again_at(1_800_000_000.2)
        seated = refusals.refusal(SeatedElsewhere(22))
        name = marks.current().name("**@everyone**")
    assert reminder == "@110000000000000001, your turn runs out 2027-01-15 08:00:00 UTC."
    assert again == "You can ask for another replay 2027-01-15 08:00:01 UTC."
    assert "(#22)" in seated
    assert name == "**@everyone**"  # plain text: nothing to escape, nothing formats


def test_discord_marks_are_the_face_s_and_last_only_for_their_block() -> None:
    with marks.using(marks.PLAIN):
        with marks.using(DISCORD):
            assert play.your_turn(7) == "<@7>, your turn."
            assert marks.current().code("a`b") == "`aˋb`"  # a backtick cannot end the code
            assert marks.current().name("@everyone") != "@everyone"
        assert play.your_turn(7) == "@7, your turn."


def test_a_name_read_right_to_left_keeps_the_number_after_it_on_its_right() -> None:
    """Discord lays a line out by the Unicode bidirectional algorithm: "שרה: 7 tiles"
    would show the 7 left of the name, as part of its right-to-left stretch. The
    name ends with a left-to-right mark (drawn as nothing), as on the pictures; a
    name in Latin letters is left as it is."""
    with marks.using(DISCORD):
        assert marks.current().name("שרה") == "שרה\u200e"
        assert marks.current().name("Ann") == "Ann"


def test_a_card_becomes_an_embed_coloured_by_its_tone() -> None:
    card = Card(
        "Winner: Ann",
        "a description",
        (Field("Final standings", "1. Ann: 100", inline=False), Field("Games won", "Ann 2")),
        footer="Game 0123abcd",
        tone=Tone.WINNER,
    )
    shown = embed(card)
    assert (shown.title, shown.description, shown.footer.text) == (
        "Winner: Ann",
        "a description",
        "Game 0123abcd",
    )
    assert [(f.name, f.value, f.inline) for f in shown.fields] == [
        ("Final standings", "1. Ann: 100", False),
        ("Games won", "Ann 2", True),
    ]
    assert shown.colour == discord.Colour.gold()
    assert embed(Card("t")).colour == discord.Colour.from_rgb(46, 125, 50)  # a table's green
