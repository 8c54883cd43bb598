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
The refusal says what the file looks like, from its first ``HEAD_BYTES`` bytes (`head_kind`): UTF-16 without a
byte-order mark (its NULs all in odd places, or all in even ones, and the rest text) gets the encoding to pass; a
file with other NUL bytes (an image, an archive, a program) is named binary. A folder is named a folder.
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
from typing import Any, Literal

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


def check_input_file(path: str | Path) -> Path:
    """`path` if it is a file to read; else FileNotFoundError (nothing there) or IsADirectoryError (a folder:
    `nash check --source .` meant a file in it), each naming the path."""
    path = Path(path)
    if path.is_dir():
        where = path if path.name else path.resolve()  # '.' named as the folder it is
        raise IsADirectoryError(f"{where}: is a folder, not a file; pass one of the files in it")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    return path


def read_text(path: str | Path, encoding: str | None = None) -> str:
    """File contents as str: ``encoding`` if given, else UTF-8 with a warned Latin-1 fallback; binary is refused.

    ``textfile.open_text`` applies the same rules to a file too large to hold, block by block.
    """
    path = check_input_file(path)
    raw = path.read_bytes()
    encoding = encoding or bom_encoding(raw[:4])
    if encoding is not None:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise not_valid(path, raw[: exc.start].count(b"\n") + 1, encoding, exc, raw[:HEAD_BYTES]) from None
        except LookupError:
            raise unknown_encoding(path, encoding) from None
        # What the raw bytes look like means something only where they were read a byte a character.
        check_text(path, text, head=raw[:HEAD_BYTES] if ascii_compatible(encoding) else b"")
        return text
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw.decode("latin-1")
        check_text(path, text, READ_AS_LATIN1, raw[:HEAD_BYTES])  # binary is an error, not a warned fallback
        warn_latin1(path, raw[: exc.start].count(b"\n") + 1, raw[exc.start])
        return text
    check_text(path, text, head=raw[:HEAD_BYTES])
    return text


def read_utf8(path: str | Path) -> str:
    """A file read as UTF-8 only, as JSON that the package wrote and a glossary are (no `encoding=` to name): a
    folder, a binary file or UTF-16 is an `InputFileError` saying which, rather than a codec's or JSON's message."""
    path = check_input_file(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        failure: UnicodeDecodeError | None = exc
    else:
        if "\x00" not in text:
            return text
        failure = None  # UTF-16 of ASCII decodes as UTF-8, a NUL after each character
    kind = head_kind(raw[:HEAD_BYTES])
    if kind == "binary":
        raise InputFileError(path, None, f"not UTF-8 text{BINARY_HINT}")
    if kind is not None:
        raise InputFileError(path, None, "not UTF-8 text; it looks like UTF-16 without a byte-order mark: save it "
                             "as UTF-8")
    if failure is not None:
        raise not_valid(path, raw[: failure.start].count(b"\n") + 1, "utf-8", failure)
    return text


READ_AS_LATIN1 = " (read as Latin-1: it is not UTF-8)"  # what a binary refusal adds after the Latin-1 fallback
# Byte-order marks, UTF-32's first: its little-endian mark begins with UTF-16's. UTF-8's is read by "utf-8-sig".
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
HEAD_BYTES = 4096  # the first bytes of a refused file, from which `head_kind` says what it looks like
BINARY_HINT = "; it looks like a binary file (e.g. an image or a program), not text: pass a text file"
HeadKind = Literal["utf-16-le", "utf-16-be", "binary"]
_ASCII_PROBE = b'\t\n\r ",:;[]{}09AZaz'
_CONTROL_BYTES = re.compile(rb"[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]")  # C0 controls less whitespace and ESC


def utf16_hint(codec: str) -> str:
    other = "utf-16-be" if codec == "utf-16-le" else "utf-16-le"
    return f"; it looks like UTF-16 without a byte-order mark: pass encoding= {codec} (or {other})"


def bom_encoding(head: bytes) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte-order mark at the start of a file names (its codec drops the mark)."""
    return next((codec for bom, codec in _BOMS if head.startswith(bom)), None)


def ascii_compatible(encoding: str) -> bool:
    """Whether `encoding` writes ASCII one byte a character (UTF-8, Latin-1, cp1252; not UTF-16 or UTF-32)."""
    try:
        return _ASCII_PROBE.decode(encoding) == _ASCII_PROBE.decode("ascii")
    except (UnicodeDecodeError, LookupError, TypeError):
        return False


def head_kind(head: bytes) -> HeadKind | None:
    """What a file that failed the text rule looks like, from its first bytes: 'utf-16-le' / 'utf-16-be' (text
    in UTF-16 without a byte-order mark), 'binary' (NUL bytes beside control bytes that no text holds: an image,
    an archive, a program), or None (mostly text with some bad lines: the line's problem says it all).

    UTF-16 text of Latin script has a NUL in every other byte, after each character (LE) or before it (BE), so its
    NULs fill one parity of places and miss the other; binary files hold NULs at both (PNG's chunk lengths, ELF's
    header fields). A CJK character with a zero low byte (U+4E00) may put a few at the other parity, so a head
    counts as UTF-16 when at least a quarter of its bytes are NULs of one parity, at most 1/32 as many are of the
    other, and it decodes in that byte order to characters that are all text.
    """
    if b"\x00" not in head:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    most, fewest = max(even, odd), min(even, odd)
    if most * 4 >= len(head) and fewest * 32 <= most:
        codec: HeadKind = "utf-16-le" if odd > even else "utf-16-be"
        # A head cut inside a surrogate pair ends in one replacement character, which is no evidence of binary.
        decoded = head[: len(head) // 2 * 2].decode(codec, errors="replace").removesuffix("\ufffd")
        if not has_non_text(decoded):  # U+0000 (two NUL bytes) and unpaired surrogates are non-text
            return codec
    # C0 control bytes other than whitespace: neither UTF-8 nor any one-byte code page writes them in text (their
    # multi-byte characters use bytes >= 0x80), so with a NUL they mark binary; one stray NUL in text does not.
    return "binary" if _CONTROL_BYTES.search(head) else None


def not_valid(path: str | Path, line: int, encoding: str, exc: UnicodeDecodeError, head: bytes = b"") -> InputFileError:
    """A decoding failure, with what the file looks like (`head_kind` of its first bytes `head`) when that says why."""
    kind = head_kind(head)
    hint = BINARY_HINT if kind == "binary" else utf16_hint(kind) if kind is not None else ""
    return InputFileError(path, line, f"not valid {encoding}: {exc.reason}{hint}")


def unknown_encoding(path: str | Path, encoding: str) -> InputFileError:
    return InputFileError(path, None, f"unknown encoding {encoding!r}; give encoding= a codec name Python knows "
                          "('utf-8', 'cp1252', 'latin-1', ...)")


def warn_latin1(path: str | Path, line: int, byte: int, stacklevel: int = 2) -> None:
    """The warning of the Latin-1 fallback, naming the first line that is not UTF-8 and its byte."""
    warnings.warn(f"{path}:{line}: not valid UTF-8 (byte {byte:#04x}); decoding the file as Latin-1 (pass "
                  "encoding= to choose another)", UnicodeWarning, stacklevel=stacklevel + 1)


def check_text(path: str | Path, text: str, decoded: str = "", head: bytes | None = None) -> None:
    """Refuse binary or mostly non-text content, naming the first bad line (rule in the module docstring).

    `head`: the file's first bytes, which say what a refused file looks like (`head_kind`); b"" for none (a file
    decoded by a codec that is not a byte a character); None (an upload held as text) for the text's start, its
    characters standing for bytes (exact for Latin-1, and for the ASCII that UTF-16 text shows when read as
    UTF-8).
    """
    if not has_non_text(text):
        return  # the common case: one regex scan, no per-line work
    if head is None:
        head = text[:HEAD_BYTES].encode("latin-1", errors="replace")
    for number, line in enumerate(_lines(text), start=1):
        check_line(path, number, line, decoded, head)


def check_line(path: str | Path, number: int, line: str, decoded: str = "", head: bytes = b"") -> None:
    """`check_text` for one line, given without its line ending; `head` as `check_text` takes it."""
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
    kind = head_kind(head)
    if kind == "binary":  # read as Latin-1 or not, it is no text: the decoding is beside the point
        raise InputFileError(path, number, f"binary or not text: {problem}{BINARY_HINT} with one sentence (or "
                             "record) a line")
    hint = utf16_hint(kind) if kind is not None else ""
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
