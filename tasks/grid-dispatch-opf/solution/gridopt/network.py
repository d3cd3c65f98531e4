# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Network description: parse a network JSON file into plain dataclasses.

Units: powers in MW, line reactance ``x`` in per unit on the system base ``base_mva`` (default 100 MVA),
line thermal ratings ``rate_mw`` in MW (the same limit applies in both directions).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


class NetworkError(ValueError):
    """The network file is malformed."""


@dataclass
class Bus:
    id: str
    kind: str = "pq"  # "slack" or "pq"


@dataclass
class Line:
    id: str
    from_bus: str
    to_bus: str
    x: float
    rate_mw: float
    in_service: bool = True
    rate_emergency_mw: float | None = None

    @property
    def emergency_mw(self) -> float:
        return self.rate_mw if self.rate_emergency_mw is None else self.rate_emergency_mw


@dataclass
class Generator:
    id: str
    bus: str
    pmin_mw: float
    pmax_mw: float
    cost: dict
    in_service: bool = True


@dataclass
class Load:
    bus: str
    p_mw: float


@dataclass
class Network:
    name: str
    base_mva: float
    buses: list[Bus]
    lines: list[Line]
    generators: list[Generator]
    loads: list[Load]
    all_lines: list[Line] = field(default_factory=list)
    all_generators: list[Generator] = field(default_factory=list)
    contingencies: list[str] = field(default_factory=list)  # line ids whose single outage must be secured

    @property
    def bus_ids(self) -> list[str]:
        return [bus.id for bus in self.buses]

    def bus_index(self) -> dict[str, int]:
        return {bus.id: index for index, bus in enumerate(self.buses)}

    @property
    def slack_index(self) -> int:
        for index, bus in enumerate(self.buses):
            if bus.kind == "slack":
                return index
        return 0

    def load_by_bus(self) -> dict[str, float]:
        totals = {bus.id: 0.0 for bus in self.buses}
        for load in self.loads:
            totals[load.bus] += load.p_mw
        return totals

    @property
    def total_load_mw(self) -> float:
        return sum(load.p_mw for load in self.loads)


def _flag(value: object, default: bool = True) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    return str(value).strip().lower() in {"1", "true", "yes", "on"}


def _parse_cost(raw: object, gen_id: str) -> dict:
    if not isinstance(raw, dict) or "type" not in raw:
        raise NetworkError(f"generator {gen_id}: cost must be an object with a type")
    kind = raw["type"]
    if kind == "linear":
        return {"type": "linear", "c0": float(raw.get("c0", 0.0)), "c1": float(raw["c1"])}
    if kind == "piecewise":
        points = [(float(p), float(c)) for p, c in raw["points"]]
        if len(points) < 2:
            raise NetworkError(f"generator {gen_id}: a piecewise cost needs at least two points")
        for (p_a, _), (p_b, _) in zip(points, points[1:]):
            if p_b <= p_a:
                raise NetworkError(f"generator {gen_id}: piecewise points must have increasing MW")
        return {"type": "piecewise", "points": points}
    raise NetworkError(f"generator {gen_id}: unknown cost type {kind!r}")


def parse_network(data: dict) -> Network:
    base = float(data.get("base_mva", 100.0))
    buses = [Bus(str(b["id"]), str(b.get("type", "pq")).lower()) for b in data["buses"]]
    known = {bus.id for bus in buses}
    all_lines = []
    for raw in data.get("lines", []):
        line = Line(
            str(raw["id"]), str(raw["from"]), str(raw["to"]), float(raw["x"]), float(raw["rate_mw"]),
            _flag(raw.get("in_service")),
            None if raw.get("rate_emergency_mw") is None else float(raw["rate_emergency_mw"]),
        )
        if line.from_bus not in known or line.to_bus not in known:
            raise NetworkError(f"line {line.id} connects an unknown bus")
        if line.x <= 0:
            raise NetworkError(f"line {line.id}: reactance must be positive")
        all_lines.append(line)
    all_gens = []
    for raw in data.get("generators", []):
        gen_id = str(raw["id"])
        gen = Generator(
            gen_id, str(raw["bus"]), float(raw.get("pmin_mw", 0.0)), float(raw["pmax_mw"]),
            _parse_cost(raw["cost"], gen_id), _flag(raw.get("in_service")),
        )
        if gen.bus not in known:
            raise NetworkError(f"generator {gen_id} sits at an unknown bus")
        all_gens.append(gen)
    loads = [Load(str(raw["bus"]), float(raw["p_mw"])) for raw in data.get("loads", [])]
    for load in loads:
        if load.bus not in known:
            raise NetworkError(f"a load sits at an unknown bus {load.bus}")
    spec = data.get("contingencies")
    if spec is None:
        contingencies = []
    elif spec == "all":
        contingencies = [line.id for line in all_lines]
    else:
        contingencies = [str(item) for item in spec]
    return Network(
        contingencies=contingencies,
        name=str(data.get("name", "network")),
        base_mva=base,
        buses=buses,
        lines=[line for line in all_lines if line.in_service],
        generators=[gen for gen in all_gens if gen.in_service],
        loads=loads,
        all_lines=all_lines,
        all_generators=all_gens,
    )


def load_network(path: str | Path) -> Network:
    with open(path, encoding="utf-8") as handle:
        return parse_network(json.load(handle))
