"""Memory follows the work: batched, block-wise alignment and length-batched greedy matching equal the
straightforward per-pair computation, and one long pair no longer pads the short pairs beside it."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import torch

from nash_metric.backbone import similarity
from nash_metric.backbone.similarity import bertscore
from nash_metric.common.batching import size_batches
from nash_metric.numbers.periods import CalendarKeys
from nash_metric.pipeline import alignment
from nash_metric.pipeline.alignment import (
    Matches,
    MentionTable,
    align_numbers,
    kinds_fit,
    value_similarity,
    value_support,
)
from nash_metric.verdicts.keys import SupportKeys

PERIODS = [None, None, None, "2019-12-31", "2019-Q4", "2019", "2018", "2019-06"]
VALUES = [0.0, 1.0, 2.0, 3.5, -4.0, 100.0, 2019.0]


def _keys(values: np.ndarray, tolerance: np.ndarray, family: np.ndarray, strict: np.ndarray) -> SupportKeys:
    """Support keys that vary what the number channel reads (values, tolerance, family, strict); the rest plain."""
    n = len(values)
    zeros, no = np.zeros(n), np.zeros(n, bool)
    return SupportKeys(values=values, tolerance=tolerance, rounding=zeros, family=family, strict=strict, percent=no,
                       points=no, clock=no, labels=[("1", 0, 1, 1.0)] * n, contexts=[], scaled=no,
                       table_scale=np.full(n, np.nan), judged=~no, year=np.full(n, np.nan),
                       direction=np.zeros(n, np.int8), counted=no, per_unit=no, money=no, partner=np.full(n, -1),
                       cell=no, noun=np.full(n, -1), timed=no, headed=no, bounded=no)


def random_table(rng: np.random.Generator, counts: list[int], hidden: int = 8) -> MentionTable:
    """Unit vectors with repeated rows (ties for the argmax), repeated values, calendar periods, support keys."""
    total = sum(counts)
    vectors = rng.standard_normal((total, hidden)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for row in np.nonzero(rng.random(total) < 0.3)[0][1:]:
        vectors[row] = vectors[rng.integers(0, row)]
    values = rng.choice(VALUES, total) * rng.choice([1.0, 1.0, 1.01], total)
    return MentionTable(
        vectors=vectors,
        values=values,
        offsets=np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64),
        counts=np.asarray(counts, np.int64),
        calendar=CalendarKeys.of([PERIODS[i] for i in rng.integers(0, len(PERIODS), total)]),
        support=_keys(values.copy(), rng.choice([0.0, 0.05, 0.5], total), rng.integers(-1, 3, total),
                      rng.random(total) < 0.3),
    )


def reference(table: MentionTable, pairs_a, pairs_b, conditions) -> tuple[Matches, Matches, dict[int, np.ndarray]]:
    """One pair at a time, full matrices, numpy's argmax (the first of equal maxima)."""
    rows: dict[str, list[tuple]] = {"ab": [], "ba": []}
    cosines = {}
    for k, (a, b) in enumerate(zip(pairs_a, pairs_b)):
        ia, ib = np.arange(table.of(a).start, table.of(a).stop), np.arange(table.of(b).start, table.of(b).stop)
        if not len(ia) or not len(ib):
            continue
        cos = np.einsum("ih,jh->ij", table.vectors[ia], table.vectors[ib])
        magnitude, supported = value_similarity(table, ia, ib), value_support(table, ia, ib)
        other_kind = ~kinds_fit(table, ia, ib)
        scores = conditions.get(k, np.full(cos.shape, np.nan))
        by_condition = ~np.isnan(scores)
        used = np.where(by_condition, scores, magnitude)
        cosines[k] = cos
        for i, j in enumerate(cos.argmax(1)):
            rows["ab"].append((k, i, j, cos[i, j], magnitude[i, j], used[i, j], by_condition[i, j], supported[i, j],
                               other_kind[i, j]))
        for j, i in enumerate(cos.argmax(0)):
            rows["ba"].append((k, j, i, cos[i, j], magnitude[i, j], used[i, j], by_condition[i, j], False,
                               other_kind[i, j]))
    return *(Matches(*(np.array(c) for c in zip(*rows[d]))) for d in ("ab", "ba")), cosines


def assert_same(got: Matches, want: Matches) -> None:
    for name in Matches.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("budget", [None, 40, 700])
def test_alignment_equals_the_per_pair_full_matrix_computation(seed: int, budget: int | None) -> None:
    # Random counts with zeros and very unequal sides; budget 40 or 700 sends the larger pairs block-wise.
    rng = np.random.default_rng(seed)
    counts = [int(c) for c in rng.choice([0, 1, 2, 3, 7, 30, 150], 25, p=[0.15, 0.2, 0.15, 0.2, 0.1, 0.1, 0.1])]
    table = random_table(rng, counts)
    pairs_a, pairs_b = rng.integers(0, len(counts), 40), rng.integers(0, len(counts), 40)
    conditions = {
        k: np.where(rng.random(shape) < 0.3, rng.random(shape), np.nan)
        for k, shape in enumerate(zip(table.counts[pairs_a], table.counts[pairs_b]))
        if min(shape) and rng.random() < 0.4
    }
    got = align_numbers(table, pairs_a, pairs_b, conditions, keep_cosines=True, budget=budget)
    want_ab, want_ba, want_cosines = reference(table, pairs_a, pairs_b, conditions)
    assert conditions and any(np.asarray(want_ab.by_condition))  # the conditions were exercised
    assert_same(got.a_to_b, want_ab)
    assert_same(got.b_to_a, want_ba)
    assert list(got.cosines) == list(want_cosines)
    for k, cos in want_cosines.items():
        np.testing.assert_array_equal(got.cosines[k], cos)


def test_a_big_pair_is_aligned_in_blocks_with_memory_below_its_matrix(monkeypatch) -> None:
    rng = np.random.default_rng(7)
    table = random_table(rng, [1500, 1200, 3, 4])
    pairs_a, pairs_b = np.array([0, 2]), np.array([1, 3])
    monkeypatch.setattr(alignment, "CELL_BUDGET", 20_000)  # read at call time: 1500 x 1200 cells run block-wise
    tracemalloc.start()
    got = align_numbers(table, pairs_a, pairs_b)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1500 * 1200 * 4 / 4  # a quarter of the float32 cosine matrix alone
    want_ab, want_ba, _ = reference(table, pairs_a, pairs_b, {})
    assert_same(got.a_to_b, want_ab)
    assert_same(got.b_to_a, want_ba)


def test_one_long_pair_does_not_pad_the_short_pairs_beside_it() -> None:
    rng = np.random.default_rng(3)
    counts = [800, 800, *rng.integers(1, 6, 400).tolist()]
    table = random_table(rng, counts)
    pairs_a, pairs_b = np.arange(0, len(counts), 2), np.arange(1, len(counts), 2)

    def peak(n_pairs: int) -> int:
        tracemalloc.start()
        align_numbers(table, pairs_a[:n_pairs], pairs_b[:n_pairs])
        out = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return out

    # Padded to the long pair, the 200 short pairs would cost 200 x 800 x 800 cells (over 500 MB).
    assert peak(len(pairs_a)) < 1.5 * peak(1) + 1_000_000


def token_states(rng: torch.Generator, n: int) -> torch.Tensor:
    return torch.nn.functional.normalize(torch.randn(n, 16, generator=rng), dim=-1)


@pytest.mark.parametrize("cells", [None, 100_000])
def test_greedy_matching_of_a_long_text_among_short_ones_equals_each_pair_alone(monkeypatch, cells) -> None:
    if cells:
        monkeypatch.setattr(similarity, "SIMILARITY_CELLS", cells)  # the long pair then runs in blocks
    rng, gen = np.random.default_rng(0), torch.Generator().manual_seed(0)
    lengths = [(int(a), int(b)) for a, b in rng.integers(2, 40, (60, 2))]
    lengths.insert(17, (1500, 1200))
    hyps, refs = [token_states(gen, a) for a, _ in lengths], [token_states(gen, b) for _, b in lengths]
    hyp_w = [rng.random(a).astype(np.float32) for a, _ in lengths]
    ref_w = [rng.random(b).astype(np.float32) for _, b in lengths]
    p, r, f = bertscore(hyps, refs, hyp_w, ref_w, torch.device("cpu"), batch_size=16)
    for k, (h, t, hw, tw) in enumerate(zip(hyps, refs, hyp_w, ref_w)):
        sim = (h.double() @ t.double().T).numpy()
        p_k = (sim.max(1) * hw).sum() / hw.sum()
        r_k = (sim.max(0) * tw).sum() / tw.sum()
        assert p[k] == pytest.approx(p_k, abs=1e-6) and r[k] == pytest.approx(r_k, abs=1e-6)
        assert f[k] == pytest.approx(2 * p_k * r_k / (p_k + r_k), abs=1e-6)


def test_length_batches_keep_a_long_pair_alone_and_short_pairs_together() -> None:
    lengths = np.array([[20] * 255 + [6000], [25] * 255 + [6000]])
    batches = size_batches(lengths[0], lengths[1], similarity.SIMILARITY_CELLS, max_pairs=256)
    assert sorted(np.concatenate(batches).tolist()) == list(range(256))
    assert [255] in [b.tolist() for b in batches]
    assert max(len(b) for b in batches) == 255  # the short pairs still share one batch
