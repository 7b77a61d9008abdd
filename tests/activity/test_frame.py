"""The test frame itself: what it answers the Embedded App SDK (the bot's own copy, whose
schemas check every answer) for each command an Activity may send at start, asked by a
probe page in place of the bot's (``probe.html``, served at the bot's origin so that
its token exchange is the bot's ``/api/token``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from tests.activity.conftest import Activities, World
from tests.activity.frame import INVALID_CLIENTID, INVALID_TOKEN
from tests.activity.test_activity import launch, lobby_with_activity

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Route

PROBE = Path(__file__).with_name("probe.html")
PROBE_PATH = "/activity-probe"


def serve_probe(context: BrowserContext) -> None:
    """The probe page answers for :data:`PROBE_PATH` at the bot's origin."""

    def probe(route: Route) -> None:
        route.fulfill(path=PROBE, content_type="text/html")

    context.route(lambda url: urlsplit(url).path == PROBE_PATH, probe)


def test_the_frame_answers_what_an_activity_asks(world: World, activities: Activities) -> None:
    ann, bob = world.member("Ann"), world.member("Bob")
    lobby_id, instance = lobby_with_activity(world, ann)
    probe_page = world.page.rstrip("/") + PROBE_PATH
    ann_in = activities.open(ann, instance, page=probe_page, locale="pt-BR", prepare=serve_probe)
    page = ann_in.person.page
    # The probe sets window.probe once its module runs: wait for that too, not only its end.
    page.wait_for_function("() => window.probe && (window.probe.done || window.probe.error)")
    probe: dict[str, Any] = page.evaluate("() => window.probe")
    assert probe["error"] is None, probe["error"]

    authenticated = probe["authenticated"]
    assert authenticated["user"]["id"] == str(ann.id)
    assert authenticated["application"]["id"] == str(world.fake.application_id)
    assert authenticated["scopes"] == ["identify"]
    assert probe["participants"] == [str(ann.id)]
    assert probe["locale"] == "pt-BR"
    assert probe["madeUpToken"] == INVALID_TOKEN
    assert probe["otherClient"] == INVALID_CLIENTID
    assert ann_in.commands() == [
        "AUTHORIZE",
        "AUTHENTICATE",
        "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS",
        "USER_SETTINGS_GET_LOCALE",
        "SUBSCRIBE",
        "AUTHENTICATE",
        "AUTHORIZE",
    ]

    assert world.run(launch(world, bob, lobby_id)) == instance
    assert ann_in.participants_changed()
    page.wait_for_function("() => window.probe.events.length > 0")
    assert page.evaluate("() => window.probe.events") == [[str(ann.id), str(bob.id)]]
