"""Values kept as JSON by their dataclass fields: one table of stored forms per kind of
value (how a field of each type is written and read back), so a new field is stored with
no more writing, and a field of a type no form knows is refused when its module loads,
never silently dropped from what is stored. The events of the action log and the table's
state are kept this way."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any, ClassVar, NamedTuple, Protocol, get_type_hints

Form = tuple[Callable[[Any], Any], Callable[[Any], Any]]
"""How a value is written to JSON, and read back."""


class StoredField(NamedTuple):
    """One field as it is stored: its name, its form, whether stored data must hold it
    (it has no default: data stored before a field with a default was added still
    loads), and whether it is left out while None, its default (:class:`Kinds`)."""

    name: str
    store: Callable[[Any], Any]
    load: Callable[[Any], Any]
    required: bool
    unset: bool = False


def same(value: Any) -> Any:
    """The form of a value JSON holds as it is."""
    return value


def stored_fields(
    cls: type, forms: Mapping[object, Form], refused: tuple[str, ...] = ()
) -> tuple[StoredField, ...]:
    """``cls``'s dataclass fields as they are stored; TypeError for a field of a type
    ``forms`` does not know, or one named in ``refused`` (a key the stored form keeps for
    itself)."""
    hints = get_type_hints(cls)
    stored = []
    for field in fields(cls):
        form = forms.get(hints[field.name])
        if form is None or field.name in refused:
            raise TypeError(f"{cls.__name__}.{field.name}: cannot store a {hints[field.name]}")
        required = field.default is MISSING and field.default_factory is MISSING
        stored.append(StoredField(field.name, *form, required, unset=field.default is None))
    return tuple(stored)


class Kinded(Protocol):
    kind: ClassVar[str]


class Kinds:
    """Values of several dataclasses told apart by their ``kind`` (a class variable),
    each kept as JSON: its ``kind`` and each of its fields in its stored form."""

    def __init__(self, classes: tuple[type[Kinded], ...], forms: Mapping[object, Form]) -> None:
        self._kinds: dict[str, tuple[type, tuple[StoredField, ...]]] = {
            cls.kind: (cls, stored_fields(cls, forms, refused=("kind",))) for cls in classes
        }

    def to_dict(self, value: Any) -> dict[str, Any]:
        """``value`` as JSON data. A field whose default is None is written only when it
        holds something, so that a field added so (a cancel's reason, say) leaves what
        earlier releases stored, and store still, as it was."""
        data: dict[str, Any] = {"kind": value.kind}
        for field in self._kinds[value.kind][1]:
            held = getattr(value, field.name)
            if not (field.unset and held is None):
                data[field.name] = field.store(held)
        return data

    def from_dict(self, data: dict[str, Any]) -> Any:
        """The value :meth:`to_dict` wrote; KeyError, TypeError or ValueError (or what a
        field's form raises) if it is not one."""
        cls, stored = self._kinds[data["kind"]]
        return cls(
            **{
                field.name: field.load(data[field.name])
                for field in stored
                if field.required or field.name in data
            }
        )
