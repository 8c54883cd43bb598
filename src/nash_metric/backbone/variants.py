"""Variant packing: texts that differ only in their numbers share a row of the one pass (docs/scoring/text-channel.md).

Under the one-pass text channel a word attends only to the words of its text, at positions counted without the
numbers (`Encoder._number_blind`), so texts with the same words (a NumFinE unit: an anchor and variants that change
a figure) have the same word states. Their words are encoded once, at the head of one row, followed by each text's
number tokens; a number token attends to the shared words and to its own text's numbers, at its own position in its
text. That is each text's own pass, up to float rounding, for the cost of the words once (`perf/throughput.py`'s
variant groups). A row holds at most the model window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

# A row holds the shared words and at most this many texts' numbers: a bound on a row's length, so that the attention
# over its packed tokens stays small (a unit of NumFinE has ten texts).
MEMBERS_PER_ROW = 32


@dataclass(frozen=True)
class PackedRow:
    """One row of shared words and the number tokens of several texts (`members`, text indices)."""

    members: tuple[int, ...]
    ids: np.ndarray  # [L] token ids: the shared words (special tokens included), then each member's numbers
    positions: np.ndarray  # [L] position ids (without the model's offset)
    owner: np.ndarray  # [L] -1 for a shared word, else the member's index in `members`
    gather: tuple[np.ndarray, ...]  # per member: for each token of its own window, its index in the row


def packed_rows(windows: Sequence[list[int]], keeps: Sequence[np.ndarray | None], max_length: int
                ) -> list[PackedRow]:
    """The rows of texts of one window that share their words with another (`windows[i]`: text i's token ids with
    special tokens; `keeps[i]`: which of them the text channel keeps, None for a text of several windows)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, (ids, keep) in enumerate(zip(windows, keeps)):
        if keep is not None and not keep.all():
            groups.setdefault(tuple(np.asarray(ids)[keep].tolist()), []).append(i)
    rows = []
    for words, members in groups.items():
        if len(members) < 2:
            continue
        row: list[int] = []
        size = len(words)
        for i in members:
            n = int((~keeps[i]).sum())
            if row and (size + n > max_length or len(row) == MEMBERS_PER_ROW):
                rows.append(_row(words, row, windows, keeps))
                row, size = [], len(words)
            row.append(i)
            size += n
        rows.append(_row(words, row, windows, keeps))
    return [r for r in rows if len(r.members) > 1]


def _row(words: tuple[int, ...], members: list[int], windows: Sequence[list[int]], keeps: Sequence[np.ndarray | None]
         ) -> PackedRow:
    ids, positions, owner = [np.asarray(words, np.int64)], [np.arange(len(words))], [np.full(len(words), -1)]
    gather = []
    at = len(words)
    for k, i in enumerate(members):
        keep = keeps[i]
        numbers = np.flatnonzero(~keep)
        ids.append(np.asarray(windows[i], np.int64)[numbers])
        positions.append(numbers)  # a number keeps its own position in its text
        owner.append(np.full(len(numbers), k))
        index = np.empty(len(keep), np.int64)
        index[keep] = np.arange(int(keep.sum()))
        index[numbers] = np.arange(at, at + len(numbers))
        gather.append(index)
        at += len(numbers)
    return PackedRow(tuple(members), np.concatenate(ids), np.concatenate(positions), np.concatenate(owner),
                     tuple(gather))


def packed_batch(rows: Sequence[PackedRow], pad_id: int, position_offset: int, dtype: torch.dtype,
                 device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Input ids [B, L], the additive attention mask [B, 1, L, L] (a word attends to the row's words, a number to
    the words and its own text's numbers) and position ids [B, L] of a batch of rows."""
    width = max(len(r.ids) for r in rows)
    ids = np.full((len(rows), width), pad_id, np.int64)
    positions = np.zeros((len(rows), width), np.int64)
    owner = np.full((len(rows), width), -2, np.int64)  # -2: padding
    for b, r in enumerate(rows):
        ids[b, : len(r.ids)], positions[b, : len(r.ids)], owner[b, : len(r.ids)] = r.ids, r.positions, r.owner
    key = torch.from_numpy(owner)[:, None, :]
    query = torch.from_numpy(owner)[:, :, None]
    allowed = (key == -1) | ((key == query) & (key >= 0))
    mask = torch.zeros(allowed.shape, dtype=dtype)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return (torch.from_numpy(ids).to(device), mask[:, None].to(device),
            (torch.from_numpy(positions) + position_offset).to(device))


def member_states(states: torch.Tensor, rows: Sequence[PackedRow]
                  ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Each member's states in its own window's order, padded [V, T, H], their attention mask [V, T] and the mask of
    their words (the shared ones, special tokens included: what the text channel keeps), from a batch's states
    [B, L, H] (members in row order)."""
    gathers = [(b, g, int((r.owner == -1).sum())) for b, r in enumerate(rows) for g in r.gather]
    width = max(len(g) for _, g, _ in gathers)
    index = np.zeros((len(gathers), width), np.int64)
    mask = np.zeros((len(gathers), width), np.int64)
    words = np.zeros((len(gathers), width), np.int64)
    for v, (b, g, shared) in enumerate(gathers):
        index[v, : len(g)] = g + b * states.shape[1]
        mask[v, : len(g)] = 1
        words[v, : len(g)] = g < shared  # the shared words head the row
    flat = states.reshape(-1, states.shape[-1])
    gathered = flat.index_select(0, torch.from_numpy(index.reshape(-1)).to(states.device))
    return (gathered.reshape(len(gathers), width, -1), torch.from_numpy(mask).to(states.device),
            torch.from_numpy(words).to(states.device))
