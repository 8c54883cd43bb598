"""The examples of the docs' "Figures against data" section, run as written: a weather forecast given as JSON and a
box score given as a JSON game record, each checked figure by figure.

    python scripts/figures_against_data.py
"""

from __future__ import annotations

from nash_metric import NASH

FORECAST = """{"city": {"name": "Tromso", "country": "NO"}, "units": {"temp": "°C", "wind": "m/s"},
 "list": [
  {"dt_txt": "2024-03-01 06:00:00", "main": {"temp": -2.5, "humidity": 81}, "wind": {"speed": 4.1}},
  {"dt_txt": "2024-03-01 15:00:00", "main": {"temp": 1.4, "humidity": 70}, "wind": {"speed": 6.3}},
  {"dt_txt": "2024-03-02 06:00:00", "main": {"temp": -4.0, "humidity": 88}, "wind": {"speed": 2.2}},
  {"dt_txt": "2024-03-02 15:00:00", "main": {"temp": 0.6, "humidity": 75}, "wind": {"speed": 3.0}}]}"""
WEATHER = ("Over the two days, temperatures will range from -4.0°C to 1.4°C, with the wind peaking at 4.1 m/s "
           "and humidity reaching 88%.")

GAME = """{"home": {"team": "Rangers", "goals": 3, "shots": 31, "periods": [1, 2, 0]},
 "away": {"team": "Bruins", "goals": 1, "shots": 27, "periods": [0, 1, 0]},
 "players": [{"name": "Mika Zibanejad", "team": "Rangers", "goals": 2, "assists": 0},
             {"name": "Brad Marchand", "team": "Bruins", "goals": 1, "assists": 0}]}"""
RECAP = ("The Rangers beat the Bruins 3-1, outshooting them 31 to 27. Mika Zibanejad scored 2 goals, "
         "and the Bruins took 31 shots.")


def main() -> None:
    # The forecast's humidity is a percent its key does not say: a glossary entry says it.
    scorer = NASH(glossary={"humidity": "humidity percent"})
    out = scorer.score([WEATHER, RECAP], [FORECAST, GAME])
    for name, entries in zip(("weather", "box score"), out.figure_verdicts):
        print(f"# {name}")
        for e in entries:
            cell = (e["found"] or e["reference"] or {}).get("cell") or {}
            where = f"{cell['path']} ({cell['row']})" if cell.get("path") else ""
            extra = e["derivation"] or e["basis"] or ""
            print(f"{e['text']:>8}  {e['verdict']:<11} {where}  {extra}".rstrip())
    print(f"hashcode: {out.hashcode}")


if __name__ == "__main__":
    main()
