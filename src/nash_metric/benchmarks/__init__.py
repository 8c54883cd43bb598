"""The benchmarks (NumFinE, EmbedNum-1K, NQuAD, STS-B) behind one protocol; see `registry`.

Importing this package loads only the registry: each benchmark's code is imported when one of its entry
points is first used.
"""

from .registry import Benchmark, BenchmarkRegistry, ScorerSource, UnknownBenchmarkError, get_benchmark, registry

__all__ = ["Benchmark", "BenchmarkRegistry", "ScorerSource", "UnknownBenchmarkError", "get_benchmark", "registry"]
