"""The fake answers what an Activity needs as Discord does: codes exchanged once, by their
own client, before they expire, for a token that is its user at ``GET /users/@me``; the
running instances of an Activity, told only to the bot of their own application; and a
``LAUNCH_ACTIVITY`` answer that opens the Activity for the member who clicked. Every
answer is checked against Discord's OpenAPI description where it describes the route,
and every refusal has Discord's shape."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from functools import cache
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.fakediscord import spec
from tests.fakediscord.activities import CODE_LIFETIME, TOKEN_LIFETIME
from tests.fakediscord.fixtures import start_bot, stop_bot
from tests.fakediscord.server import FakeDiscord, Message
from tests.fakediscord.users import Member

INSTANCE_ROUTE = "/applications/{application_id}/activity-instances/{instance_id}"
MEMBER_ROUTE = "/guilds/{guild_id}/members/{user_id}"
CALLBACK_ROUTE = "/interactions/{interaction_id}/{interaction_token}/callback"
INVALID_GRANT = 400, "invalid_grant"
INVALID_CLIENT = 401, "invalid_client"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake without rate limits; each test says which violations it expects."""
    fake = FakeDiscord(rate_limits=None)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def members(fake: FakeDiscord) -> tuple[Member, Member]:
    guild = fake.add_guild("Activities", channels=2)
    return Member(fake, guild["id"], "Ana"), Member(fake, guild["id"], "Bruno")


async def call(
    fake: FakeDiscord,
    method: str,
    path: str,
    *,
    authorization: str | None = None,
    form: dict[str, str] | None = None,
    json: Any = None,
) -> tuple[int, Any]:
    """(status, JSON body) of one request to the fake's API, as any HTTP client sends it."""
    headers = {"Authorization": authorization} if authorization else {}
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method, fake.api_base + path, headers=headers, data=form, json=json
        ) as response,
    ):
        return response.status, await response.json(content_type=None)


def exchange_form(fake: FakeDiscord, code: str, **changes: str) -> dict[str, str]:
    """The token request Discord's Activity guide has the app's server send."""
    form = {
        "client_id": str(fake.activities.client_id),
        "client_secret": fake.activities.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    return {**form, **changes}


async def token_for(
    fake: FakeDiscord, member: Member, scopes: tuple[str, ...] = ("identify",)
) -> str:
    code = fake.activities.authorize(member.id, scopes=scopes)
    status, body = await call(fake, "POST", "/oauth2/token", form=exchange_form(fake, code))
    assert status == 200, body
    token: str = body["access_token"]
    return token


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(spec.spec(), default_specification=DRAFT202012)
    registry: Registry = Registry().with_resource(spec.SPEC_URI, resource)
    return registry


def _escaped(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def off_description(template: str, method: str, status: int, body: Any) -> list[str]:
    """How an answer differs from what Discord's OpenAPI description says the route
    answers with that status (its ``200``, or its ``4XX`` error object)."""
    responses = spec.spec()["paths"][template][method]["responses"]
    key = str(status) if str(status) in responses else f"{str(status)[0]}XX"
    where = "/".join(map(_escaped, ("paths", template, method, "responses", key)))
    if "$ref" in responses[key]:
        where = responses[key]["$ref"].removeprefix("#/")
    schema = {"$ref": f"{spec.SPEC_URI}#/{where}/content/application~1json/schema"}
    validator = Draft202012Validator(schema, registry=_registry())
    return [error.message for error in validator.iter_errors(body)]


# -- the token exchange -----------------------------------------------------------------------


async def test_a_code_becomes_a_token_once_and_the_token_is_its_user(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, _ = members
    code = fake.activities.authorize(ana.id, locale="pt-BR")
    form = exchange_form(fake, code)

    status, body = await call(fake, "POST", "/oauth2/token", form=form)

    assert status == 200
    assert set(body) == {"access_token", "token_type", "expires_in", "refresh_token", "scope"}
    assert (body["token_type"], body["expires_in"], body["scope"]) == (
        "Bearer",
        TOKEN_LIFETIME,
        "identify",
    )
    status, user = await call(
        fake, "GET", "/users/@me", authorization=f"Bearer {body['access_token']}"
    )
    assert status == 200
    assert off_description("/users/@me", "get", status, user) == []
    assert (user["id"], user["global_name"], user["avatar"], user["locale"]) == (
        str(ana.id),
        "Ana",
        None,
        "pt-BR",
    )
    assert await call(fake, "POST", "/oauth2/token", form=form) == (
        400,
        {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
    )
    assert fake.violations == []


async def test_the_client_may_identify_itself_with_basic_authentication(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, _ = members
    form = {"grant_type": "authorization_code", "code": fake.activities.authorize(ana.id)}
    pair = f"{fake.activities.client_id}:{fake.activities.client_secret}"
    basic = "Basic " + base64.b64encode(pair.encode()).decode()

    status, body = await call(fake, "POST", "/oauth2/token", authorization=basic, form=form)

    assert status == 200 and body["scope"] == "identify"
    wrong = "Basic " + base64.b64encode(f"{fake.activities.client_id}:nope".encode()).decode()
    code = fake.activities.authorize(ana.id)
    status, body = await call(
        fake, "POST", "/oauth2/token", authorization=wrong, form={**form, "code": code}
    )
    assert (status, body) == (401, {"error": "invalid_client"})
    assert fake.violations == []


@pytest.mark.parametrize(
    ("case", "refused"),
    [
        ("wrong secret", INVALID_CLIENT),
        ("unknown client", INVALID_CLIENT),
        ("no credentials", INVALID_CLIENT),
        ("unknown code", INVALID_GRANT),
        ("expired code", INVALID_GRANT),
        ("another client's code", INVALID_GRANT),
        ("another redirect", INVALID_GRANT),
    ],
)
async def test_a_token_request_discord_would_refuse_is_refused(
    fake: FakeDiscord, members: tuple[Member, Member], case: str, refused: tuple[int, str]
) -> None:
    """Each is a request a stranger (or a slow page) could cause, so it is refused as
    Discord refuses it and is not the bot's mistake: no violation."""
    ana, _ = members
    other_client, other_secret = fake.activities.add_application()
    code = fake.activities.authorize(ana.id, redirect_uri="https://domino.example/activity")
    form = exchange_form(fake, code, redirect_uri="https://domino.example/activity")
    if case == "wrong secret":
        form["client_secret"] = other_secret
    elif case == "unknown client":
        form["client_id"] = "123"
    elif case == "no credentials":
        del form["client_id"], form["client_secret"]
    elif case == "unknown code":
        form["code"] = "made-up"
    elif case == "expired code":
        fake.activities.clock.advance(CODE_LIFETIME)
    elif case == "another client's code":
        form["code"] = fake.activities.authorize(ana.id, client_id=other_client)
    elif case == "another redirect":
        form["redirect_uri"] = "https://elsewhere.example/"

    status, body = await call(fake, "POST", "/oauth2/token", form=form)

    assert (status, body["error"]) == refused
    assert fake.violations == []
    if case != "expired code":  # the code itself is still good for its own client
        form = exchange_form(fake, code, redirect_uri="https://domino.example/activity")
        assert (await call(fake, "POST", "/oauth2/token", form=form))[0] == 200


async def test_a_code_for_another_client_is_still_its_clients(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, _ = members
    other_client, other_secret = fake.activities.add_application()
    code = fake.activities.authorize(ana.id, client_id=other_client)
    form = exchange_form(fake, code, client_id=str(other_client), client_secret=other_secret)

    status, body = await call(fake, "POST", "/oauth2/token", form=form)

    assert status == 200
    assert fake.activities.tokens[body["access_token"]].client_id == other_client


async def test_oauth2_me_names_the_application_a_token_was_granted_to(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, _ = members
    ours = await token_for(fake, ana)
    other_client, other_secret = fake.activities.add_application()
    code = fake.activities.authorize(ana.id, client_id=other_client)
    form = exchange_form(fake, code, client_id=str(other_client), client_secret=other_secret)
    theirs = (await call(fake, "POST", "/oauth2/token", form=form))[1]["access_token"]

    for token, client in ((ours, fake.activities.client_id), (theirs, other_client)):
        status, body = await call(fake, "GET", "/oauth2/@me", authorization=f"Bearer {token}")
        assert status == 200 and off_description("/oauth2/@me", "get", status, body) == []
        assert body["application"]["id"] == str(client)
        assert body["user"]["id"] == str(ana.id) and body["scopes"] == ["identify"]
    fake.activities.expire(ours)
    status, _ = await call(fake, "GET", "/oauth2/@me", authorization=f"Bearer {ours}")
    assert status == 401


@pytest.mark.parametrize(
    ("case", "answer", "violation"),
    [
        ("JSON", (400, {"error": "unsupported_grant_type"}), "a application/json body"),
        ("refresh", (400, {"error": "unsupported_grant_type"}), "grant_type 'refresh_token'"),
        ("no code", (400, {"error": "invalid_request"}), "no code"),
    ],
)
async def test_a_malformed_token_request_is_refused_and_is_the_bots_mistake(
    fake: FakeDiscord,
    members: tuple[Member, Member],
    case: str,
    answer: tuple[int, dict[str, str]],
    violation: str,
) -> None:
    """Discord's OAuth2 endpoint takes only forms of the authorization-code grant here; a
    request that is not one is refused and recorded as a violation (the bot's bug)."""
    ana, _ = members
    form = exchange_form(fake, fake.activities.authorize(ana.id))
    if case == "JSON":
        status, body = await call(fake, "POST", "/oauth2/token", json=form)
    elif case == "refresh":
        form = {**form, "grant_type": "refresh_token", "refresh_token": "old"}
        status, body = await call(fake, "POST", "/oauth2/token", form=form)
    else:
        del form["code"]
        status, body = await call(fake, "POST", "/oauth2/token", form=form)

    assert status == answer[0]
    assert body["error"] == answer[1]["error"]
    assert len(fake.violations) == 1 and violation in fake.violations[0], fake.violations


# -- the current user -------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["expired", "lifetime over", "unknown", "no identify scope"])
async def test_users_me_refuses_a_token_that_is_not_good_for_it(
    fake: FakeDiscord, members: tuple[Member, Member], case: str
) -> None:
    ana, _ = members
    scopes = ("guilds",) if case == "no identify scope" else ("identify",)
    token = await token_for(fake, ana, scopes)
    if case == "expired":
        fake.activities.expire(token)
    elif case == "lifetime over":
        fake.activities.clock.advance(TOKEN_LIFETIME)
    elif case == "unknown":
        token = "made-up"

    status, body = await call(fake, "GET", "/users/@me", authorization=f"Bearer {token}")

    assert (status, body) == (401, {"message": "401: Unauthorized", "code": 0})
    assert off_description("/users/@me", "get", status, body) == []
    assert fake.violations == []


async def test_users_me_with_the_bot_token_is_still_the_bot(fake: FakeDiscord) -> None:
    status, body = await call(fake, "GET", "/users/@me", authorization=f"Bot {fake.token}")
    assert status == 200 and body["id"] == str(fake.application_id) and body["bot"] is True
    assert (await call(fake, "GET", "/users/@me"))[0] == 401


# -- activity instances -------------------------------------------------------------------------


async def test_members_launching_in_one_channel_share_its_instance(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, bruno = members
    first, second = fake.guilds[ana.guild_id]["channels"][:2]
    app = fake.application_id
    instance_id = fake.activities.launch(app, first, ana.guild_id, ana.id)

    assert fake.activities.launch(app, first, ana.guild_id, bruno.id) == instance_id
    status, body = await call(
        fake,
        "GET",
        f"/applications/{app}/activity-instances/{instance_id}",
        authorization=f"Bot {fake.token}",
    )

    assert status == 200
    assert off_description(INSTANCE_ROUTE, "get", status, body) == []
    assert body == {
        "application_id": str(app),
        "instance_id": instance_id,
        "launch_id": body["launch_id"],
        "location": {
            "id": f"gc-{ana.guild_id}-{first}",
            "kind": "gc",
            "channel_id": str(first),
            "guild_id": str(ana.guild_id),
        },
        "users": [str(ana.id), str(bruno.id)],
    }
    assert instance_id == f"i-{body['launch_id']}-gc-{ana.guild_id}-{first}"
    elsewhere = fake.activities.launch(app, second, ana.guild_id, bruno.id)
    assert elsewhere != instance_id
    assert fake.activities.instances[instance_id].users == [ana.id]  # one Activity at a time
    assert fake.violations == []


async def test_an_instance_ends_with_its_last_user_and_is_never_reused(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, bruno = members
    channel = fake.guilds[ana.guild_id]["channels"][0]
    app = fake.application_id
    instance_id = fake.activities.launch(app, channel, ana.guild_id, ana.id)
    fake.activities.launch(app, channel, ana.guild_id, bruno.id)

    fake.activities.leave(instance_id, ana.id)
    assert fake.activities.instances[instance_id].users == [bruno.id]
    fake.activities.leave(instance_id, bruno.id)

    path = f"/applications/{app}/activity-instances/{instance_id}"
    status, body = await call(fake, "GET", path, authorization=f"Bot {fake.token}")
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})
    assert off_description(INSTANCE_ROUTE, "get", status, body) == []
    assert fake.activities.launch(app, channel, ana.guild_id, ana.id) != instance_id


@pytest.mark.parametrize(
    ("case", "status"),
    [
        ("unknown instance", 404),
        ("another app's instance", 404),
        ("asked under another app", 404),
        ("a user's token", 401),
        ("no token", 401),
    ],
)
async def test_an_instance_is_told_only_to_its_own_apps_bot(
    fake: FakeDiscord, members: tuple[Member, Member], case: str, status: int
) -> None:
    ana, _ = members
    channel = fake.guilds[ana.guild_id]["channels"][0]
    other_app, _ = fake.activities.add_application()
    app = fake.application_id
    instance_id = fake.activities.launch(app, channel, ana.guild_id, ana.id)
    authorization: str | None = f"Bot {fake.token}"
    if case == "unknown instance":
        instance_id = f"i-1-gc-{ana.guild_id}-{channel}"
    elif case == "another app's instance":
        instance_id = fake.activities.launch(other_app, channel, ana.guild_id, ana.id)
    elif case == "asked under another app":
        app = other_app
    elif case == "a user's token":
        authorization = f"Bearer {await token_for(fake, ana)}"
    else:
        authorization = None

    answer = await call(
        fake,
        "GET",
        f"/applications/{app}/activity-instances/{instance_id}",
        authorization=authorization,
    )

    assert answer[0] == status
    assert off_description(INSTANCE_ROUTE, "get", *answer) == []
    assert fake.violations == []


async def test_a_member_is_told_to_the_bot_with_their_nickname_there(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    """What the bot asks to name an Activity's member as the chat does: the guild member
    object, whose ``nick`` is the one the member's interactions carry too."""
    ana, bruno = members
    fake.set_nick(ana.guild_id, ana.id, "Aninha")
    bot = f"Bot {fake.token}"
    guild = ana.guild_id

    answer = await call(fake, "GET", f"/guilds/{guild}/members/{ana.id}", authorization=bot)
    assert answer[0] == 200 and off_description(MEMBER_ROUTE, "get", *answer) == []
    assert (answer[1]["nick"], answer[1]["user"]["global_name"]) == ("Aninha", "Ana")
    assert ana.as_member()["nick"] == "Aninha"
    answer = await call(fake, "GET", f"/guilds/{guild}/members/{bruno.id}", authorization=bot)
    assert answer[1]["nick"] is None

    for path, authorization, refused in (
        (f"/guilds/{guild}/members/{fake.new_id()}", bot, (404, 10007)),  # not a member
        (f"/guilds/{fake.new_id()}/members/{ana.id}", bot, (404, 10004)),  # not its guild
        (f"/guilds/{guild}/members/{ana.id}", f"Bearer {await token_for(fake, ana)}", (401, 0)),
    ):
        answer = await call(fake, "GET", path, authorization=authorization)
        assert (answer[0], answer[1]["code"]) == refused
        assert off_description(MEMBER_ROUTE, "get", *answer) == []
    assert fake.violations == []


def test_a_launch_needs_a_member_in_a_channel_of_the_guild(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, _ = members
    other = fake.add_guild("Elsewhere", channels=1)
    stranger = Member(fake, other["id"], "Stranger")
    channel = fake.guilds[ana.guild_id]["channels"][0]
    with pytest.raises(ValueError, match="no channel"):
        fake.activities.launch(fake.application_id, other["channels"][0], ana.guild_id, ana.id)
    with pytest.raises(ValueError, match="not a member"):
        fake.activities.launch(fake.application_id, channel, ana.guild_id, stranger.id)


# -- LAUNCH_ACTIVITY --------------------------------------------------------------------------


def lobby(fake: FakeDiscord, channel_id: int) -> Message:
    """A message with a button, as the bot's lobby has."""
    button = {"type": 2, "style": 1, "label": "Play in Discord", "custom_id": "activity"}
    return fake.create_message(
        channel_id, {"components": [{"type": 1, "components": [button]}]}, {}
    )


async def test_a_launch_answer_is_described_and_opens_the_activity_for_who_clicked(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, bruno = members
    channel = fake.guilds[ana.guild_id]["channels"][0]
    message = lobby(fake, channel)
    sent = await ana.click(message, "Play in Discord")
    interaction = sent.interaction
    path = f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=true"

    status, body = await call(fake, "POST", path, json={"type": 12})

    assert status == 200
    assert off_description(CALLBACK_ROUTE, "post", status, body) == []
    instance_id = await sent.launched()
    assert body["interaction"]["activity_instance_id"] == instance_id
    assert body["resource"] == {"type": 12, "activity_instance": {"id": instance_id}}
    assert fake.activities.instances[instance_id].users == [ana.id]
    again = await bruno.click(message, "Play in Discord")
    path = f"/interactions/{again.interaction.id}/{again.interaction.token}/callback"
    await call(fake, "POST", path, json={"type": 12})
    assert await again.launched() == instance_id
    assert fake.activities.instances[instance_id].users == [ana.id, bruno.id]
    assert fake.violations == []


async def test_a_launch_answer_off_the_description_or_to_an_autocomplete_is_a_violation(
    fake: FakeDiscord, members: tuple[Member, Member]
) -> None:
    ana, _ = members
    message = lobby(fake, fake.guilds[ana.guild_id]["channels"][0])
    mistyped = (await ana.click(message, "activity")).interaction
    autocomplete = (await ana.click(message, "activity")).interaction
    autocomplete.kind = 4  # as if Discord had sent an autocomplete

    for interaction, answer in ((mistyped, {"type": "12"}), (autocomplete, {"type": 12})):
        path = f"/interactions/{interaction.id}/{interaction.token}/callback"
        await call(fake, "POST", path, json=answer)

    off, launch = fake.violations
    assert off.startswith(f"POST {CALLBACK_ROUTE}: ") and "is not valid" in off
    assert launch == f"interaction {autocomplete.id}: an autocomplete cannot launch"


async def test_discord_py_launching_the_activity_from_a_button(
    fake_discord: FakeDiscord,
) -> None:
    """The whole path as the bot will take it: a member clicks, discord.py answers with
    ``launch_activity``, and both see the same instance (the ``fake_discord`` fixture
    fails the test on any request off the description)."""
    guild = fake_discord.add_guild("Activities", channels=1)
    ana = Member(fake_discord, guild["id"], "Ana")
    answers: list[discord.InteractionCallbackResponse[Any]] = []
    client = commands.Bot(
        command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
    )

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        answers.append(await interaction.response.launch_activity())

    client.add_listener(on_interaction)
    task = await start_bot(client)
    try:
        sent = await ana.click(lobby(fake_discord, guild["channels"][0]), "Play in Discord")
        instance_id = await sent.launched()
    finally:
        await stop_bot(client, task)

    assert fake_discord.activities.instances[instance_id].users == [ana.id]
    (answer,) = answers
    assert isinstance(answer.resource, discord.InteractionCallbackActivityInstance)
    assert answer.resource.id == answer.activity_id == instance_id
