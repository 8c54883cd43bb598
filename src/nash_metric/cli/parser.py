"""The `nash` parser and its messages: every message on one line; a usage error is one `nash: error:` line and a
pointer to the command's help; value types checked as the command line is parsed, before any model loads."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from ..common.validation import cut


class UsageError(ValueError):
    """Arguments that parse but do not go together (two texts and --pairs): reported as argparse reports its own."""


def usage_message(prog: str, message: str) -> str:
    """What a usage error prints: the error, then where the usage is (the full usage block would bury the error)."""
    return f"nash: error: {message}\nsee {prog} --help\n"


MESSAGE_CHARS = 1000  # a warning or error line is cut here, whatever input it echoes


def one_line(message: BaseException | Warning | str) -> str:
    """`message` on one line: its lines joined, the spaces inside them kept, so a quoted text ('   ') reads as given;
    at most `MESSAGE_CHARS` characters (a message that echoes a huge input stays readable)."""
    if isinstance(message, KeyError) and message.args:
        message = message.args[0]  # str() of a KeyError is the repr of its argument
    return cut(" ".join(line.strip() for line in str(message).splitlines() if line.strip()), MESSAGE_CHARS)


class UsageParser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are `usage_message`s; its subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, usage_message(self.prog, message))


def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    return parse


def float_in(low: float, high: float, *, closed: bool = False) -> Callable[[str], float]:
    """An argparse type: a float in (low, high), or [low, high] with `closed`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        inside = low <= value <= high if closed else low < value < high
        if not inside:
            interval = f"[{low:g}, {high:g}]" if closed else f"({low:g}, {high:g})"
            raise argparse.ArgumentTypeError(f"must be in {interval}, got {text}")
        return value

    return parse


POSITIVE = int_in(1)
NON_NEGATIVE = int_in(0)
PORT = int_in(1, 65535)
ANY_NUMBER = float_in(float("-inf"), float("inf"))
POSITIVE_NUMBER = float_in(0.0, float("inf"))
