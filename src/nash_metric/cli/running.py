"""How a parsed `nash` command runs and ends: exit 0, 2 for a user's error (one `nash: error:` line; a missing extra
is one: `nash bench numfine needs the bench extra: pip install 'nash-metric[bench]'`), 1 for a bug (one line; the
traceback only under --debug), 130 when interrupted, 141 when the reader of its output left."""

from __future__ import annotations

import argparse
import os
import re
import sys
import warnings

from ..common.extras import MissingExtraError, extra_for, install_command, missing
from ..common.interrupt import interruptible
from .parser import UsageError, one_line, usage_message

# What a user can get wrong (an option, a file, a model id, a port); anything else is a bug.
USER_ERRORS = (ValueError, TypeError, KeyError, OSError)
# A library message's hint at a keyword (`pass encoding= to choose another`): a name and `=` with no value after it.
KEYWORD_HINT = re.compile(r"(?<![\w.=-])([a-z][a-z0-9_]*)=(?=$|[\s)/,;:.])")


def as_flags(message: str, parser: argparse.ArgumentParser | None) -> str:
    """`message` with each keyword hint the library writes (`encoding=`) spelled as the flag the command takes
    (`--encoding`); a keyword the command has no flag for is left as it is."""
    flags = getattr(parser, "_option_string_actions", {})

    def spell(hint: re.Match[str]) -> str:
        flag = "--" + hint.group(1).replace("_", "-")
        return flag if flag in flags else hint.group(0)

    return KEYWORD_HINT.sub(spell, message)


def needs_extra(args: argparse.Namespace, extra: str) -> str:
    """The line of a command whose `extra` is not installed."""
    parser = getattr(args, "command_parser", None)
    return f"nash: error: {parser.prog if parser else 'nash'} needs the {extra} extra: {install_command(extra)}"


def run(args: argparse.Namespace, *, debug: bool) -> int:
    """The command's exit status; what went wrong, in one line on stderr."""
    extra = getattr(args, "extra", None)  # the extra the command needs (`Command.extra`), checked before it runs
    if extra is not None and missing(extra):
        print(needs_extra(args, extra), file=sys.stderr)
        return 2
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # weight-loading bars drown the CLI's own output
    parser = getattr(args, "command_parser", None)
    format_warning = warnings.formatwarning
    if not debug:  # one `nash: warning:` line, not the source line that raised it
        warnings.formatwarning = lambda message, *_, **__: f"nash: warning: {as_flags(one_line(message), parser)}\n"
    try:
        with interruptible():  # a Ctrl-C that a finaliser swallows is raised again between chunks
            return int(args.func(args) or 0)
    except UsageError as exc:
        print(usage_message(args.command_parser.prog, as_flags(one_line(exc), parser)), end="", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Every output is renamed into place only when complete (common.atomic): nothing half-written is left.
        print("nash: interrupted; outputs are written whole or not at all: one this run did not finish is as it "
              "was", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `nash score ... | head`: the reader left; stop quietly, as other Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again
        return 141
    except USER_ERRORS as exc:
        if debug:
            raise
        print(f"nash: error: {as_flags(one_line(exc), parser)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # a module of an extra met on the way (pyarrow for a Parquet file, ...)
        if debug:
            raise
        needed = exc.extra if isinstance(exc, MissingExtraError) else extra_for(exc.name, extra)
        if needed is None:
            return _internal(exc)
        print(f"nash: error: {exc}" if isinstance(exc, MissingExtraError) else needs_extra(args, needed),
              file=sys.stderr)
        return 2
    except Exception as exc:
        if debug:
            raise
        return _internal(exc)
    finally:
        warnings.formatwarning = format_warning  # `main` may run inside a host program (tests, notebooks)


def _internal(exc: Exception) -> int:
    """A bug: one line, and how to get the traceback."""
    print(f"nash: internal error ({type(exc).__name__}: {one_line(exc)}); this is a bug: rerun with --debug "
          "for the traceback and report it", file=sys.stderr)
    return 1
