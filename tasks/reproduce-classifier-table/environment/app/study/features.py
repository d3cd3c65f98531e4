# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Feature preprocessing."""

from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from study.data import CATEGORICAL, NUMERIC


def make_preprocessor(numeric_columns=NUMERIC, categorical_columns=CATEGORICAL):
    numeric = Pipeline([("impute", SimpleImputer(strategy="mean")), ("scale", StandardScaler())])
    categorical = Pipeline([
        ("impute", SimpleImputer(strategy="most_frequent")),
        ("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False)),
    ])
    parts = [("num", numeric, list(numeric_columns))]
    if categorical_columns:
        parts.append(("cat", categorical, list(categorical_columns)))
    return ColumnTransformer(parts)


def prepare(X):
    """Encode the whole table once, so every model sees the same features."""
    return make_preprocessor().fit_transform(X)
