# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Table 2: the ablation of the logistic regression and the neighbour vote (draft, never reviewed)."""

import numpy as np
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import GroupKFold, KFold

from study.data import CATEGORICAL, NUMERIC
from study.features import make_preprocessor
from study.models import make_models

CHANGES = {
    "ungrouped": {},
    "raw_income": {},
    "no_history": {"drop": ["num_accounts"]},
    "no_categories": {"drop": CATEGORICAL},
    "complete_cases": {},
}


def run_change(frame, y, groups, seed, change):
    drop = CHANGES[change].get("drop", [])
    columns = [c for c in NUMERIC + CATEGORICAL if c not in drop]
    X = frame[columns]
    if change == "ungrouped":
        splits = KFold(n_splits=5).split(X)
    else:
        splits = GroupKFold(n_splits=5).split(X, y, groups)
    scores = {"logreg": [], "knn": []}
    for train, test in splits:
        if change == "complete_cases":
            train = [i for i in train if frame.iloc[i].notna().all()]
            test = [i for i in test if frame.iloc[i].notna().all()]
        prep = make_preprocessor([c for c in NUMERIC if c in columns], [c for c in CATEGORICAL if c in columns])
        prep.fit(X.iloc[train])
        models = make_models(seed)
        for name in scores:
            model = models[name].fit(prep.transform(X.iloc[train]), y[train])
            pred = model.predict(prep.transform(X.iloc[test]))
            scores[name].append((accuracy_score(y[test], pred), f1_score(y[test], pred, average="macro")))
    return {name: {"accuracy_mean": float(np.mean([a for a, _ in s])), "macro_f1_mean": float(np.mean([f for _, f in s]))}
            for name, s in scores.items()}
