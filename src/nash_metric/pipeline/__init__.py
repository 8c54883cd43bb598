"""The method (docs/method.md §1): a pure pipeline over a frozen fitted state.

    fitted     `Fitted`: what the options and the corpus decide (encoder, tau, IDF, rescale), built once
    echo       the configuration echo of a `Fitted` and its hashcode
    steps      `score_chunk(fitted, predictions, references) -> ScoredCall`: the method top to bottom, with the
               support step and the mixing formula
    pool       modal separation: distinct texts, their numbers, masked and text-channel forms
    alignment  directional argmax alignment, the tau gate, magnitude similarity, S_num
    support    the support verdict of each number of the prediction
    weighting  IDF and alpha
    mixing     NASH = alpha S_text + (1 - alpha) S_num, and its precision and recall
    output     `NASHOutput` and its public field names
"""
