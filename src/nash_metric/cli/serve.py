"""The commands that serve NASH elsewhere: `nash app` (the Space, locally) and `nash export` (a Hub folder)."""

from __future__ import annotations

import argparse
import socket

from ..space.limits import SpaceLimits
from .command import Command
from .parser import PORT, POSITIVE, POSITIVE_NUMBER

# `nash app` flags, named by the SpaceLimits field they set.
SPACE_LIMIT_FLAGS = ("allowed_models", "allow_any_model", "max_loaded_models", "request_seconds", "concurrency",
                     "max_queue", "max_file_bytes", "download_seconds")


def add_app_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=PORT, default=7860)
    limits = parser.add_argument_group("limits (see spaces_app/README.md)")
    limits.add_argument("--allow-model", dest="allowed_models", action="append", metavar="ID_OR_PATH",
                        help="also serve this hub id or local model folder (repeatable); by default only the "
                        "embedded model and hub models already in the HF cache")
    limits.add_argument("--allow-any-model", dest="allow_any_model", action="store_true",
                        help="serve any hub id or server path typed into the Model box (trusted use only)")
    limits.add_argument("--max-models", dest="max_loaded_models", type=POSITIVE,
                        help="models kept loaded, least recently used dropped first "
                        f"(default: {SpaceLimits.max_loaded_models})")
    limits.add_argument("--request-seconds", type=POSITIVE_NUMBER,
                        help="time budget of one request; a batch stops there with what it scored "
                        f"(default: {SpaceLimits.request_seconds:g})")
    limits.add_argument("--concurrency", type=POSITIVE,
                        help=f"runs at a time per action (default: {SpaceLimits.concurrency})")
    limits.add_argument("--max-queue", type=POSITIVE,
                        help=f"requests waiting per action (default: {SpaceLimits.max_queue})")
    limits.add_argument("--max-file-bytes", type=POSITIVE,
                        help="largest upload, refused while it streams in "
                        f"(default: {SpaceLimits.max_file_bytes})")
    limits.add_argument("--download-seconds", type=POSITIVE_NUMBER,
                        help="a Batch download (and an upload) is removed from the server this long after it was "
                        f"written (default: {SpaceLimits.download_seconds:g})")


def run_app(args: argparse.Namespace) -> int:
    from dataclasses import replace

    limits = SpaceLimits.from_env()  # NASH_SPACE_* variables, then the flags given here
    given = {name: getattr(args, name) for name in SPACE_LIMIT_FLAGS if getattr(args, name) not in (None, False)}
    if "allowed_models" in given:
        given["allowed_models"] = (*limits.allowed_models, *given["allowed_models"])
    limits = replace(limits, **given)
    _check_port_free(args.host, args.port)  # before the model and gradio load, not in gradio's traceback
    from ..space import launch

    launch(host=args.host, port=args.port, limits=limits)
    return 0


def _check_port_free(host: str, port: int) -> None:
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise OSError(f"--host {host} --port {port}: cannot listen there ({exc.strerror or exc}); "
                          "choose another --port") from None


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=("space", "metric"), help="space: the NASH vs BERTScore demo (spaces_app/); "
                        "metric: the evaluate module (metrics/nash/)")
    parser.add_argument("dir", help="folder to write (must be empty or absent, unless --force)")
    parser.add_argument("--wheel", default=None, help="vendor this nash_metric-*.whl instead of building one")
    parser.add_argument("--force", action="store_true", help="write into a non-empty folder, replacing export's "
                        "files")
    parser.add_argument("--repo-id", default=None, metavar="OWNER/NAME",
                        help="the public Hub repo DIR is pushed to: requirements.txt names the wheel by its URL "
                        "there, since the Hub installs requirements.txt before the rest of the repo is in place")


def run_export(args: argparse.Namespace) -> int:
    from ..ecosystem.export import describe, export_metric, export_space

    export = export_space if args.kind == "space" else export_metric
    print(describe(export(args.dir, wheel=args.wheel, force=args.force, repo_id=args.repo_id)))
    return 0


APP = Command("app", "launch the Gradio Space locally", add_app_arguments, run_app, extra="app",
              description="Serve the NASH vs BERTScore Space. The limits default to the NASH_SPACE_* environment "
              "variables (Space variables on the Hub), else to the values shown.")
EXPORT = Command(
    "export", "write a Hub-ready Space or metric folder with the project's wheel vendored",
    add_export_arguments, run_export,
    description="Write a self-contained folder for the Hugging Face Hub: the app, its card (with the Space YAML "
    "header), pinned requirements and this project's wheel, which requirements.txt points at, so the folder builds "
    "without a PyPI release. Needs a source checkout.",
)
