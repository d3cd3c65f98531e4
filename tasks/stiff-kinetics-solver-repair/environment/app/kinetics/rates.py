# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Mass-action rates, the right-hand side dc/dt = S r(c) and its analytic Jacobian."""

from __future__ import annotations

import numpy as np

from .mechanism import Mechanism


class RateModel:
    """f(c) and J(c) = df/dc at a fixed temperature, for the internal units (mol/L, s)."""

    def __init__(self, mech: Mechanism, T: float) -> None:
        self.mech = mech
        n_s = len(mech.species)
        steps = []  # (rate constant, orders vector, net stoichiometry vector), one per direction
        for rxn in mech.reactions:
            net = np.zeros(n_s)
            for name, nu in rxn.reactants.items():
                net[mech.index(name)] -= nu
            for name, nu in rxn.products.items():
                net[mech.index(name)] += nu
            steps.append((rxn.forward.k(T), self._orders(rxn.reactants), net))
            if rxn.reverse is not None:
                steps.append((rxn.reverse.k(T), self._orders(rxn.products), -net))
        self.k = np.array([s[0] for s in steps])
        self.orders = np.array([s[1] for s in steps]).reshape(len(steps), n_s)
        self.stoich = np.array([s[2] for s in steps]).reshape(len(steps), n_s).T  # (species, steps)
        self.nfev = 0
        self.njev = 0

    def _orders(self, side: dict[str, float]) -> np.ndarray:
        orders = np.zeros(len(self.mech.species))
        for name, nu in side.items():
            orders[self.mech.index(name)] += nu
        return orders

    def rates(self, c: np.ndarray) -> np.ndarray:
        c = np.maximum(c, 0.0)  # mass action is only defined for c >= 0
        return self.k * np.prod(np.power(c[None, :], self.orders), axis=1)

    def rhs(self, t: float, c: np.ndarray) -> np.ndarray:
        self.nfev += 1
        return self.stoich @ self.rates(c)

    def jacobian(self, t: float, c: np.ndarray) -> np.ndarray:
        """J[i, j] = sum_r S[i, r] * d rate_r / d c_j."""
        self.njev += 1
        c = np.maximum(c, 0.0)
        n_steps, n_s = self.orders.shape
        drate = np.zeros((n_steps, n_s))
        for j in range(n_s):
            active = self.orders[:, j] > 0
            if not active.any():
                continue
            others = np.power(c[None, :], self.orders[active])
            others[:, j] = 1.0
            drate[active, j] = (self.k[active]
                                * np.power(c[j], self.orders[active, j] - 1.0) * np.prod(others, axis=1))
        return self.stoich @ drate
