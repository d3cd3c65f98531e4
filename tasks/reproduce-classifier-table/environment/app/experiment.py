# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Produce Tables 1 and 2 of paper.md:  python3 experiment.py  (writes results/table1.json, results/table1.md and
results/table2.json)."""

import json
import os

from study.ablation import CHANGES, run_change
from study.data import customers, load_table, split_xy
from study.evaluate import cross_validate
from study.features import prepare

DATA = "data/loans.csv"
SEED = 7


def main():
    frame = load_table(DATA)
    X, y = split_xy(frame)
    features = prepare(X)
    table = cross_validate(features, y, SEED)
    ranking = sorted(table, key=lambda m: -table[m]["macro_f1_mean"])
    os.makedirs("results", exist_ok=True)
    with open("results/table1.json", "w") as handle:
        json.dump({"methods": table, "ranking": ranking}, handle, indent=2)
    with open("results/table1.md", "w") as handle:
        handle.write("| method | accuracy | macro-F1 |\n|---|---|---|\n")
        for name in ranking:
            handle.write(f"| {name} | {table[name]['accuracy_mean']:.3f} | {table[name]['macro_f1_mean']:.3f} |\n")
    print(open("results/table1.md").read())
    table2 = {change: run_change(X, y, customers(frame), SEED, change) for change in CHANGES}
    with open("results/table2.json", "w") as handle:
        json.dump(table2, handle, indent=2)


if __name__ == "__main__":
    main()
