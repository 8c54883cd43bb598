"""Files with a byte-order mark are read in the encoding it names (UTF-8, UTF-16, UTF-32); UTF-16 without one is
refused with a message that says how to read it."""

from __future__ import annotations

import codecs
import re

import pytest

from nash_metric.corpus.textfile import open_text


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_byte_order_mark_names_the_encoding(tmp_path, codec):
    from nash_metric.common.io import read_text

    text = "prediction,reference\nRevenue rose 4%.,Revenue rose 3.56% (€).\n"
    raw = text.encode(codec)
    if codec == "utf-16-be":  # Python writes no mark for an explicit byte order: add one
        raw = codecs.BOM_UTF16_BE + raw
    path = tmp_path / "pairs.csv"
    path.write_bytes(raw)
    assert read_text(path) == text
    assert "".join(line.text for line in open_text(path).lines()) == text


def test_utf16_without_a_mark_is_named(tmp_path):
    from nash_metric.common.io import InputFileError, read_text

    path = tmp_path / "pairs.csv"
    path.write_bytes("prediction,reference\nRevenue rose 4%.,Revenue rose 3.56%.\n".encode("utf-16-le"))
    with pytest.raises(InputFileError, match=r"looks like UTF-16 without a byte-order mark: pass encoding= utf-16-le"):
        read_text(path)


# -- what a refused file looks like: UTF-16 without a mark, binary, a folder (issue 56) ------------------------------

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa"
       b"\x00\x00\x00\x1aIDATx\x9cc\xfc\xff\x9f\x81\x04\xc0\x02\x8c\x0c\x0c\x0c\x8c\x1a0j\xc0\xa8\x01\x00\x9e\xa3\x05"
       b"\x0e\x00\x00\x00\x00IEND\xaeB`\x82")  # a real 16x16 PNG: signature, IHDR, IDAT, IEND
ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x02\x00>\x00\x01\x00\x00\x00" + bytes(range(256)) * 4
PAIRS = "prediction,reference\nRevenue rose 4%.,Revenue rose 3.56%.\nCosts fell 2%.,Costs fell 2.1%.\n"
BINARY = "looks like a binary file (e.g. an image or a program), not text"


def _readers():
    from nash_metric.common.io import read_text

    return [read_text, lambda path, **kw: list(open_text(path, **kw).lines())]


@pytest.mark.parametrize("content", [PNG, ELF], ids=["png", "elf"])
@pytest.mark.parametrize("encoding", [None, "utf-8", "latin-1"])
def test_a_binary_file_is_named_binary_not_utf16(tmp_path, content, encoding):
    from nash_metric.common.io import InputFileError

    path = tmp_path / "file.csv"
    path.write_bytes(content)
    for read in _readers():
        with pytest.raises(InputFileError) as info:
            read(path, encoding=encoding)
        message = str(info.value)
        assert message.startswith(f"{path}:") and BINARY in message, message
        assert "UTF-16" not in message and "Latin-1" not in message, message


@pytest.mark.parametrize(("codec", "other"), [("utf-16-le", "utf-16-be"), ("utf-16-be", "utf-16-le")])
def test_utf16_without_a_mark_still_gets_its_hint_from_every_reader(tmp_path, codec, other):
    from nash_metric.common.io import InputFileError

    path = tmp_path / "pairs.csv"
    path.write_bytes(PAIRS.encode(codec))
    for read in _readers():
        with pytest.raises(InputFileError, match=rf"^{path}:1: binary or not text.*looks like UTF-16 without a "
                                                 rf"byte-order mark: pass encoding= {codec} \(or {other}\)$") as info:
            read(path)
        assert BINARY not in str(info.value)
    assert "".join(line.text for line in open_text(path, encoding=codec).lines()) == PAIRS


def test_a_stray_nul_in_text_is_neither_binary_nor_utf16(tmp_path):
    from nash_metric.common.io import InputFileError, read_text

    path = tmp_path / "nul.csv"
    path.write_bytes(b"sentence\nRevenue rose 4%.\nProfit\x00 fell.\n")
    with pytest.raises(InputFileError) as info:
        read_text(path)
    assert str(info.value).startswith(f"{path}:3: binary or not text: a NUL byte at column 7")
    assert BINARY not in str(info.value) and "UTF-16" not in str(info.value)


def test_head_kind_tells_utf16_from_binary():
    from nash_metric.common.io import HEAD_BYTES, head_kind

    assert head_kind(PAIRS.encode("utf-16-le")) == "utf-16-le"
    assert head_kind(PAIRS.encode("utf-16-be")) == "utf-16-be"
    # UTF-16 cut in the middle of a surrogate pair, and CJK text whose U+4E00 puts a NUL at the other parity
    assert head_kind(("Revenue 4% " * 400 + "\U0001f600").encode("utf-16-le")[:HEAD_BYTES - 1]) == "utf-16-le"
    assert head_kind(("Revenue rose 4% in the first quarter, 一 " * 20).encode("utf-16-le")) == "utf-16-le"
    assert head_kind(PNG) == head_kind(ELF) == head_kind(bytes(range(256))) == "binary"
    assert head_kind(b"\x00\x01" * 64) == "binary"  # NULs at one parity, but U+0100... is no text: not UTF-16
    assert head_kind(b"plain text\n") is None and head_kind(b"a stray\x00 NUL\n") is None


@pytest.mark.parametrize("name", [".", "sub"])
def test_a_folder_is_named_a_folder(tmp_path, monkeypatch, name):
    from nash_metric.common.io import read_text
    from nash_metric.corpus.pair_files import open_pairs
    from nash_metric.corpus.sentences import read_sentences

    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    shown = re.escape(str(tmp_path) if name == "." else name)  # '.' as the folder it is
    for read in (read_text, open_text, open_pairs, read_sentences):
        with pytest.raises(IsADirectoryError, match=rf"^{shown}: is a folder, not a file; pass one of the files in it"):
            read(name)


@pytest.mark.parametrize(("content", "message"), [
    (PNG, f"not UTF-8 text; it {BINARY}: pass a text file"),
    ('{"a": "b"}'.encode("utf-16-le"), "not UTF-8 text; it looks like UTF-16 without a byte-order mark: save it as "
                                       "UTF-8"),
    (b'{"a": "\xff"}', "1: not valid utf-8: invalid start byte"),
])
def test_utf8_only_files_say_what_they_look_like(tmp_path, content, message):
    from nash_metric.common.io import InputFileError, read_utf8

    path = tmp_path / "idf.json"
    path.write_bytes(content)
    with pytest.raises(InputFileError) as info:
        read_utf8(path)
    assert str(info.value) == f"{path}:{message}" if message[0].isdigit() else str(info.value) == f"{path}: {message}"
    path.write_text('{"a": "b"}', encoding="utf-8")
    assert read_utf8(path) == '{"a": "b"}'
