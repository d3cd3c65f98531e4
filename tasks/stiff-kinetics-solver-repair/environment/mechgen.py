# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded mechanism generator: a structured mechanism (internal units mol/L, s, J/mol) rendered to a YAML
mechanism file and a CONDITIONS.json in randomly chosen units and spellings.

Every generated reaction conserves a "mass" per species (returned with the case) so totals can be checked.
Draws only through random.Random.random().
"""

from __future__ import annotations

import json
import math
import random

R_GAS = 8.314462618
CONC = {"mol/L": 1.0, "mmol/L": 1e-3, "umol/L": 1e-6, "mol/m3": 1e-3}
TIME = {"s": 1.0, "min": 60.0, "h": 3600.0}
ENERGY = {"J/mol": 1.0, "kJ/mol": 1000.0, "cal/mol": 4.184, "kcal/mol": 4184.0}
NAMES = ["A", "B", "C", "D", "E", "F", "G", "H", "X", "Y", "Z", "P", "Q", "R1", "R2", "I1", "I2", "O2", "H2O2",
         "NO", "NO2", "N2O5", "CH3", "C2H6", "OH", "HO2", "Int", "Prod", "S", "E1", "ES"]


def uniform(rng, low, high):
    return low + (high - low) * rng.random()


def loguniform(rng, low, high):
    return 10 ** uniform(rng, math.log10(low), math.log10(high))


def randint(rng, low, high):
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def pick(rng, items):
    return items[min(int(rng.random() * len(items)), len(items) - 1)]


def shuffled(rng, items):
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        items[i], items[j] = items[j], items[i]
    return items


def rxn(reactants, products, A, Ea=0.0, b=0.0, reverse=None):
    return {"reactants": reactants, "products": products, "A": A, "Ea": Ea, "b": b, "reverse": reverse}


# ---------------------------------------------------------------------------------------------------------------
# families: each returns (species, masses, reactions, initial (mol/L), t_end (s), log_times, T)

def fam_chain(rng):
    n = randint(rng, 3, 6)
    sp = shuffled(rng, NAMES)[:n]
    reactions = [rxn({sp[i]: 1}, {sp[i + 1]: 1}, loguniform(rng, 0.2, 5.0)) for i in range(n - 1)]
    if rng.random() < 0.5:
        reactions.append(rxn({sp[1]: 1}, {sp[0]: 1}, loguniform(rng, 0.05, 1.0)))
    kmin = min(r["A"] for r in reactions)
    return sp, [1] * n, reactions, {sp[0]: uniform(rng, 0.5, 2.0)}, 6.0 / kmin, False, 298.15


def fam_robertson(rng):
    sp = shuffled(rng, NAMES)[:3]
    a, b, c = sp
    f = [uniform(rng, 0.5, 2.0) for _ in range(3)]
    reactions = [rxn({a: 1}, {b: 1}, 0.04 * f[0]),
                 rxn({b: 2}, {b: 1, c: 1}, 3.0e7 * f[1]),
                 rxn({b: 1, c: 1}, {a: 1, c: 1}, 1.0e4 * f[2])]
    return sp, [1, 1, 1], reactions, {a: 1.0}, 10 ** randint(rng, 3, 5), True, 298.15


def fam_reversible(rng):
    sp = shuffled(rng, NAMES)[:4]
    a, b, c, d = sp
    T = uniform(rng, 280.0, 420.0)
    e1, e2 = uniform(rng, 5e3, 4e4), uniform(rng, 5e3, 4e4)
    k1 = loguniform(rng, 0.5, 20.0) * math.exp(e1 / (R_GAS * T))
    k2 = loguniform(rng, 0.5, 20.0) * math.exp(e2 / (R_GAS * T))
    reactions = [rxn({a: 1, b: 1}, {c: 1}, k1, Ea=e1, reverse={"A": loguniform(rng, 0.1, 2.0), "Ea": 0.0, "b": 0.0}),
                 rxn({a: 2}, {d: 1}, k2, Ea=e2, reverse={"A": loguniform(rng, 0.1, 2.0), "Ea": 0.0, "b": 0.0})]
    init = {a: uniform(rng, 0.5, 2.0), b: uniform(rng, 0.3, 1.5)}
    return sp, [1, 1, 2, 2], reactions, init, uniform(rng, 3.0, 10.0), False, T


def fam_network(rng, n_min=5, n_max=9, stiff=True):
    n = randint(rng, n_min, n_max)
    sp = shuffled(rng, NAMES)[:n]
    masses = [randint(rng, 1, 3) for _ in range(n)]
    by_mass = {m: [s for s, mm in zip(sp, masses) if mm == m] for m in (1, 2, 3)}
    if not by_mass[1]:
        masses[0] = 1
        by_mass = {m: [s for s, mm in zip(sp, masses) if mm == m] for m in (1, 2, 3)}
    lo, hi = (1e-2, 1e5) if stiff else (0.1, 5.0)
    reactions = []
    seen = set()
    for _ in range(4 * n):
        kind = pick(rng, ["iso", "assoc", "dissoc", "auto"])
        if kind == "iso":
            m = pick(rng, [m for m in (1, 2, 3) if len(by_mass[m]) >= 2] or [1])
            if len(by_mass[m]) < 2:
                continue
            x, y = shuffled(rng, by_mass[m])[:2]
            r = ({x: 1}, {y: 1})
        elif kind in ("assoc", "dissoc"):
            x = pick(rng, by_mass[1])
            y = pick(rng, by_mass[1] + by_mass[2])
            m = 1 + masses[sp.index(y)]
            if not by_mass.get(m):
                continue
            z = pick(rng, by_mass[m])
            left = {x: 2} if x == y else {x: 1, y: 1}
            r = (left, {z: 1}) if kind == "assoc" else ({z: 1}, left)
        else:  # autocatalysis x + y -> 2 y with equal masses
            m = pick(rng, [m for m in (1, 2, 3) if len(by_mass[m]) >= 2] or [1])
            if len(by_mass[m]) < 2:
                continue
            x, y = shuffled(rng, by_mass[m])[:2]
            r = ({x: 1, y: 1}, {y: 2})
        key = (tuple(sorted(r[0].items())), tuple(sorted(r[1].items())))
        if key in seen:
            continue
        seen.add(key)
        reverse = None
        if rng.random() < 0.25 and kind != "auto":
            reverse = {"A": loguniform(rng, lo, hi), "Ea": 0.0, "b": 0.0}
        reactions.append(rxn(r[0], r[1], loguniform(rng, lo, hi), reverse=reverse))
        if len(reactions) >= n + 2:
            break
    init = {s: uniform(rng, 0.2, 1.0) for s in sp[: max(2, n // 2)]}
    t_end = 10 ** uniform(rng, 1, 3) if stiff else uniform(rng, 3, 8)
    return sp, masses, reactions, init, t_end, stiff, 298.15


FAMILIES = {
    "chain": fam_chain,
    "robertson": fam_robertson,
    "reversible": fam_reversible,
    "units": lambda rng: fam_network(rng, 4, 6, stiff=False),
    "stiff_network": fam_network,
    "large_network": lambda rng: fam_network(rng, 10, 16, stiff=True),
}


# ---------------------------------------------------------------------------------------------------------------
def spell_side(rng, side: dict, style: str) -> str:
    terms = []
    for name, nu in side.items():
        nu_int = int(nu)
        s = style if style != "mixed" else pick(rng, ["space", "nospace", "repeat"])
        if nu_int == 1:
            terms.append(name)
        elif s == "space":
            terms.append(f"{nu_int} {name}")
        elif s == "nospace":
            terms.append(f"{nu_int}{name}")
        else:
            terms.extend([name] * nu_int)
    return " + ".join(terms)


def make_case(family: str, rng: random.Random, *, units_mode: str = "random", style: str = "mixed") -> dict:
    sp, masses, reactions, init, t_end, log_times, T = FAMILIES[family](rng)
    if units_mode == "si" or (units_mode == "random" and family not in ("units", "reversible", "chain")):
        mu = {"concentration": "mol/L", "time": "s", "energy": "J/mol"}
        cu = {"concentration": "mol/L", "time": "s"}
    else:
        mu = {"concentration": pick(rng, list(CONC)), "time": pick(rng, list(TIME)), "energy": pick(rng, list(ENERGY))}
        cu = {"concentration": pick(rng, list(CONC)), "time": pick(rng, list(TIME))}
    cf, tf, ef = CONC[mu["concentration"]], TIME[mu["time"]], ENERGY[mu["energy"]]

    def to_mech(rate: dict, order: float) -> dict:
        out = {"A": float("%.6g" % (rate["A"] / (cf ** (1.0 - order) / tf)))}
        if rate.get("Ea"):
            out["Ea"] = float("%.6g" % (rate["Ea"] / ef))
        if rate.get("b"):
            out["b"] = rate["b"]
        return out

    items = []
    for r in reactions:
        arrow = " <=> " if r["reverse"] else " -> "
        item = {"equation": spell_side(rng, r["reactants"], style) + arrow + spell_side(rng, r["products"], style),
                "rate": to_mech(r, sum(r["reactants"].values()))}
        if r["reverse"]:
            item["reverse"] = to_mech(r["reverse"], sum(r["products"].values()))
        items.append(item)
    # the exact rate constants the reference uses are the ones written to the file (rounded)
    exact = []
    for r, item in zip(reactions, items):
        fwd = {"A": item["rate"]["A"] * cf ** (1.0 - sum(r["reactants"].values())) / tf,
               "Ea": item["rate"].get("Ea", 0.0) * ef, "b": item["rate"].get("b", 0.0)}
        rev = None
        if r["reverse"]:
            rev = {"A": item["reverse"]["A"] * cf ** (1.0 - sum(r["products"].values())) / tf,
                   "Ea": item["reverse"].get("Ea", 0.0) * ef, "b": item["reverse"].get("b", 0.0)}
        exact.append({"reactants": r["reactants"], "products": r["products"], "forward": fwd, "reverse": rev})
    ccf, ctf = CONC[cu["concentration"]], TIME[cu["time"]]
    n_times = randint(rng, 8, 14)
    if log_times:
        t_first = t_end * 10 ** -uniform(rng, 5, 7)
        times_s = [t_first * (t_end / t_first) ** (i / (n_times - 1)) for i in range(n_times)]
        if rng.random() < 0.5:
            times_s = [0.0] + times_s
    else:
        times_s = [t_end * i / (n_times - 1) for i in range(n_times)]
        if rng.random() < 0.4:
            times_s = times_s[1:]
    times = [float("%.6g" % (t / ctf)) for t in times_s]
    initial = {k: float("%.6g" % (v / ccf)) for k, v in init.items()}
    mech = {"name": f"{family}-mechanism", "units": mu, "species": sp, "reactions": items}
    cond = {"T": round(T, 3), "units": cu, "initial": initial, "times": times, "rtol": 1e-4,
            "atol": float("%.3g" % (1e-10 / ccf))}
    return {"mechanism": mech, "conditions": cond, "masses": masses, "exact": exact, "family": family}


def to_yaml(mech: dict) -> str:
    lines = [f"name: {mech['name']}",
             "units: {concentration: %s, time: %s, energy: %s}" % (mech["units"]["concentration"],
                                                                    mech["units"]["time"], mech["units"]["energy"]),
             "species: [" + ", ".join(f'"{s}"' for s in mech["species"]) + "]", "reactions:"]
    for item in mech["reactions"]:
        lines.append(f'  - equation: "{item["equation"]}"')
        for key in ("rate", "reverse"):
            if key in item:
                fields = ", ".join(f"{k}: {v!r}" for k, v in item[key].items())
                lines.append(f"    {key}: {{{fields}}}")
    return "\n".join(lines) + "\n"


def write_case(case: dict, directory, stem: str):
    from pathlib import Path

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    mech_path, cond_path = directory / f"{stem}.yaml", directory / f"{stem}.conditions.json"
    mech_path.write_text(to_yaml(case["mechanism"]))
    cond_path.write_text(json.dumps(case["conditions"], indent=2))
    return mech_path, cond_path


PUBLIC_SEED = 5150
PUBLIC_CASES = [("chain", "si", "space"), ("robertson", "si", "space"), ("reversible", "random", "space")]


def main(out_dir: str) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    for index, (family, units_mode, style) in enumerate(PUBLIC_CASES):
        case = make_case(family, random.Random(PUBLIC_SEED + index), units_mode=units_mode, style=style)
        write_case(case, out_dir, f"{index + 1:02d}-{family}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
