"""Gradio widget for the NASH metric: the Space's `app_file` (`python app.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import evaluate
import gradio as gr
import pandas as pd
from evaluate.utils import launch_gradio_widget
from evaluate.utils.gradio import (
    infer_gradio_input_types,
    json_to_string_type,
    parse_gradio_data,
    parse_readme,
)

HERE = Path(__file__).resolve().parent


def load_module() -> evaluate.EvaluationModule:
    # Load by file path: a Space clones the repo into a folder named `app`, and evaluate would look for
    # `app/app.py` as the metric script if given the folder.
    return evaluate.load(str(HERE / "nash.py"))


def build_widget(metric: evaluate.EvaluationModule) -> gr.Interface:
    """evaluate's own metric widget, written against the current Gradio API.

    `evaluate.utils.launch_gradio_widget` still uses `gr.inputs` / `gr.outputs`, which Gradio 4 removed;
    this keeps its layout and its input parsing (JSON lists for several references per prediction).
    """
    # The first feature set (a list of references per prediction) also accepts a single quoted string.
    features = metric.features[0] if isinstance(metric.features, list) else metric.features
    feature_names, feature_types = zip(*features.items(), strict=True)
    input_types = infer_gradio_input_types(feature_types)

    def compute(data: pd.DataFrame) -> dict[str, Any]:
        inputs = parse_gradio_data(data, input_types)
        # A cell may hold one quoted reference or a JSON list; the metric wants one shape for all rows.
        inputs["references"] = [[ref] if isinstance(ref, str) else ref for ref in inputs["references"]]
        return metric.compute(**inputs)

    example = pd.DataFrame(
        {"predictions": ['"Revenue increased by 4%."'], "references": ['["Revenue increased by 3.56%."]']}
    )
    return gr.Interface(
        fn=compute,
        inputs=gr.Dataframe(
            value=example,
            headers=list(feature_names),
            column_count=len(feature_names),
            row_count=1,
            datatype=json_to_string_type(input_types),
        ),
        outputs=gr.Textbox(label=metric.name),
        description=(
            metric.info.description + "\nWrap each text in double quotes; give several references per"
            ' prediction as a JSON list, e.g. ["first reference", "second reference"].'
        ),
        title=f"Metric: {metric.name}",
        article=parse_readme(HERE / "README.md"),
    )


if __name__ == "__main__":
    module = load_module()
    if hasattr(gr, "inputs"):  # Gradio < 4: evaluate's widget works as is.
        launch_gradio_widget(module)
    else:
        build_widget(module).launch()
