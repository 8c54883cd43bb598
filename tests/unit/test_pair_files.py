"""pair_files and textfile: files of pairs checked in one streaming pass, then read chunk by chunk from any pair on.

The messages of every format are pinned in test_pair_file_messages.py (through `read_pairs`, which reads what
`open_pairs` opens); here: any range reads what the whole file holds, a shard reads only its byte range, memory
holds one chunk, and the streamed decoding says and refuses what `io.read_text` says and refuses.
"""

from __future__ import annotations

import io
import json
import os
import tracemalloc
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nash_metric.common.blank import BlankCount, BlankTextWarning, count_blank_corpus
from nash_metric.common.io import InputFileError, _lines, read_text
from nash_metric.corpus import pair_files, textfile
from nash_metric.corpus.pair_files import open_candidates_references, open_pairs
from nash_metric.corpus.records import Header, text_records

PREDICTIONS = [f"Revenue rose {k}%{' in Q4' if k % 3 else ''}." for k in range(23)]
REFERENCES = [f"Revenue grew by {k} percent, line\nbreak {k}" if k % 4 == 1 else f"Up {k}%." for k in range(23)]
REFERENCES[5] = "  "  # a blank text, kept in place


def _csv(path, newline: str = "\n") -> None:
    """Quoted newlines in some cells, CRLF or LF endings, blank lines between records."""
    rows = ["id,prediction,reference"]
    for k, (p, r) in enumerate(zip(PREDICTIONS, REFERENCES)):
        rows.append(f'{k},"{p}","{r}"')
        if k % 7 == 3:
            rows.append("")
    path.write_bytes((newline.join(rows) + newline).encode())


def _jsonl(path) -> None:
    lines = []
    for k, (p, r) in enumerate(zip(PREDICTIONS, REFERENCES)):
        lines.append(json.dumps({"prediction": p, "reference": [r, r.upper()], "k": k}))
        if k % 5 == 2:
            lines.append("   ")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _parquet(path) -> None:
    table = pa.table({"prediction": PREDICTIONS, "reference": REFERENCES})
    with pq.ParquetWriter(path, table.schema) as writer:
        for start, stop in ((0, 5), (5, 6), (6, 17), (17, 23)):  # row groups of 5, 1, 11 and 6 rows
            writer.write_table(table.slice(start, stop - start))


def _line_files(tmp_path) -> list:
    paths = [tmp_path / name for name in ("cands.txt", "r1.txt", "r2.txt")]
    paths[0].write_bytes("\r".join(PREDICTIONS).encode() + b"\r")  # CR-only endings
    paths[1].write_bytes("\r\n".join(r.replace("\n", " ") for r in REFERENCES).encode())  # no final newline
    paths[2].write_text("\n".join(r.replace("\n", " ").upper() for r in REFERENCES) + "\n", encoding="utf-8")
    return paths


def _sources(tmp_path):
    """Every kind of source over the same 23 pairs, opened with a stride of 3 so that ranges cross many starts."""
    _csv(tmp_path / "crlf.csv", "\r\n")
    _csv(tmp_path / "lf.csv")
    _jsonl(tmp_path / "multi.jsonl")
    _parquet(tmp_path / "groups.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the blank text: pinned in test_pair_file_messages.py
        return {
            "csv crlf": open_pairs(tmp_path / "crlf.csv"),
            "csv lf": open_pairs(tmp_path / "lf.csv"),
            "jsonl lists": open_pairs(tmp_path / "multi.jsonl"),
            "parquet": open_pairs(tmp_path / "groups.parquet"),
            "lines": open_candidates_references(_line_files(tmp_path)[0], _line_files(tmp_path)[1:]),
        }


@pytest.fixture
def sources(tmp_path, monkeypatch):
    monkeypatch.setattr(pair_files, "STRIDE", 3)
    return _sources(tmp_path)


def test_every_range_reads_what_the_whole_file_holds(sources):
    for name, source in sources.items():
        whole = source.read()
        assert len(source) == len(whole) == len(PREDICTIONS), name
        expected_refs = {"jsonl lists": [[r, r.upper()] for r in REFERENCES],
                         "lines": [[r.replace("\n", " "), r.replace("\n", " ").upper()] for r in REFERENCES]}
        assert whole.predictions == PREDICTIONS, name
        assert whole.references == expected_refs.get(name, REFERENCES), name
        assert source.multi_reference == (name in expected_refs), name
        assert source.blank == count_blank_corpus(whole.predictions, whole.references), name
        for start in range(len(source) + 1):
            for stop in (start, min(start + 1, len(source)), min(start + 4, len(source)), len(source)):
                got = list(source.pairs(start, stop))
                assert got == list(zip(whole.predictions, whole.references))[start:stop], (name, start, stop)
        chunks = list(source.chunks(4, 5, 19))
        assert [len(p) for p, _ in chunks] == [4, 4, 4, 2]
        assert [p for ps, _ in chunks for p in ps] == PREDICTIONS[5:19], name
        with pytest.raises(ValueError, match="not within"):
            source.pairs(3, 24)


def test_blank_count_of_a_file_is_that_of_its_pairs(sources):
    # REFERENCES[5] is blank; as a JSONL list it is blank once ("  ".upper() too): two blank reference texts.
    assert sources["csv lf"].blank == BlankCount(0, 1, 5)
    assert sources["jsonl lists"].blank == BlankCount(0, 2, 5)


def test_a_shard_reads_only_its_byte_range(tmp_path):
    path = tmp_path / "pairs.jsonl"
    n = 3 * pair_files.STRIDE + 100
    path.write_text("".join(json.dumps({"prediction": f"p{k}", "reference": f"r{k}"}) + "\n" for k in range(n)))
    source = open_pairs(path)
    start = 2 * pair_files.STRIDE + 37  # a rank's shard, from inside the third stride to the end
    offset = source.starts[2][0]  # where its reading begins
    status = os.stat(path)
    with path.open("r+b") as handle:  # ruin every byte before that, keeping the size and the time of the file
        handle.write(b"#" * offset)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert list(source.pairs(start)) == [(f"p{k}", f"r{k}") for k in range(start, n)]
    with pytest.raises(InputFileError, match=r"pairs\.jsonl:1: invalid JSON"):  # the ruined part is really ruined
        next(source.pairs(0))
    path.write_text(path.read_text() + "\n")  # a file rewritten since it was opened is refused, not misread
    with pytest.raises(InputFileError, match="changed since it was checked"):
        next(source.pairs(start))


def test_parquet_shard_reads_only_its_row_groups(tmp_path):
    path = tmp_path / "groups.parquet"
    _parquet(path)
    with pytest.warns(BlankTextWarning, match=r"row 6: blank 'reference' field"):
        source = open_pairs(path)
    assert source.group_starts == [0, 5, 6, 17, 23]
    status, metadata = os.stat(path), pq.ParquetFile(path).metadata
    with path.open("r+b") as handle:  # ruin the column chunks of the first two row groups (rows 1 to 6)
        for group in (0, 1):
            for k in range(metadata.num_columns):
                chunk = metadata.row_group(group).column(k)
                handle.seek(chunk.dictionary_page_offset or chunk.data_page_offset)
                handle.write(b"\xff" * chunk.total_compressed_size)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert list(source.pairs(6)) == list(zip(PREDICTIONS[6:], REFERENCES[6:]))
    with pytest.raises((OSError, pa.ArrowException)):  # the ruined part is really ruined
        next(source.pairs(0))


@pytest.mark.parametrize("kind", ["jsonl", "csv", "parquet", "lines"])
def test_memory_holds_one_chunk_not_the_file(tmp_path, monkeypatch, kind):
    """Opening checks every pair and reading walks them all, yet neither holds more than a chunk of texts."""
    monkeypatch.setattr(textfile, "BLOCK", 1 << 16)  # the decoding pass holds a block: a fixed cost, set small here
    n, text = 20_000, "Revenue of the group rose by 4.5% to EUR 1,234 million in the fourth quarter of 2019. " * 3
    texts_mib = 2 * n * len(text) / 2**20  # ~10 MiB of texts
    path = tmp_path / f"pairs.{kind}"
    if kind == "jsonl":
        path.write_text("".join(json.dumps({"prediction": f"{k} {text}", "reference": text}) + "\n" for k in range(n)))
    elif kind == "csv":
        path.write_text("prediction,reference\n" + "".join(f'"{k} {text}\nmore","{text}"\n' for k in range(n)))
    elif kind == "parquet":
        pq.write_table(pa.table({"prediction": [f"{k} {text}" for k in range(n)], "reference": [text] * n}), path,
                       row_group_size=2_000)
    else:
        path.write_text("".join(f"{k} {text}\n" for k in range(n)))
        (tmp_path / "refs.txt").write_text(f"{text}\n" * n)

    def opener() -> pair_files.PairSource:
        return open_candidates_references(path, tmp_path / "refs.txt") if kind == "lines" else open_pairs(path)

    tracemalloc.start()
    try:
        source = opener()
        opened_mib = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.reset_peak()
        seen = 0
        for predictions, _ in source.chunks(256):
            assert predictions[0].startswith(f"{seen} ")
            seen += len(predictions)
        read_mib = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert seen == n
    # Whole-file readers peak above the file's texts; these stay within a few chunks' worth.
    assert opened_mib < texts_mib / 4 and read_mib < texts_mib / 4, (opened_mib, read_mib, texts_mib)


# ------------------------------------------------------------------------------ textfile: read_text's rules


CONTENTS = {
    "utf8": "a,b\ncafé,€\n".encode(),
    "bom": b"\xef\xbb\xbfab\ncd\n",
    "latin1 after many lines": b"x\n" * 20 + b"caf\xe9\n",
    "windows-1252": b"Nokia\x92s sales\nrose\n",
    "nul": b"ok\nok\nab\x00cdef\n",
    "cr only": b"a\rb\rc\x00d\r",
    "crlf": b"a\r\nb\r\n\r\nc",
    "utf-8 text then a bad byte": ("营业收入增长百分之五十\n" * 3).encode() + b"\xff\n",  # Latin-1 makes it binary
    "random bytes": bytes(range(256)) * 4,
    "no final newline": b"abc",
}


def _outcome(read):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = read()
        except InputFileError as exc:
            result = str(exc)
    return result, [str(w.message) for w in caught]


@pytest.mark.parametrize("encoding", [None, "utf-8-sig", "latin-1", "utf-16", "cp1252"])
@pytest.mark.parametrize("name", sorted(CONTENTS))
def test_streamed_decoding_says_what_read_text_says(tmp_path, monkeypatch, name, encoding):
    monkeypatch.setattr(textfile, "BLOCK", 8)  # many blocks: a bad byte or a binary line far from the start
    path = tmp_path / "file.txt"
    path.write_bytes(CONTENTS[name])

    def whole() -> list[str]:
        lines = _lines(read_text(path, encoding))
        return lines[:-1] if lines[-1] == "" else lines  # the piece after a final newline is no line

    def streamed() -> list[str]:
        return [line.text.rstrip("\r\n") for line in textfile.open_text(path, encoding).lines()]

    assert _outcome(streamed) == _outcome(whole)


def test_lines_start_anywhere_a_reader_recorded(tmp_path):
    path = tmp_path / "file.txt"
    path.write_bytes(b"\xef\xbb\xbfone\r\ntwo\rthree\nfour")
    lines = list(textfile.open_text(path).lines())
    assert [(line.number, line.text) for line in lines] == [(1, "one\r\n"), (2, "two\r"), (3, "three\n"), (4, "four")]
    again = list(textfile.open_text(path).lines(lines[1].start, 2))
    assert again == lines[1:] and lines[1].start == lines[0].end == 8  # the BOM is bytes 0-2


def test_text_records_read_a_text_as_open_pairs_reads_its_file(tmp_path):
    """The Space's Batch tab reads an upload's text with `text_records`: the records `open_pairs` reads."""
    path = tmp_path / "pairs.csv"
    text = 'id,prediction,reference\r\n1,"a ""b"", c","d\r\ne"\r\n\r\n2,f,\r\n'
    path.write_bytes(text.encode())
    header, records = text_records(path, io.StringIO(text, newline=""), ",")
    assert header == Header(1, ("id", "prediction", "reference"))
    rows = list(records)
    assert rows == [(2, {"id": "1", "prediction": 'a "b", c', "reference": "d\r\ne"}),
                    (5, {"id": "2", "prediction": "f", "reference": ""})]
    with pytest.warns(BlankTextWarning, match=r"pairs\.csv:5: blank 'reference' field"):
        corpus = open_pairs(path).read()
    assert list(zip(corpus.predictions, corpus.references)) == [(r["prediction"], r["reference"]) for _, r in rows]
    jsonl = tmp_path / "pairs.jsonl"
    lines = '{"prediction": "a", "reference": "b"}\n\n{"prediction": "c", "reference": "d", "x": 1}\n'
    jsonl.write_text(lines, encoding="utf-8")
    header, records = text_records(jsonl, io.StringIO(lines, newline=""), None)
    assert header is None and list(records) == [(1, {"prediction": "a", "reference": "b"}),
                                                (3, {"prediction": "c", "reference": "d", "x": 1})]
