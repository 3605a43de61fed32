"""The engine's array types: numpy arrays with their dtype, for annotations only.

- Image8: uint8 pixels 0..255: an RGB image (h, w, 3) or one channel (h, w), such as grey,
  Lab from OpenCV or a 0/1 label mask that OpenCV reads.
- Mask: float32 per pixel, 0..1: alpha mattes, person probabilities, blend weights, shadows.
- Float32: other float32 data: Lab or RGB working images, points, affine matrices.
- BoolMask: a bool per pixel (a region).
- Float64: float64 data numpy computes, such as points mapped through a fit.
- Floats: floats of either precision: what numpy's arithmetic on a float32 array gives
  (its stubs widen float32 * float to any float), and what a function takes of either.
- Ints: integer indices, such as the rows and columns np.nonzero gives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Image8 = NDArray[np.uint8]
Mask = NDArray[np.float32]
Float32 = NDArray[np.float32]
BoolMask = NDArray[np.bool_]
Float64 = NDArray[np.float64]
Floats = NDArray[np.floating[Any]]
Ints = NDArray[np.integer[Any]]

__all__ = ["BoolMask", "Float32", "Float64", "Floats", "Image8", "Ints", "Mask"]
