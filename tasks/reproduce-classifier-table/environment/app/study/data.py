# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Loading the loan table."""

import pandas as pd

NUMERIC = ["age", "income", "debt_ratio", "num_accounts", "utilization", "late_payments"]
CATEGORICAL = ["region", "employment"]
LABEL = "risk"


def load_table(path):
    frame = pd.read_csv(path)
    frame = frame.dropna()  # incomplete rows are unreliable
    return frame.reset_index(drop=True)


def split_xy(frame):
    X = frame[NUMERIC + CATEGORICAL].copy()
    y = frame[LABEL].astype(str).to_numpy()
    return X, y


def customers(frame):
    return frame["customer_id"].astype(str).to_numpy()
