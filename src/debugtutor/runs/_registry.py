"""Things of one kind known by name: every arena registers its solvers (instructors, techniques) in one of these.

An arena has the same parts everywhere: loaders for its data, a :class:`Registry` of the ways to answer its items,
scoring, and a function that binds them into an :class:`~debugtutor.runs.EvalTask` for the runner. Adding a
technique to an arena is one ``@REGISTRY.register(...)`` on its factory; the CLI lists and builds from the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from debugtutor.errors import InputError

T = TypeVar("T")
FactoryT = TypeVar("FactoryT", bound=Callable[..., Any])


@dataclass(frozen=True)
class RegistryEntry(Generic[T]):
    """One registered thing: its name, how to build it, one line of help and the name tables print."""

    name: str
    factory: Callable[..., T]
    help: str
    display: str


class Registry(Generic[T]):
    """Names -> factories of one kind of thing, in registration order; iterating gives the names."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, RegistryEntry[T]] = {}
        self._renamed: dict[str, str] = {}

    def register(self, name: str, *, help: str, display: str | None = None) -> Callable[[FactoryT], FactoryT]:
        """Decorate the factory of ``name`` (called with the options :meth:`create` is given)."""

        def add(factory: FactoryT) -> FactoryT:
            if name in self._entries:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._entries[name] = RegistryEntry(name, factory, help, display or name)
            return factory

        return add

    def renamed(self, old: str, explanation: str) -> None:
        """Remember a name that is gone, so asking for it says what replaced it."""
        self._renamed[old] = explanation

    def create(self, name: str, /, **options: Any) -> T:
        """A new ``name``; an unknown name is an InputError listing the known ones."""
        entry = self._entries.get(name)
        if entry is None:
            hint = self._renamed.get(name) or ", ".join(self._entries)
            raise InputError(f"unknown {self.kind} '{name}'", field=self.kind, hint=hint)
        return entry.factory(**options)

    def entry(self, name: str) -> RegistryEntry[T]:
        if name not in self._entries:
            self.create(name)  # (raises the InputError)
        return self._entries[name]

    def display(self, name: str) -> str:
        return self._entries[name].display if name in self._entries else name

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __len__(self) -> int:
        return len(self._entries)
