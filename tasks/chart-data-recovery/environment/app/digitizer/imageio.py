# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Loading chart images as float RGB arrays (rows top to bottom, values 0..255)."""

from __future__ import annotations

import numpy as np
from PIL import Image


def load_rgb(path) -> np.ndarray:
    """The image as an (H, W, 3) float64 array; transparency is composited onto white."""
    with Image.open(path) as image:
        image.load()
        if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
            rgba = image.convert("RGBA")
            background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            image = Image.alpha_composite(background, rgba)
        rgb = image.convert("RGB")
    return np.asarray(rgb, dtype=np.float64)


def darkness(rgb: np.ndarray) -> np.ndarray:
    """0 for white .. 1 for black, from the brightest channel (coloured pixels are not dark)."""
    return 1.0 - rgb.max(axis=2) / 255.0
