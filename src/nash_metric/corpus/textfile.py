"""A text file checked in one streaming pass, then read line by line from any line start (corpus shards).

`open_text` applies the rules of `io.read_text` without holding the file: the encoding given, else UTF-8 (a BOM
dropped), else Latin-1 with the same warning naming the first line that is not UTF-8; binary content is refused
naming its line, with the same messages (`io.check_line`). As `read_text` decodes the whole file before a record is
parsed, `open_text` decodes and checks every block (1 MiB, cut after a newline) before it returns, so a parser never
meets a line that a later byte of the file would have made another encoding's or binary.

`TextFile.lines(offset, number)` then yields each line with its ending and its byte range, from any line start a
reader recorded. Lines end at LF, CRLF or CR, as an editor numbers them. An encoding in which ASCII is not one byte
a character (UTF-16, UTF-32) has no byte to cut lines at: such a file is decoded whole, as `read_text` does, and
held as UTF-8, the one case that costs its size in memory.
"""

from __future__ import annotations

import codecs
import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NamedTuple

from ..common.io import (
    HEAD_BYTES,
    READ_AS_LATIN1,
    InputFileError,
    ascii_compatible,
    bom_encoding,
    check_input_file,
    check_line,
    has_non_text,
    not_valid,
    read_text,
    unknown_encoding,
    warn_latin1,
)

BLOCK = 1 << 20  # bytes decoded at a time by the checking pass
_LINE = re.compile(rb"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")  # a line with its ending (CR, CRLF or LF), or a last one without


class Line(NamedTuple):
    number: int  # 1-based
    start: int  # byte offset of its first byte
    end: int  # byte offset just past its ending: where the next line starts
    text: str  # decoded, with its ending


@dataclass(frozen=True)
class TextFile:
    """A text file whose encoding `open_text` settled and whose content it checked."""

    path: Path
    codec: str  # each line's decoder
    stamp: tuple[int, int]  # size and mtime when checked: a file rewritten since is refused, never misread
    data: bytes | None = None  # the file as UTF-8 when its own encoding has no one-byte newline (held whole)

    def lines(self, offset: int = 0, number: int = 1) -> Iterator[Line]:
        """The lines from byte `offset`, a line start numbered `number`, to the end of the file."""
        codec = _later(self.codec) if offset else self.codec  # a BOM at 0 only
        decode = codecs.getincrementaldecoder(codec)().decode  # keeps a stateful codec's state from line to line
        with self._open() as handle:
            handle.seek(offset)
            for piece in handle:  # cut after each LF by the buffered reader; CR and CRLF endings are cut here
                for raw in _LINE.findall(piece) if b"\r" in piece else (piece,):
                    yield Line(number, offset, offset + len(raw), decode(raw))
                    number, offset = number + 1, offset + len(raw)

    def _open(self) -> BinaryIO:
        if self.data is not None:
            return io.BytesIO(self.data)
        if file_stamp(self.path) != self.stamp:
            raise InputFileError(self.path, None, "changed since it was checked; score a file that is not being "
                                 "written to")
        return self.path.open("rb")


def open_text(path: str | Path, encoding: str | None = None) -> TextFile:
    """Settle the encoding of `path` and refuse it if binary, as `io.read_text` does, holding one block at a time."""
    path = check_input_file(path)
    stamp = file_stamp(path)
    if encoding is None:
        with path.open("rb") as handle:
            encoding = bom_encoding(handle.read(4))  # a UTF-16/32 file with its byte-order mark
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise unknown_encoding(path, encoding) from None
        if not ascii_compatible(encoding):
            return TextFile(path, "utf-8", stamp, read_text(path, encoding).encode("utf-8"))
        failure, suspect = _decode_blocks(path, encoding)
        if failure is not None:
            line, _, exc = failure
            with path.open("rb") as handle:
                raise not_valid(path, line, encoding, exc, handle.read(HEAD_BYTES))
        return _checked(TextFile(path, encoding, stamp), suspect, "")
    failure, suspect = _decode_blocks(path, "utf-8-sig")
    if failure is None:
        return _checked(TextFile(path, "utf-8-sig", stamp), suspect, "")
    _, suspect = _decode_blocks(path, "latin-1")  # every byte is a Latin-1 character
    text = _checked(TextFile(path, "latin-1", stamp), suspect, READ_AS_LATIN1)  # binary is an error, not a fallback
    line, byte, _ = failure
    warn_latin1(path, line, byte)
    return text


def _decode_blocks(path: Path, codec: str) -> tuple[tuple[int, int, UnicodeDecodeError] | None, bool]:
    """Decode `path` block by block: the first failure (line, byte, error) if any, and whether any block holds a
    non-text character (then `_checked` decides line by line). Blocks end after a LF, so no character is cut."""
    suspect, newlines, block_codec = False, 0, codec
    with path.open("rb") as handle:
        while block := handle.read(BLOCK) + handle.readline():
            try:
                text = block.decode(block_codec)
            except UnicodeDecodeError as exc:  # exc.object: the block (less a BOM)
                line = newlines + exc.object[: exc.start].count(b"\n") + 1  # as read_text counts lines
                return (line, exc.object[exc.start], exc), suspect
            suspect = suspect or has_non_text(text)
            newlines += block.count(b"\n")
            block_codec = _later(codec)
    return None, suspect


def _later(codec: str) -> str:
    """The codec of a block after the first: a BOM is dropped at the start of the file only."""
    return "utf-8" if codecs.lookup(codec).name == "utf-8-sig" else codec


def _checked(text: TextFile, suspect: bool, decoded: str) -> TextFile:
    """`text`, once every line of a file that holds a non-text character passed the binary rule."""
    if suspect:
        with text.path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)  # what a refused file looks like (`io.head_kind`)
        for line in text.lines():
            check_line(text.path, line.number, line.text.rstrip("\r\n"), decoded, head)
    return text


def file_stamp(path: Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_size, status.st_mtime_ns
