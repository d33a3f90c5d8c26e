"""Rule options of both games, as frozen dataclasses read from and written to the ``Rules`` tag.

Every option of the rule book is a field whose default is the rule book's default. The
``Rules`` tag lists only options that differ from the default, written ``name=value``;
:meth:`GameRules.format` writes them in the order of the rule book.

>>> rules = KlaberjassRules.parse("equal-meld=elder long-sequence=100")
>>> rules.equal_meld, rules.long_sequence
('elder', 100)
>>> rules.format()
'long-sequence=100 equal-meld=elder'
>>> KlaverjasRules.parse("trick-rules=rotterdam").format()
'trick-rules=rotterdam'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from klabsite.text import LARGEST_NUMBER, quote, whole_number

__all__ = ["OptionError", "KlaberjassRules", "KlaverjasRules", "GameRules"]


class OptionError(ValueError):
    """An unknown option, or a value an option does not take."""


T = TypeVar("T", bound="GameRules")


@dataclass(frozen=True)
class GameRules:
    """Shared machinery: parsing and writing ``name=value`` options, validation."""

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}
    """For each text option (record name), its values, the default first."""

    target: int = 0
    deals: int | None = None

    @classmethod
    def option_names(cls) -> list[str]:
        """Record names of every option, in rule-book order."""
        return [field.name.replace("_", "-") for field in _ordered_fields(cls)]

    @classmethod
    def parse(cls: type[T], text: str) -> T:
        """Read a ``Rules`` tag value: ``name=value`` pairs separated by blanks, any order."""
        values: dict[str, Any] = {}
        names = cls.option_names()
        for word in text.split():
            name, sep, value = word.partition("=")
            if not sep or not name or not value:
                raise OptionError(f"cannot read option {quote(word)}: write name=value, e.g. {names[0]}=…")
            if name not in names:
                raise OptionError(f"unknown option {quote(name)}: known options are {', '.join(names)}")
            field = name.replace("-", "_")
            if field in values:
                raise OptionError(f"option {name!r} is given twice")
            values[field] = cls._read_value(name, value)
        return cls(**values)

    @classmethod
    def _read_value(cls, name: str, value: str) -> Any:
        if name in ("target", "deals", "long-sequence"):
            number = whole_number(value)
            if number is None or not 0 < number <= LARGEST_NUMBER:
                raise OptionError(f"option {name} takes a positive whole number, not {quote(value)}")
            return number
        choices = cls.CHOICES[name]
        if value not in choices:
            raise OptionError(f"option {name} takes {' or '.join(choices)}, not {quote(value)}")
        return value

    def __post_init__(self) -> None:
        for name, choices in self.CHOICES.items():
            value = getattr(self, name.replace("-", "_"))
            if value not in choices:
                raise OptionError(f"option {name} takes {' or '.join(choices)}, not {value!r}")
        if self.target <= 0:
            raise OptionError(f"option target takes a positive whole number, not {self.target!r}")
        if self.deals is not None and self.deals <= 0:
            raise OptionError(f"option deals takes a positive whole number, not {self.deals!r}")

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults, record name → value, in rule-book order."""
        default = type(self)()
        return {
            field.name.replace("_", "-"): getattr(self, field.name)
            for field in _ordered_fields(type(self))
            if getattr(self, field.name) != getattr(default, field.name)
        }

    def format(self) -> str:
        """The ``Rules`` tag value: the options that differ from the defaults."""
        return " ".join(f"{name}={value}" for name, value in self.changed().items())

    def __str__(self) -> str:
        return self.format()


def _ordered_fields(cls: type[GameRules]) -> list[dataclasses.Field[Any]]:
    order = getattr(cls, "ORDER", ())
    fields = {field.name: field for field in dataclasses.fields(cls)}
    return [fields[name] for name in order]


@dataclass(frozen=True)
class KlaberjassRules(GameRules):
    """The options of Klaberjass (the rule book, "Klaberjass"), defaults in bold there."""

    ORDER: ClassVar[tuple[str, ...]] = (
        "schmeiss", "schmeiss_refused", "schmeiss_redeal", "schmeiss_round_2",
        "long_sequence", "equal_meld", "no_trick_melds", "must_beat", "equal_score",
        "target", "deals",
    )
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "schmeiss": ("on", "off"),
        "schmeiss-refused": ("schmeisser-makes", "refuser-makes"),
        "schmeiss-redeal": ("dealer-changes", "same-dealer"),
        "schmeiss-round-2": ("off", "on"),
        "equal-meld": ("neither", "elder"),
        "no-trick-melds": ("score", "void"),
        "must-beat": ("trump-lead", "any-lead"),
        "equal-score": ("maker-scores-nothing", "next-deal-winner"),
    }

    target: int = 500
    deals: int | None = None
    schmeiss: str = "on"
    schmeiss_refused: str = "schmeisser-makes"
    schmeiss_redeal: str = "dealer-changes"
    schmeiss_round_2: str = "off"
    long_sequence: int = 50
    equal_meld: str = "neither"
    no_trick_melds: str = "score"
    must_beat: str = "trump-lead"
    equal_score: str = "maker-scores-nothing"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.long_sequence not in (50, 100):
            raise OptionError(f"option long-sequence takes 50 or 100, not {self.long_sequence!r}")

    @classmethod
    def _read_value(cls, name: str, value: str) -> Any:
        result = super()._read_value(name, value)
        if name == "long-sequence" and result not in (50, 100):
            raise OptionError(f"option long-sequence takes 50 or 100, not {quote(value)}")
        return result


@dataclass(frozen=True)
class KlaverjasRules(GameRules):
    """The options of Klaverjas (the rule book, "Klaverjas"), defaults in bold there."""

    ORDER: ClassVar[tuple[str, ...]] = ("trump_choice", "trick_rules", "undertrump", "target", "deals")
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "trump-choice": ("free", "forced", "turned"),
        "trick-rules": ("amsterdam", "rotterdam"),
        "undertrump": ("required", "forbidden"),
    }

    target: int = 1500
    deals: int | None = None
    trump_choice: str = "free"
    trick_rules: str = "amsterdam"
    undertrump: str = "required"
