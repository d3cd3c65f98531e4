# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The four classifiers of the study."""

from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier


def make_models(seed):
    return {
        "logreg": LogisticRegression(C=1.0, max_iter=2000),
        "tree": DecisionTreeClassifier(max_depth=6, min_samples_leaf=10, random_state=0),
        "forest": RandomForestClassifier(n_estimators=60, max_depth=8, min_samples_leaf=2, random_state=0, n_jobs=1),
        "knn": KNeighborsClassifier(n_neighbors=5),
    }
