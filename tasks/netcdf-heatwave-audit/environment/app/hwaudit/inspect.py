# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""``python3 -m hwaudit.inspect DATA_DIR``: a one-line summary of every NetCDF file (a quick look at what a
delivery holds before running the audit)."""

from __future__ import annotations

import sys
from pathlib import Path

import netCDF4


def describe(path: Path) -> str:
    with netCDF4.Dataset(path) as ds:
        parts = [path.name]
        for name, var in ds.variables.items():
            attrs = {k: var.getncattr(k) for k in var.ncattrs()}
            keep = {k: attrs[k] for k in ("units", "calendar", "standard_name", "scale_factor", "add_offset",
                                          "_FillValue", "missing_value") if k in attrs}
            parts.append(f"{name}{tuple(var.dimensions)} {var.dtype} {keep}")
        return "\n  ".join(parts)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m hwaudit.inspect DATA_DIR", file=sys.stderr)
        return 2
    for path in sorted(Path(argv[0]).glob("*.nc")):
        print(describe(path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
