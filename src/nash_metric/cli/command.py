"""`Command`: one row of the `nash` command table (name, help, flags, what runs it) and how it joins a parser."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .options import add_config_arguments

AddArguments = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    return None


@dataclass(frozen=True)
class Command:
    """A `nash` subcommand: its own flags, then (with `scorer_options`) the NASHConfig flags; either `run`, or
    `subcommands` chosen by a further name (`nash bench numfine`), stored in the namespace as `dest`. `extra`: the
    extra it needs beyond the core install (`common.extras`; its subcommands inherit it), checked before it runs."""

    name: str
    help: str
    add_arguments: AddArguments = _no_arguments
    run: Run | None = None
    description: str | None = None
    scorer_options: bool = False
    subcommands: tuple[Command, ...] = ()
    dest: str | None = None
    extra: str | None = None

    def add_to(self, commands: argparse._SubParsersAction) -> None:
        parser = commands.add_parser(self.name, help=self.help, description=self.description)
        self.add_arguments(parser)
        if self.extra is not None:  # a subcommand's parser, which sets no `extra`, keeps its command's
            parser.set_defaults(extra=self.extra)
        if self.scorer_options:
            add_config_arguments(parser)
        if self.subcommands:
            add_commands(parser, self.subcommands, dest=self.dest or self.name)
        if self.run is not None:
            # `main` reports a UsageError of the run, or a bad combination of scorer options, with this parser.
            parser.set_defaults(func=self.run, command_parser=parser)


def add_commands(parser: argparse.ArgumentParser, commands: Sequence[Command], dest: str) -> None:
    """`commands` as the subcommands of `parser`, one of which is required."""
    choices = parser.add_subparsers(dest=dest, required=True)
    for command in commands:
        command.add_to(choices)
