"""Files with a byte-order mark are read in the encoding it names (UTF-8, UTF-16, UTF-32); UTF-16 without one is
refused with a message that says how to read it."""

from __future__ import annotations

import codecs

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
