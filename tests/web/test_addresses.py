"""Which answer an address gets over HTTP: the page's own paths, the page (404) for any
other a person may type, and a plain 404 for a missing API route or file, which only
code asks for and which a page in their place would hide (``web.server.ELSEWHERE``)."""

from __future__ import annotations

from tests.web.conftest import Site


async def test_a_typed_address_gets_the_page_and_an_api_or_file_a_plain_404(site: Site) -> None:
    client = site.client
    for path in ("/", "/t/ab12cd34", "/boards"):
        answer = await client.get(path)
        assert answer.status == 200 and "app.js" in await answer.text(), path
    for path in ("/tables", "/t/ab12cd34/", "/boards/", "/apis", "/wsx", "/t/"):
        answer = await client.get(path)
        assert answer.status == 404, path
        assert "app.js" in await answer.text(), f"{path} is not answered with the page"
    for path in ("/api/nope", "/api", "/static/nope.js", "/ws/x"):
        answer = await client.get(path)
        assert answer.status == 404, path
        assert "app.js" not in await answer.text(), f"{path} is answered with the page"
