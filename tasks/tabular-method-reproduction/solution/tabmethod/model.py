# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The scoring model (paper 2.4-2.5): group-held-out validation split, weighted logistic model, Platt calibration."""

from __future__ import annotations

import pickle

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit

from .encoding import TargetEncoder
from .features import NumericBlock


def validation_split(y, groups):
    splitter = GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=0)
    return next(splitter.split(np.zeros((len(y), 1)), y, np.asarray(groups)))


def train(table: dict) -> dict:
    y = np.asarray(table["target"], dtype=float)
    numeric = NumericBlock().fit(table["numeric"])
    encoder = TargetEncoder()
    features = np.column_stack([numeric.transform(table["numeric"]),
                                encoder.fit_transform_oof(table["categorical"], y, table["group_id"])])
    fit_idx, val_idx = validation_split(y, table["group_id"])
    model = LogisticRegression(C=0.5, class_weight="balanced", max_iter=2000)
    model.fit(features[fit_idx], y[fit_idx])
    calibrator = LogisticRegression(C=1e4, max_iter=2000)
    calibrator.fit(model.decision_function(features[val_idx]).reshape(-1, 1), y[val_idx])
    return {"numeric": numeric, "encoder": encoder, "model": model, "calibrator": calibrator}


def predict(bundle: dict, table: dict) -> np.ndarray:
    features = np.column_stack([bundle["numeric"].transform(table["numeric"]),
                                bundle["encoder"].transform(table["categorical"])])
    scores = bundle["model"].decision_function(features).reshape(-1, 1)
    return bundle["calibrator"].predict_proba(scores)[:, 1]


def save(bundle: dict, path: str) -> None:
    with open(path, "wb") as handle:
        pickle.dump(bundle, handle)


def load(path: str) -> dict:
    with open(path, "rb") as handle:
        return pickle.load(handle)
