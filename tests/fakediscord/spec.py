"""Checking each request the bot sends against Discord's official OpenAPI description
(``discord-api/openapi.json`` beside this module, vendored with its licence and origin),
so what passes here would pass in Discord."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("discord-api") / "openapi.json"


@dataclass(frozen=True, slots=True)
class Operation:
    template: str
    method: str
    pattern: re.Pattern[str]


@cache
def spec() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SPEC_PATH.read_text())
    return document


@cache
def operations() -> list[Operation]:
    found = []
    for template, item in spec()["paths"].items():
        regex = re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template))
        for method in item:
            if method in ("get", "post", "put", "patch", "delete"):
                found.append(Operation(template, method.upper(), re.compile(f"^{regex}$")))
    # Literal segments (@me, @original) must win over placeholders.
    return sorted(found, key=lambda op: -op.template.count("@"))


def find(method: str, path: str) -> Operation | None:
    for operation in operations():
        if operation.method == method and operation.pattern.match(path):
            return operation
    return None


SPEC_URI = "urn:discord-openapi"


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(spec(), default_specification=DRAFT202012)
    registry: Registry = Registry().with_resource(SPEC_URI, resource)  # unannotated there
    return registry


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


@cache
def _validator(template: str, method: str) -> Draft202012Validator | None:
    """A validator for the operation's JSON body (a multipart body's ``payload_json`` is
    the same document), with references resolved inside the whole spec."""
    body = spec()["paths"][template][method.lower()].get("requestBody")
    if body is None or "application/json" not in body["content"]:
        return None
    where = _pointer(
        "paths", template, method.lower(), "requestBody", "content", "application/json", "schema"
    )
    return Draft202012Validator({"$ref": f"{SPEC_URI}#/{where}"}, registry=_registry())


def validate(method: str, path: str, body: Any) -> list[str]:
    """Problems with this request: an unknown route, or a body the spec refuses."""
    operation = find(method, path)
    if operation is None:
        return [f"{method} {path}: no such route in Discord's API"]
    if body is None:
        return []
    try:
        text = json.dumps(body)
    except (TypeError, ValueError):  # not JSON's values: checked as it is
        return list(_problems(operation.template, operation.method, body))
    return list(_problems_of_text(operation.template, operation.method, text))


@lru_cache(maxsize=4096)
def _problems_of_text(template: str, method: str, text: str) -> tuple[str, ...]:
    """:func:`_problems` of the JSON body ``text``, once per body: the same bodies come
    again and again (the command set at every start, the same answers to the same
    clicks), and checking one against the spec takes milliseconds (a tenth of a second
    for the command set)."""
    return _problems(template, method, json.loads(text))


def _problems(template: str, method: str, body: Any) -> tuple[str, ...]:
    validator = _validator(template, method)
    if validator is None:
        return ()
    problems = []
    for error in validator.iter_errors(body):
        where = "/".join(map(str, error.absolute_path))
        problems.append(f"{method} {template}: {where}: {error.message[:300]}")
    return tuple(problems)
