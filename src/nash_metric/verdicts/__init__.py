"""The figure verdict, one room (docs: "Figures against a source"; Architecture, "Where to add").

In the order a figure is decided: `keys` (what each mention brings: written precision, family, context,
binding), `value` (step 1: the places of its value; its rivals), `placement` (step 2: what a place's binding
contradicts, as a typed `Basis`), `derivations` and `operations` (step 3: computed figures, an `Operation` table),
`decide` (one `Decision` per figure, the steps in order; `FigureVerdict` entries and the support fields),
`argmax` (the rule of earlier versions). `rules` is the table of switches the ablation measures, `spec` the table
of verdicts every front end shows, `reference` what pairs read once of a shared reference.

Nothing is imported here: the front ends import `verdicts.spec` before any model (or numpy) loads.
"""
