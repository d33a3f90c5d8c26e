"""The undo history of a score sheet: the sidecar file ``FILE.undo`` that ``klabsite score undo`` reads.

Kept apart from :mod:`klabsite.records.sheet`: a sheet knows nothing of its history, and the
``score`` command writes the two together (see :class:`History`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from klabsite.records.sheet import SheetError

__all__ = ["Change", "History", "HISTORY_FORMAT", "HISTORY_LIMIT", "HISTORY_BYTES", "text_digest"]


def text_digest(data: bytes) -> str:
    """The SHA-256 hex digest identifying one version of a sheet file."""
    return hashlib.sha256(data).hexdigest()


def _encode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _decode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class Change:
    """One change to the sheet file: what it was, the file before it, and the digest after it.

    ``before`` is ``None`` when the change created the file.
    """

    command: str
    before: bytes | None
    after: str

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored in the history file."""
        return {"command": self.command, "before": None if self.before is None else _encode(self.before),
                "after": self.after}


HISTORY_FORMAT = "klabsite-score-undo 1"
"""The ``format`` value of an undo history file."""

HISTORY_LIMIT = 500
"""Changes kept in an undo history (the oldest are forgotten beyond this)."""

HISTORY_BYTES = 8 * 1024 * 1024
"""The most sheet bytes an undo history keeps (the oldest changes are forgotten beyond this)."""

HISTORY_FILE_LIMIT = 8 * HISTORY_BYTES
"""A history file larger than this is not one klabsite wrote (its JSON is at most ~6 × its bytes)."""

_COMMAND = re.compile(r"new|(?:add|edit|delete) deal [1-9][0-9]{0,8}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


def _change(item: Any) -> Change:
    """One change read from a history file (``ValueError`` if it is not one klabsite wrote)."""
    command, before, after = item["command"], item["before"], item["after"]
    if not (isinstance(command, str) and _COMMAND.fullmatch(command)):
        raise ValueError("not a change")
    if not (isinstance(after, str) and _DIGEST.fullmatch(after)):
        raise ValueError("not a digest")
    if before is not None and not isinstance(before, str):
        raise ValueError("not a file")
    return Change(command, None if before is None else _decode(before), after)


@dataclass
class History:
    """The undo history of one sheet file, kept in the sidecar file ``FILE.undo`` (JSON).

    Why a sidecar and not a tag inside the record: a match's id is the digest of its whole
    canonical file, and the replay URLs use it; a history tag would make two identical sheets
    differ by how they were typed in, leak every correction to whoever the sheet is shared
    with, and put ever-growing snapshots on one tag line. The record stays exactly what
    ``docs/record-format.md`` describes; deleting ``FILE.undo`` only forgets the history.

    Each :class:`Change` keeps the full file before it (sheets are small) and the digest of the
    file after it, so an undo restores the exact bytes, and is refused when the file was
    changed since (by hand, say) instead of silently dropping that change. The ``score``
    command replaces the sheet and its history together: both new versions are written to
    temporary files first, then renamed, and a failure puts the old ones back. Should the
    process die between the two renames, a change found in the history whose ``before`` is the
    current file and whose ``after`` is not never landed (or was undone) and is dropped.
    """

    changes: list[Change] = field(default_factory=list)

    @classmethod
    def from_text(cls, text: str | bytes) -> History:
        """Read a history file (raises :class:`SheetError` if it is not one)."""
        try:
            if len(text) > HISTORY_FILE_LIMIT:
                raise ValueError("too large")
            data = json.loads(text)
            if data.get("format") != HISTORY_FORMAT:
                raise ValueError("unknown format")
            changes = [_change(item) for item in data["changes"]]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            raise SheetError("the undo history is not a klabsite score history (delete it to start "
                             "a new one)") from None
        return cls(changes)

    def to_text(self) -> str:
        """The history file's text (JSON, one change per line)."""
        items = ",\n".join(json.dumps(change.to_json(), ensure_ascii=True) for change in self.changes)
        body = f"[\n{items}\n]" if items else "[]"
        return f'{{"format": "{HISTORY_FORMAT}", "changes": {body}}}\n'

    def current(self, data: bytes | None) -> History:
        """This history with the changes that never landed on ``data`` (the file now) dropped."""
        changes = list(self.changes)
        digest = None if data is None else text_digest(data)
        while changes and changes[-1].after != digest and changes[-1].before == data:
            changes.pop()
        return History(changes)

    def pushed(self, command: str, before: bytes | None, after: bytes) -> History:
        """This history with one more change (the oldest forgotten beyond :data:`HISTORY_LIMIT`
        changes or :data:`HISTORY_BYTES`)."""
        changes = [*self.current(before).changes, Change(command, before, text_digest(after))]
        changes = changes[-HISTORY_LIMIT:]
        kept = sum(len(change.before or b"") for change in changes)
        while len(changes) > 1 and kept > HISTORY_BYTES:
            kept -= len(changes.pop(0).before or b"")
        return History(changes)

    def undo(self, data: bytes | None) -> tuple[Change, History]:
        """The change to revert on the file ``data`` and the history after reverting it."""
        history = self.current(data)
        if not history.changes:
            raise SheetError("nothing to undo")
        change = history.changes[-1]
        if data is None or change.after != text_digest(data):
            raise SheetError(f"cannot undo {change.command}: the file was changed since klabsite score "
                             "wrote it (delete the .undo file to forget the history)")
        if change.before is None:
            raise SheetError(f"nothing to undo before {change.command}, which created the sheet "
                             "(delete the file to remove it)")
        return change, History(history.changes[:-1])
