# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded chart generator: a spec (series values, axes, size, noise) -> a PNG chart and its META.json sidecar.

The same generator makes the public examples at build time and the hidden charts at verify time.
Draws only through random.Random.random() so specs are identical on every machine.
"""

from __future__ import annotations

import io
import json
import math
import random

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"]
NAMES = ["revenue", "cost", "margin", "north", "south", "east", "west", "alpha", "beta", "gamma", "delta", "load",
         "demand", "supply", "output", "index"]
CATEGORY_WORDS = ["Q1", "Q2", "Q3", "Q4", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "A", "B", "C", "D", "E", "F",
                  "G", "H", "I", "J", "K", "L"]


def uniform(rng: random.Random, low: float, high: float) -> float:
    return low + (high - low) * rng.random()


def randint(rng: random.Random, low: int, high: int) -> int:
    """Integer in [low, high]."""
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def shuffled(rng: random.Random, items: list) -> list:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        items[i], items[j] = items[j], items[i]
    return items


def color_spelling(rng: random.Random, hex_color: str, style: str) -> object:
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    if style == "hex":
        return hex_color
    choice = randint(rng, 0, 3)
    if choice == 0:
        return hex_color.upper()
    if choice == 1:
        return f"rgb({r}, {g}, {b})"
    if choice == 2:
        return [r, g, b]
    return hex_color.lstrip("#")


def _nice_range(rng: random.Random, low: float, high: float) -> tuple[float, float]:
    pad = (high - low) * uniform(rng, 0.08, 0.25)
    return low - pad, high + pad


def make_spec(rng: random.Random, *, kind: str = "line", n_series: int = 1, yscale: str = "linear",
              size: str = "normal", noise: bool = False, negative: bool = False, colors: str = "hex") -> dict:
    """A random chart spec of the given family knobs."""
    if size == "normal":
        width_in, height_in, dpi = uniform(rng, 6.0, 8.0), uniform(rng, 4.0, 5.0), randint(rng, 90, 110)
    else:
        if rng.random() < 0.5:
            width_in, height_in, dpi = uniform(rng, 4.5, 5.5), uniform(rng, 3.4, 4.0), randint(rng, 72, 85)
        else:
            width_in, height_in, dpi = uniform(rng, 9.0, 12.0), uniform(rng, 5.5, 7.0), randint(rng, 120, 160)
    margins = {"left": uniform(rng, 0.10, 0.16), "right": uniform(rng, 0.90, 0.96),
               "bottom": uniform(rng, 0.10, 0.16), "top": uniform(rng, 0.78, 0.86)}
    plot_w = width_in * dpi * (margins["right"] - margins["left"])
    plot_h = height_in * dpi * (margins["top"] - margins["bottom"])
    colors_hex = shuffled(rng, PALETTE)[:n_series]
    names = shuffled(rng, NAMES)[:n_series]
    spec = {"kind": kind, "width_in": width_in, "height_in": height_in, "dpi": dpi, "margins": margins,
            "yscale": yscale, "grid": rng.random() < 0.7, "title": f"Chart {randint(rng, 1, 999)}",
            "noise": None}
    if kind == "line":
        n = randint(rng, 6, 16)
        start = uniform(rng, -50, 2000)
        step = uniform(rng, 0.5, 10)
        xs = [start + i * step + (uniform(rng, -0.3, 0.3) * step if 0 < i < n - 1 else 0) for i in range(n)]
        xpad = step * uniform(rng, 0.3, 0.8)
        xlim = [xs[0] - xpad, xs[-1] + xpad]
        marker_pt = uniform(rng, 5.0, 7.0)
        marker_px = marker_pt * dpi / 72
        dx_px = min(xs[i + 1] - xs[i] for i in range(n - 1)) / (xlim[1] - xlim[0]) * plot_w
        max_step_frac = 1.8 * dx_px / plot_h  # keep pixel slopes modest so markers stay visible
        min_gap_frac = (marker_px + 4) / plot_h
        # values in "axis fraction" space first, then mapped to data units
        # each series wanders inside its own horizontal band, bands at least a marker apart
        gap = min_gap_frac
        band = (0.8 - gap * (n_series - 1)) / n_series
        order = shuffled(rng, list(range(n_series)))
        fracs = []
        for s_index in range(n_series):
            lo = 0.1 + order[s_index] * (band + gap)
            hi = lo + band
            level = uniform(rng, lo, hi)
            series = []
            for _i in range(n):
                series.append(level)
                level = min(hi, max(lo, level + uniform(rng, -1, 1) * max_step_frac))
            fracs.append(series)
        if yscale == "log":
            lo_exp = randint(rng, -2, 2)
            hi_exp = lo_exp + randint(rng, 2, 4)
            ylim = [10.0 ** lo_exp, 10.0 ** hi_exp]
            values = [[10 ** (lo_exp + f * (hi_exp - lo_exp)) for f in s] for s in fracs]
        else:
            scale = 10 ** uniform(rng, -1, 4)
            low = uniform(rng, -1, 1) * scale
            ylim = [low, low + scale * uniform(rng, 1, 5)]
            values = [[ylim[0] + f * (ylim[1] - ylim[0]) for f in s] for s in fracs]
        spec.update({"x": xs, "xlim": xlim, "ylim": ylim, "marker_pt": marker_pt,
                     "linewidth": uniform(rng, 1.2, 2.0)})
    else:
        n = randint(rng, 3, 9)
        categories = shuffled(rng, CATEGORY_WORDS)[:n]
        top = 10 ** uniform(rng, 0, 4)
        values = []
        for _s in range(n_series):
            row = []
            for _i in range(n):
                if negative and rng.random() < 0.35:
                    row.append(-top * uniform(rng, 0.05, 0.6))
                else:
                    row.append(top * uniform(rng, 0.08, 1.0))
            values.append(row)
        low = min(0.0, min(min(r) for r in values))
        high = max(max(r) for r in values)
        pad = (high - low) * uniform(rng, 0.05, 0.2)
        ylim = [low - pad if low < 0 else 0.0, high + pad]
        spec.update({"categories": categories, "xlim": [-0.6, n - 0.4], "ylim": ylim,
                     "group_width": round(uniform(rng, 0.6, 0.85), 3)})
    spec["series"] = [{"name": names[s], "color": colors_hex[s],
                       "meta_color": color_spelling(rng, colors_hex[s], colors),
                       "values": [float(v) for v in values[s]]} for s in range(n_series)]
    if noise:
        spec["noise"] = {"jpeg_quality": randint(rng, 45, 80), "sigma": uniform(rng, 2.0, 7.0),
                         "seed": randint(rng, 0, 2**31 - 1)}
    return spec


def meta_of(spec: dict) -> dict:
    meta = {"kind": spec["kind"], "xlim": spec["xlim"], "ylim": spec["ylim"], "yscale": spec["yscale"],
            "series": [{"name": s["name"], "color": s["meta_color"]} for s in spec["series"]]}
    if spec["kind"] == "line":
        meta["x"] = spec["x"]
    else:
        meta["categories"] = spec["categories"]
        meta["group_width"] = spec["group_width"]
    return meta


def expected_of(spec: dict) -> dict:
    return {"series": {s["name"]: s["values"] for s in spec["series"]}}


def render(spec: dict, path) -> None:
    fig = plt.figure(figsize=(spec["width_in"], spec["height_in"]), dpi=spec["dpi"])
    m = spec["margins"]
    ax = fig.add_axes([m["left"], m["bottom"], m["right"] - m["left"], m["top"] - m["bottom"]])
    ax.set_axisbelow(True)
    if spec["grid"]:
        ax.grid(True, color="0.85", linewidth=0.8)
    k = len(spec["series"])
    if spec["kind"] == "line":
        for s in spec["series"]:
            ax.plot(spec["x"], s["values"], color=s["color"], linewidth=spec["linewidth"], marker="o",
                    markersize=spec["marker_pt"], label=s["name"])
    else:
        n = len(spec["categories"])
        width = spec["group_width"] / k
        for j, s in enumerate(spec["series"]):
            centres = [i - spec["group_width"] / 2 + (j + 0.5) * width for i in range(n)]
            ax.bar(centres, s["values"], width=width, color=s["color"], label=s["name"])
        ax.set_xticks(range(n))
        ax.set_xticklabels(spec["categories"])
        ax.axhline(0.0, color="0.3", linewidth=0.6) if spec["ylim"][0] < 0 else None
    ax.set_yscale(spec["yscale"])
    ax.set_xlim(*spec["xlim"])
    ax.set_ylim(*spec["ylim"])
    ax.set_title(spec["title"], pad=28 if k > 1 else 6)
    ax.set_xlabel("x")
    ax.set_ylabel("value")
    if k > 1:
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=k, fontsize=8, frameon=False)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=spec["dpi"])
    plt.close(fig)
    buffer.seek(0)
    image = Image.open(buffer).convert("RGB")
    if spec["noise"]:
        noise = spec["noise"]
        rs = np.random.RandomState(noise["seed"])
        arr = np.asarray(image, dtype=np.float64)
        arr = arr + rs.normal(0.0, noise["sigma"], arr.shape)
        image = Image.fromarray(np.clip(np.rint(arr), 0, 255).astype(np.uint8))
        jpeg = io.BytesIO()
        image.save(jpeg, format="JPEG", quality=noise["jpeg_quality"])
        jpeg.seek(0)
        image = Image.open(jpeg).convert("RGB")
    image.save(path, format="PNG")


def write_case(spec: dict, directory, stem: str) -> tuple:
    from pathlib import Path

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    png, meta = directory / f"{stem}.png", directory / f"{stem}.json"
    render(spec, png)
    meta.write_text(json.dumps(meta_of(spec), indent=2))
    return png, meta


PUBLIC_SEED = 4242
PUBLIC_CASES = [
    ("line-basic", dict(kind="line")),
    ("line-two-series", dict(kind="line", n_series=2)),
    ("bars-grouped", dict(kind="bar", n_series=2)),
    ("line-log", dict(kind="line", yscale="log")),
]


def main(out_dir: str) -> None:
    from pathlib import Path

    out = Path(out_dir)
    for index, (stem, knobs) in enumerate(PUBLIC_CASES):
        spec = make_spec(random.Random(PUBLIC_SEED + index), **knobs)
        write_case(spec, out, stem)
        (out / f"{stem}.expected.json").write_text(json.dumps(expected_of(spec), indent=2))


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
