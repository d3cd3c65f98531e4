# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The scoring model, its validation split and the saved bundle."""

from __future__ import annotations

import pickle

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedShuffleSplit

from .encoding import TargetEncoder
from .features import NumericBlock


def validation_split(y, groups):
    splitter = StratifiedShuffleSplit(n_splits=1, test_size=0.2, random_state=0)
    return next(splitter.split(np.zeros(len(y)), y))


def train(table: dict) -> dict:
    y = np.asarray(table["target"], dtype=float)
    numeric = NumericBlock().fit(table["numeric"])
    encoder = TargetEncoder()
    features = np.column_stack([numeric.transform(table["numeric"]), encoder.fit_transform(table["categorical"], y)])
    fit_idx, val_idx = validation_split(y, table["group_id"])
    model = LogisticRegression(C=1.0, class_weight="balanced")
    model.fit(features[fit_idx], y[fit_idx])
    return {"numeric": numeric, "encoder": encoder, "model": model}


def predict(bundle: dict, table: dict) -> np.ndarray:
    features = np.column_stack([bundle["numeric"].transform(table["numeric"]),
                                bundle["encoder"].transform(table["categorical"])])
    return bundle["model"].predict_proba(features)[:, 1]


def save(bundle: dict, path: str) -> None:
    with open(path, "wb") as handle:
        pickle.dump(bundle, handle)


def load(path: str) -> dict:
    with open(path, "rb") as handle:
        return pickle.load(handle)
