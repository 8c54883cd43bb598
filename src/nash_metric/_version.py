"""The package version, read once from the installed distribution's metadata (pyproject.toml is the source)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("nash-metric")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
