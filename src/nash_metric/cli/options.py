"""The scorer flags, generated from NASHConfig's option table, and the config and scorer that parsed flags describe."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..config import NASHConfig, OptionError, OptionSpec, check_threshold, option_names, scorer_options
from .parser import one_line

if TYPE_CHECKING:
    from ..scorer import NASH


def threshold_value(text: str) -> float | str:
    """--threshold, checked now: the library's own message offers None, which no command line can type."""
    if text == "auto":
        return text
    try:
        return check_threshold(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a cosine in [-1, 1] or 'auto' (leave --threshold out for the "
                                         f"model's default), got {text!r}") from None


# argparse before 3.11 appends the default to a BooleanOptionalAction's help itself.
BOOLEAN_DEFAULT_NOTE = "" if sys.version_info < (3, 11) else " (default: %(default)s)"

# Types that check an option as the command line is parsed, in the command line's words (not in config.py: argparse
# is the CLI's alone).
COMMAND_LINE_TYPES: dict[str, Callable[[str], Any]] = {"threshold": threshold_value}


def flag_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_option_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup, option: OptionSpec,
                        help: str | None = None) -> None:
    """The flag of one option: its default, choices and type from the option table; `help` replaces its doc.

    A boolean option gets `--name` and `--no-name`, so that either default can be overridden."""
    text = (help or option.doc).replace("%", "%%")
    if isinstance(option.default, bool):
        parser.add_argument(flag_name(option.name), action=argparse.BooleanOptionalAction, default=option.default,
                            help=text + BOOLEAN_DEFAULT_NOTE)
        return
    text += " (default: %(default)s)"
    settings = dict(option.cli)
    if option.name in COMMAND_LINE_TYPES:
        settings["type"] = COMMAND_LINE_TYPES[option.name]
    parser.add_argument(flag_name(option.name), default=option.default, help=text, **settings)


def add_config_arguments(parser: argparse.ArgumentParser, options: Sequence[OptionSpec] | None = None) -> None:
    """One flag per NASHConfig option (`--num-layers`, `--bertscore-idf` / `--no-bertscore-idf`, ...)."""
    group = parser.add_argument_group("scorer options (see NASHConfig)")
    for option in scorer_options() if options is None else options:
        add_option_argument(group, option)
    parser.set_defaults(check_scorer_options=True)  # `main` checks them together before any model loads


def config_from_args(args: argparse.Namespace, **overrides: Any) -> NASHConfig:
    """The NASHConfig that options parsed by `add_config_arguments` describe, with `overrides`."""
    return NASHConfig.from_options(**{**{name: getattr(args, name) for name in option_names()}, **overrides})


def check_scorer_options(args: argparse.Namespace) -> None:
    """Scorer options that do not go together are a usage error now, as argparse's own are, before any model loads."""
    if getattr(args, "check_scorer_options", False):
        try:
            config_from_args(args)
        except (ValueError, TypeError) as exc:
            args.command_parser.error(_as_flags(exc))


def _as_flags(exc: Exception) -> str:
    """The library's message with the options it names spelled as the flags the user typed (--batch-size)."""
    return one_line(exc.spelled(flag_name) if isinstance(exc, OptionError) else str(exc))


def scorer_from_args(args: argparse.Namespace, **overrides: Any) -> NASH:
    """The NASH scorer that options parsed by `add_config_arguments` describe."""
    from ..scorer import NASH

    return NASH(config_from_args(args, **overrides))


def scorer_factory(args: argparse.Namespace) -> Callable[..., NASH]:
    """What a benchmark's `evaluate` takes: `factory(**overrides)` builds the scorer the flags describe."""
    return lambda **overrides: scorer_from_args(args, **overrides)
