"""Generic file helpers: text in with file:line errors, a JSON file, an output path checked before the work.

``read_text(path, encoding=None)`` reads a text file whole: ``encoding`` if given, else UTF-8 (a BOM dropped), and a
file that is not valid UTF-8 (the Financial PhraseBank release is ISO-8859-1) is decoded as Latin-1 with a warning
naming the first offending line. `corpus.textfile.open_text` applies the same rules block by block, and the record
readers (CSV/TSV, JSONL, Parquet; sentence files) are `corpus.records` and `corpus.sentences`.

Binary or mostly non-text files are refused (``InputFileError`` naming the first bad line), whatever the
decoding: a line is bad when it holds a NUL, or at least ``MIN_NON_TEXT_CHARS`` non-text characters making up
more than ``MAX_NON_TEXT_SHARE`` of it. Non-text means control characters other than whitespace (Unicode
category Cc less tab, line and page breaks), surrogates (Cs), private-use characters (Co) and U+FFFD (what a
decoder leaves for bytes it could not read). Random bytes are ~25% such characters; real text, even
Windows-1252 text read as Latin-1 (a stray U+0092 for an apostrophe), stays far below 10%.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
import tempfile
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

MAX_NON_TEXT_SHARE = 0.1  # a line with more than this share of non-text characters ...
MIN_NON_TEXT_CHARS = 2  # ... and at least this many is binary (one stray character is a typo, not binary)
# Non-text characters: Cc without whitespace (tab, LF, VT, FF, CR, FS..US, NEL), Cs, Co, U+FFFD (tests pin the set).
_NON_TEXT = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff\ue000-\uf8ff"
                       "\U000f0000-\U000ffffd\U00100000-\U0010fffd\ufffd]")


class InputFileError(ValueError):
    """A problem in an input file, located as ``file:line``."""

    def __init__(self, path: str | Path, line: int | None, message: str):
        self.path, self.line = str(path), line
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")


def read_text(path: str | Path, encoding: str | None = None) -> str:
    """File contents as str: ``encoding`` if given, else UTF-8 with a warned Latin-1 fallback; binary is refused.

    ``textfile.open_text`` applies the same rules to a file too large to hold, block by block.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    raw = path.read_bytes()
    encoding = encoding or bom_encoding(raw[:4])
    if encoding is not None:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise not_valid(path, raw[: exc.start].count(b"\n") + 1, encoding, exc) from None
        except LookupError:
            raise unknown_encoding(path, encoding) from None
        check_text(path, text)
        return text
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw.decode("latin-1")
        check_text(path, text, READ_AS_LATIN1)  # binary is an error, not a warned fallback
        warn_latin1(path, raw[: exc.start].count(b"\n") + 1, raw[exc.start])
        return text
    check_text(path, text)
    return text


READ_AS_LATIN1 = " (read as Latin-1: it is not UTF-8)"  # what a binary refusal adds after the Latin-1 fallback
# Byte-order marks, UTF-32's first: its little-endian mark begins with UTF-16's. UTF-8's is read by "utf-8-sig".
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
UTF16_HINT = "; it looks like UTF-16 without a byte-order mark: pass encoding= utf-16-le (or utf-16-be)"


def bom_encoding(head: bytes) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte-order mark at the start of a file names (its codec drops the mark)."""
    return next((codec for bom, codec in _BOMS if head.startswith(bom)), None)


def not_valid(path: str | Path, line: int, encoding: str, exc: UnicodeDecodeError) -> InputFileError:
    return InputFileError(path, line, f"not valid {encoding}: {exc.reason}")


def unknown_encoding(path: str | Path, encoding: str) -> InputFileError:
    return InputFileError(path, None, f"unknown encoding {encoding!r}; give encoding= a codec name Python knows "
                          "('utf-8', 'cp1252', 'latin-1', ...)")


def warn_latin1(path: str | Path, line: int, byte: int, stacklevel: int = 2) -> None:
    """The warning of the Latin-1 fallback, naming the first line that is not UTF-8 and its byte."""
    warnings.warn(f"{path}:{line}: not valid UTF-8 (byte {byte:#04x}); decoding the file as Latin-1 (pass "
                  "encoding= to choose another)", UnicodeWarning, stacklevel=stacklevel + 1)


def check_text(path: str | Path, text: str, decoded: str = "") -> None:
    """Refuse binary or mostly non-text content, naming the first bad line (rule in the module docstring)."""
    if not has_non_text(text):
        return  # the common case: one regex scan, no per-line work
    for number, line in enumerate(_lines(text), start=1):
        check_line(path, number, line, decoded)


def check_line(path: str | Path, number: int, line: str, decoded: str = "") -> None:
    """`check_text` for one line, given without its line ending."""
    bad = _NON_TEXT.findall(line)
    if "\x00" in line:
        problem = f"a NUL byte at column {line.index(chr(0)) + 1}"
    elif len(bad) >= MIN_NON_TEXT_CHARS and len(bad) > MAX_NON_TEXT_SHARE * len(line):
        first = _NON_TEXT.search(line)
        assert first is not None
        problem = (f"{len(bad)} of its {len(line)} characters are control or non-text characters "
                   f"(first U+{ord(first.group()):04X} at column {first.start() + 1})")
    else:
        return
    # Text in UTF-16 read as UTF-8: a NUL after every ASCII character.
    hint = UTF16_HINT if line.count("\x00") * 3 >= len(line) > 1 else ""
    raise InputFileError(path, number, f"binary or not text{decoded}: {problem}; expected text with one "
                         f"sentence (or record) a line{hint}")


def has_non_text(text: str) -> bool:
    """Whether ``text`` holds any non-text character (then `check_line` decides line by line)."""
    return _NON_TEXT.search(text) is not None


def _lines(text: str) -> list[str]:
    """Physical lines as an editor numbers them (str.splitlines would also break at U+0085, U+2028, form feed...)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def read_json(path: str | Path, text: str | None = None) -> Any:
    """The JSON value of a ``.json`` file (``text``: its contents, already read with ``read_text``'s rules);
    invalid JSON is an ``InputFileError`` naming the file, the line and the column."""
    try:
        return json.loads(read_text(path) if text is None else text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})") from None



# -- output paths ------------------------------------------------------------------------------------------------


def check_writable(path: str | os.PathLike[str], option: str | None = None, suffixes: Sequence[str] = (),
                   check: Callable[[Path], object] | None = None) -> Path:
    """`path` checked before the work whose result it is to hold (a model load, a corpus's scoring), so that a bad
    path costs nothing: its suffix one of `suffixes` (where the format depends on it), what `check` (a format's
    own rule) accepts, its folder an existing folder that takes a new file, `path` no folder, and an existing
    file there writable. Nothing is left behind or truncated: a new file is tried as a temporary sibling, an
    existing one opened for appending. The ValueError names `option` as the caller spells it (`--output` on the
    command line, `output=` in Python) before the path.
    """
    out = Path(path).expanduser()
    where = f"{option} {path}" if option else str(path)
    if suffixes and out.suffix.lower() not in suffixes:
        raise ValueError(f"{where}: unsupported format; use one of {', '.join(suffixes)}")
    if check is not None:
        try:
            check(out)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    problem = _why_unwritable(out)
    if problem is not None:
        raise ValueError(f"{where}: cannot write there: {problem}")
    return out


def _why_unwritable(path: Path) -> str | None:
    """Why a file cannot be written at `path`, or None when it can."""
    folder = path.parent
    try:
        if not folder.exists():
            return f"the folder {str(folder)!r} does not exist"
        if not folder.is_dir():
            return f"{str(folder)!r} is not a folder"
        if path.is_dir():
            return "it is a folder"
        if not path.exists():
            descriptor, probe = tempfile.mkstemp(prefix=".nash-write-check-", dir=folder)
            os.close(descriptor)
            os.unlink(probe)
        elif stat.S_ISREG(path.stat().st_mode):
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))  # append: the file is left as it is
        elif not os.access(path, os.W_OK):  # a device or pipe: opening it could block or consume
            return "permission denied"
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
