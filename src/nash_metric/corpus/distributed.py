"""Multi-process and multi-node scoring on torch.distributed: each rank scores one shard, rank 0 writes the output.

`torchrun` and `accelerate launch` start one process per device and set RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR and MASTER_PORT; `Launch.from_env` reads them, and `start` joins the process group (NCCL
when the rank has a GPU, gloo on CPU). Every rank checks the whole input and makes the same pass over it for what a
corpus decides (threshold='auto', idf='references'), so those are the same on every rank; the pairs are then split
into contiguous shards, each rank reading only its own. Rows travel to rank 0 one chunk at a time (`send_stream`,
`receive_streams`, in rank order, so the output is the input order), and `gather` collects what is small (the
summary's numeric columns). Scores do not depend on the batch (tests/unit/test_corpus_scoring.py), which is what
makes a sharded run equal to a single-process one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Launch:
    """This process's place in a launch of several processes."""

    rank: int
    world_size: int
    local_rank: int

    @classmethod
    def from_env(cls) -> Launch | None:
        """The launch torchrun / accelerate describe in the environment; None for a single process."""
        try:
            world_size = int(os.environ.get("WORLD_SIZE", "1"))
            rank = int(os.environ.get("RANK", "0"))
            local_rank = int(os.environ.get("LOCAL_RANK", str(rank)))
        except ValueError as exc:
            raise ValueError(f"malformed torch.distributed environment (RANK/WORLD_SIZE/LOCAL_RANK): {exc}") from None
        if world_size <= 1:
            return None
        if not 0 <= rank < world_size:
            raise ValueError(f"RANK={rank} is outside WORLD_SIZE={world_size}")
        return cls(rank, world_size, local_rank)

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    def device(self, requested: str | None) -> str | None:
        """The device of this rank: its own GPU (cuda:LOCAL_RANK) unless a device was requested."""
        import torch

        if requested is None and torch.cuda.is_available():
            return f"cuda:{self.local_rank % torch.cuda.device_count()}"
        return requested

    def start(self, device: str | None) -> None:
        """Join the process group: NCCL for a GPU rank, gloo otherwise."""
        import torch
        import torch.distributed as dist

        if dist.is_initialized():
            return
        on_gpu = device is not None and device.startswith("cuda")
        if on_gpu:
            torch.cuda.set_device(torch.device(device))
        dist.init_process_group(backend="nccl" if on_gpu else "gloo", rank=self.rank, world_size=self.world_size)

    def shard(self, n: int) -> slice:
        """This rank's contiguous share of `n` items (sizes differ by at most one)."""
        return slice(n * self.rank // self.world_size, n * (self.rank + 1) // self.world_size)

    def gather(self, obj: Any) -> list[Any] | None:
        """Every rank's `obj`, in rank order, on rank 0 (None elsewhere)."""
        import torch.distributed as dist

        out: list[Any] | None = [None] * self.world_size if self.is_main else None
        dist.gather_object(obj, out, dst=0)
        return out

    def send_stream(self, items: Iterable[Any]) -> None:
        """Send `items` to rank 0 one at a time, then an end mark (a rank other than 0; see `receive_streams`)."""
        import torch.distributed as dist

        for item in items:
            dist.send_object_list([item], dst=0)
        dist.send_object_list([None], dst=0)

    def receive_streams(self) -> Iterator[Any]:
        """On rank 0: the items every other rank sends with `send_stream`, rank 1's first, each rank's in order."""
        import torch.distributed as dist

        for rank in range(1, self.world_size):
            while True:
                box: list[Any] = [None]
                dist.recv_object_list(box, src=rank)
                if box[0] is None:
                    break
                yield box[0]

    def finish(self) -> None:
        import torch.distributed as dist

        if dist.is_initialized():
            dist.barrier()
            dist.destroy_process_group()
