"""The exceptions debugtutor raises on purpose, each mapped to a CLI exit code.

Every error a user can cause or fix carries one clear line: what failed, which file, field or model, and what to
do about it. The CLI prints that line (a traceback only with ``--debug``) and exits with ``exit_code``:
2 for usage and input errors, 1 for failures of a model, a server or the environment.
"""

from __future__ import annotations

import os
from types import ModuleType


class DebugtutorError(Exception):
    """Base class for errors that are reported to the user as one line."""

    exit_code: int = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class InputError(DebugtutorError):
    """Bad input from the user: a malformed file, a missing field, an unknown name. Exit code 2."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = []
        if path is not None:
            where.append(f"{path}:{line}" if line is not None else str(path))
        if field is not None:
            where.append(f"field '{field}'")
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(prefix + message, hint=hint)
        self.path = path
        self.line = line
        self.field = field


class MissingExtraError(DebugtutorError):
    """An optional dependency is not installed; the message says which extra brings it. Exit code 2."""

    exit_code = 2

    def __init__(self, feature: str, packages: list[str], extra: str) -> None:
        super().__init__(
            f"{feature} needs {', '.join(packages)}, which is not installed",
            hint=f"pip install 'debugtutor[{extra}]'",
        )
        self.extra = extra


class ModelError(DebugtutorError):
    """A model back-end failed after its retries (names the model, URL and status). Exit code 1."""

    exit_code = 1


class CacheMissError(ModelError):
    """A response was not in the cache and ``--cache-only`` forbids calling the model."""


class StopRunError(DebugtutorError):
    """Raised inside one item when going on with the run is pointless (the model keeps failing): the runner records
    the item, starts no further items, and ends the run as failed with this message as the reason. Exit code 1."""

    exit_code = 1


class ModelUnavailableError(ModelError, StopRunError):
    """A model's recent calls all failed, so the back-end stopped calling it (its circuit breaker is open)."""


class SandboxError(DebugtutorError):
    """The sandbox itself could not run (not the program inside it failing). Exit code 1."""

    exit_code = 1


class DataError(DebugtutorError):
    """A dataset could not be fetched, verified or found. Exit code 1."""

    exit_code = 1


def require(module: str, *, feature: str, extra: str, package: str | None = None) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` with the install hint for ``extra``."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(feature, [package or module], extra) from exc


def read_text(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> str:
    """The text of a file the user named, or :class:`InputError` naming the file (and the line of bad bytes).

    The one way debugtutor reads a user's text files, so a missing file, a folder, or bytes that are not UTF-8 all
    give the same one-line error with exit code 2 (never a bare ``UnicodeDecodeError``). A UTF-8 byte-order mark is
    dropped.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", path=name) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"is not valid {encoding.upper()} text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            path=name,
            line=line,
            hint="convert it to UTF-8, e.g. iconv -f latin1 -t utf-8",
        ) from None
    return text.removeprefix("\ufeff")
