"""The method in words, written once: the README, the metric card, the evaluate module and the Space quote it.

`METHOD_SUMMARY` is one paragraph (the evaluate module's description, the card's front matter);
`METHOD_STEPS` is the four steps with their formulas and defaults, in Markdown that renders alike on GitHub,
the Hub and Gradio. The README, `metrics/nash/README.md` and `spaces_app/README.md` hold copies between
`<!-- method: … -->` markers; a test checks they match, and `python -m nash_metric.reports.method` rewrites them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..common.defaults import DEFAULT_TAU

METHOD_SUMMARY = """\
NASH (Numerically Aware Scoring Heuristic) is a semantic similarity metric that does not ignore numbers. It
scores a pair in two channels: the backbone metric (BERTScore F1 or the cosine of sentence embeddings) on the
texts without their numbers, and the magnitude similarity of the numbers aligned by context. It mixes them by
the share of words and numbers in the pair (every token weighs 1 by default). On request a result also carries
the plain backbone score of the original pair for comparison.
"""

METHOD_STEPS = f"""\
1. **Modal separation**: every numeric mention (`5.2 %`, `EUR 205.5 mn`, `(1.2)`, `twenty-four`, `3億元`,
   `December 31, 2019`, `Q4 2019`, `FY19`, …) is found with its value. The text channel reads each text
   with its numbers left out (the default reader, `numbers="full"`) or replaced by `[NUM]`
   (`numbers="paper"`, as the paper).
2. **Text channel**: `S_text` = the backbone metric on those texts: BERTScore F1 over token states (token
   backbone) or the cosine of pooled embeddings (sentence backbone), read from each text's one forward pass,
   in which its words cannot attend to its numbers (default), or from a second forward pass over the texts
   without their numbers, as the paper (`text_channel="two-pass"`, always with `numbers="paper"`).
3. **Number channel**: each number gets a contextual vector (the mean of the states of its sub-tokens and of
   the two words on either side of it, from that same pass; its sub-tokens alone with two passes) and aligns to
   the number of the other text with the highest cosine.
   The match counts when that cosine is at least τ ({DEFAULT_TAU} for all-MiniLM-L6-v2) and scores
   `1 / (1 + |v-u| / N)` with `N = 1 + (|v|+|u|)/2` (two dates or periods: `1 / (1 + days / 182.5)`).
   `S_num` averages both directions (no numbers anywhere → 1, numbers on one side only → 0).
4. **Mixing**: `NASH = α·S_text + (1-α)·S_num`, with `α = W_text / (W_text + W_num)`, the weight of the
   words over that of the words and the `[NUM]` tokens. By default every token weighs 1 (`idf="uniform"`,
   as in the authors' toolkit), so a pair's score depends on that pair alone; `idf="references"` is the
   paper's corpus IDF. A pair without numbers scores its text score.

With `baseline=True` a result also carries its **baseline**: the backbone metric on the original pair.
"""

# The files that quote the method, relative to the repository root, and which text each quotes.
QUOTED_IN = {
    "README.md": {"steps": METHOD_STEPS},
    "metrics/nash/README.md": {"summary": METHOD_SUMMARY, "steps": METHOD_STEPS},
    "spaces_app/README.md": {"summary": METHOD_SUMMARY},
}
_BLOCK = re.compile(r"(<!-- method: (\w+) -->\n)(.*?)(<!-- /method -->)", re.S)


def quote_blocks(markdown: str, texts: dict[str, str]) -> str:
    """`markdown` with each `<!-- method: NAME -->` block holding `texts[NAME]`."""

    def fill(match: re.Match[str]) -> str:
        text = texts[match.group(2)]
        return f"{match.group(1)}{text.rstrip()}\n{match.group(4)}"

    return _BLOCK.sub(fill, markdown)


def quoted_names(markdown: str) -> list[str]:
    """The names of the method blocks a Markdown file quotes."""
    return [m.group(2) for m in _BLOCK.finditer(markdown)]


def main(root: str = ".") -> int:
    """Rewrite the quoted blocks under `root`; print the files that changed. A file that lost one of its blocks
    cannot be rewritten: it is named, with the marker to put back, and the exit status is 1."""
    status = 0
    for relative, texts in QUOTED_IN.items():
        path = Path(root) / relative
        before = path.read_text(encoding="utf-8")
        for name in sorted(set(texts) - set(quoted_names(before))):
            print(f"{path}: no <!-- method: {name} --> ... <!-- /method --> block to rewrite", file=sys.stderr)
            status = 1
        after = quote_blocks(before, texts)
        if after != before:
            path.write_text(after, encoding="utf-8")
            print(f"rewrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
