"""TAT-QA-shaped question records for the FilingClaims tests (written here, not copied from the data)."""

from __future__ import annotations

from typing import Any


def question(uid: str, text: str, answer: Any, derivation: str = "", answer_from: str = "table", scale: str = "",
             answer_type: str = "span") -> dict[str, Any]:
    """One question of a TAT-QA context, with the fields the FilingClaims builder reads."""
    return {"uid": uid, "order": 1, "question": text, "answer": answer, "derivation": derivation,
            "answer_type": answer_type, "answer_from": answer_from, "rel_paragraphs": [], "scale": scale}
