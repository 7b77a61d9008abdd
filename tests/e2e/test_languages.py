"""The players' languages through the fake Discord: the commands registered with a name
and description in each language (within Discord's rules), a server's public messages
in its language and each member's private answers in their own, and a whole game under
a pseudo-language in which every word the bot sends must come from a catalogue."""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from tests.cogs.test_languages import list_words
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, Words, open_lobby, service_of, table_messages
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import Member
from tests.pseudo import PSEUDO, Checker, pseudo_language
from words import i18n

TRANSLATED = [
    locale.value for locale in discord.Locale if i18n.find(locale.value) not in (None, i18n.ENGLISH)
]
"""Discord's locales the catalogues speak (Latin American Spanish reads the Spanish)."""


def discord_name(name: str) -> bool:
    """Discord's rule for a command or option name: 1 to 32 lowercase letters, digits,
    ``-`` and ``_`` (``^[-_\\p{L}\\p{N}…]{1,32}$``, lowercase where a letter has case)."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )


def walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for option in node.get("options") or []:
        yield from walk(option)


async def test_every_command_and_option_has_a_name_and_description_in_each_language(
    running: Running,
) -> None:
    await running.start()
    [domino] = running.fake.commands[None]
    assert domino["name_localizations"]["es-ES"] == "dominó"
    assert domino["name_localizations"]["pt-BR"] == "dominó"
    nodes = list(walk(domino))
    assert len(nodes) > 30
    assert {"es-ES", "es-419", "pt-BR"} <= set(TRANSLATED)
    for locale in TRANSLATED:
        for node in nodes:
            name = node["name_localizations"][locale]
            description = node["description_localizations"][locale]
            assert discord_name(name), (locale, name)
            assert 1 <= len(description) <= 100, (locale, description)
            siblings = [o["name_localizations"][locale] for o in node.get("options") or []]
            assert len(siblings) == len(set(siblings)), (locale, siblings)
            for choice in node.get("choices") or []:
                shown = (choice.get("name_localizations") or {}).get(locale, choice["name"])
                assert 1 <= len(shown) <= 100
    for node in nodes:
        assert node["name_localizations"]["es-419"] == node["name_localizations"]["es-ES"]
    play = next(n for n in nodes if n["name"] == "play")
    assert [o["name_localizations"]["es-ES"] for o in play["options"]] == ["ficha", "punta"]
    language = next(n for n in nodes if n["name"] == "language")
    assert [c["name"] for c in language["choices"]] == ["English", "Español", "Português (Brasil)"]


COMMAND_CHARACTERS = 8000
"""Discord's limit on a command's characters: its names, descriptions and choices' names
and values, options and subcommands included, each field counted at its longest
localization (raised from 4,000 in February 2024, discord-api-docs pull request 6668;
some libraries still check the old figure). A command over it is refused whole at
registration, and /domino holds every subcommand."""


def characters(node: dict[str, Any]) -> int:
    """A command's characters as Discord counts them toward :data:`COMMAND_CHARACTERS`."""

    def longest(default: str, localized: dict[str, str] | None) -> int:
        return max([len(default), *(len(text) for text in (localized or {}).values())])

    total = longest(node["name"], node.get("name_localizations"))
    total += longest(node["description"], node.get("description_localizations"))
    for choice in node.get("choices") or []:
        total += longest(choice["name"], choice.get("name_localizations"))
        total += len(str(choice["value"]))
    return total + sum(characters(option) for option in node.get("options") or [])


async def test_the_command_fits_discords_limit_in_every_language(running: Running) -> None:
    await running.start()
    [domino] = running.fake.commands[None]
    assert characters(domino) <= COMMAND_CHARACTERS


async def test_a_spanish_server_posts_in_spanish_and_answers_each_member_in_their_own(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    ann = server.member("Ann")  # Discord in English
    bob = Member(fake, server.guild_id, "Bob", locale="es-419")
    reply = await (await boss.slash("domino settings", channel, language="es-ES")).reply()
    assert reply.visible_to == boss.id and "Language: Español\n" in reply.content
    assert (await bot.store.get_guild_settings(server.guild_id)).language == "es-ES"

    opened = await (await ann.slash("domino new", channel, game="cross", target=10)).reply()
    assert opened.visible_to == ann.id and opened.content.startswith("Your table is open")
    [lobby] = await fake.wait_for(lambda: [m for m in fake.public(channel) if m.buttons()])
    assert lobby.embeds[0]["title"] == "Cruz — mesa abierta"
    labels = [b["label"] for b in lobby.buttons()]
    assert labels == ["Unirse", "Salir", "Añadir máquina", "Empezar", "Cancelar"]
    joined = await (await bob.slash("domino join", channel)).reply()
    assert joined.visible_to == bob.id and joined.content == "Te uniste a la mesa."
    await ann.click(lobby, "Empezar")
    await fake.wait_for(lambda: table_messages(fake, channel))

    table = table_messages(fake, channel)[-1]
    assert table.embeds[-1]["title"] == "Cruz — ronda 1"
    assert [b["label"] for b in table.buttons()] == ["Mi mano", "Robar", "Pasar", "Reglas"]
    [picture] = [a for a in table.attachments if a["filename"] == "table.png"]
    alt = picture["description"]
    assert alt.startswith("Cruz, ronda 1, a 10. ") and " Turno de " in alt and " Pozo 14." in alt
    assert "to play" not in alt
    hand = await (await ann.click(table, "Mi mano")).reply()
    [mine] = [a["description"] for a in hand.attachments]
    assert hand.visible_to == ann.id and mine.startswith("Your hand, ")
    rules = await (await bob.click(table, "Reglas")).reply()
    assert rules.visible_to == bob.id and rules.content.startswith("**Cruz** (2–4 jugadores")


async def test_without_a_choice_a_server_speaks_its_preferred_locale(
    running: Running, server: Server
) -> None:
    """Discord's preferred locale of the server: its public posts, the computers' moves
    too (which no member's click carries), are in Brazilian Portuguese; a member whose
    Discord is in Spanish is answered in Spanish."""
    fake, channel = server.fake, server.channels[0]
    fake.guilds[server.guild_id]["preferred_locale"] = "pt-BR"
    bot = await running.start()
    service = service_of(bot)
    ann = Member(fake, server.guild_id, "Ann", locale="es-ES")
    opened = await (await ann.slash("domino new", channel, game="milo", target=1)).reply()
    assert opened.content.startswith("Tu mesa está abierta")
    [lobby] = await fake.wait_for(lambda: [m for m in fake.public(channel) if m.buttons()])
    assert lobby.embeds[0]["title"] == "Milo — mesa aberta"

    def seats() -> int:
        table = service.in_channel(channel)
        assert table is not None, "the lobby is open"
        return len(table.seats)

    for _ in range(3):
        choice = await (await ann.click(lobby, "Adicionar computador")).reply()
        assert choice.visible_to == ann.id and choice.content == "¿Qué nivel?"
        seated = seats()
        await ann.click(choice, "Normal")

        def added(seated: int = seated) -> bool:
            return seats() > seated

        await fake.wait_for(added)
    await fake.wait_for(lambda: "Computador 3 (normal)" in fake.messages[lobby.id].text())
    await ann.click(lobby, "Começar")
    driver = Driver(fake, service, channel, {ann.id: ann}, words=Words(i18n.for_locale("pt-BR")))
    await fake.wait_for(driver.settled)
    await driver.play_one()  # Ann's move; then the three computers move before hers again
    await fake.wait_for(driver.settled)
    moved = [m.content for m in table_messages(fake, channel) if "Computador" in m.content]
    assert any(word in text for text in moved for word in (" joga ", " sai com ", " passa")), moved
    assert not any("plays" in text or "passes" in text for text in moved), moved


# -- a whole game under a pseudo-language --------------------------------------------------


@pytest.fixture
def pseudo() -> Iterator[i18n.Language]:
    language = pseudo_language()
    i18n.add_language(language)
    yield language
    i18n.remove_language(language.code)


def capture(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every message and edit the bot sends, as sent (the fake keeps only the latest
    version of each message)."""
    sent: list[dict[str, Any]] = []
    check = fake.check_limits

    def keep(data: dict[str, Any], where: str) -> None:
        sent.append(copy.deepcopy(data))
        check(data, where)

    monkeypatch.setattr(fake, "check_limits", keep)
    return sent


def shown(data: dict[str, Any]) -> list[str]:
    """Every text of a message a member reads: content, embeds, buttons and menus,
    and the pictures' alt text."""
    texts = [data.get("content")]
    for embed in data.get("embeds") or []:
        texts += [embed.get("title"), embed.get("description")]
        texts += [(embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
        for field in embed.get("fields") or []:
            texts += [field.get("name"), field.get("value")]
    for row in data.get("components") or []:
        for item in row.get("components") or []:
            texts += [item.get("label"), item.get("placeholder")]
            for option in item.get("options") or []:
                texts += [option.get("label"), option.get("description")]
    texts += [attachment.get("description") for attachment in data.get("attachments") or []]
    return [text for text in texts if text]


async def test_a_whole_game_in_a_pseudo_language_shows_only_words_from_the_catalogue(
    running: Running, server: Server, pseudo: i18n.Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Members and server in the pseudo-language (``⟦…⟧`` around every message): the
    lobby, a computer seat, refusals, rules, every move (buttons, the hand, draws, slash
    commands with autocomplete), round and game ends, the leaderboard and stats."""
    fake, channel = server.fake, server.channels[0]
    fake.guilds[server.guild_id]["preferred_locale"] = PSEUDO
    sent = capture(fake, monkeypatch)
    bot = await running.start()
    ann, bob, cat = (Member(fake, server.guild_id, n, locale=PSEUDO) for n in ("Ann", "Bob", "Cat"))
    words = Words(pseudo)

    lobby = await open_lobby(fake, ann, channel, words, game="cross", target=10)
    choice = await (await ann.click(lobby, words.label("computer"))).reply()
    await ann.click(choice, words.label("normal"))
    await (await cat.click(lobby, words.label("start"))).reply()  # not the host: refused
    await bob.click(lobby, words.label("join"))
    await fake.wait_for(lambda: "Bob" in fake.messages[lobby.id].text())
    await ann.click(lobby, words.label("start"))
    await fake.wait_for(lambda: table_messages(fake, channel))

    driver = Driver(fake, service_of(bot), channel, {ann.id: ann, bob.id: bob}, words=words)
    await fake.wait_for(driver.settled)
    latest = table_messages(fake, channel)[-1]
    await (await cat.click(latest, words.label("hand"))).reply()  # no hand here
    await (await cat.click(latest, words.label("rules"))).reply()
    await (await cat.slash("domino play", channel, tile="6-6")).reply()  # not seated
    while not driver.finished():
        await fake.wait_for(driver.settled)
        table = driver.table()
        assert table is not None
        tile = any(move.tile for move in table.legal_for(driver.mover(table).id))
        completed = any(i.choices for i in fake.interactions.values())
        await driver.play_one(slash=tile and not completed)  # autocomplete at least once
    await (await ann.slash("domino leaderboard", channel, game="cross", order="wins")).reply()
    await (await bob.slash("domino stats", channel)).reply()
    await (await cat.slash("domino stats", channel)).reply()

    checker = Checker(["Ann", "Bob", "Cat", *list_words(pseudo.locale)])
    texts = [text for data in sent for text in shown(data)]
    choices = [c["name"] for i in fake.interactions.values() for c in i.choices or []]
    assert len(texts) > 100 and choices, "a whole game was seen, autocomplete too"
    strays = {text: found for text in texts + choices if (found := checker.strays(text))}
    assert strays == {}
