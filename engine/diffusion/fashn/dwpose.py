"""DWPose whole-body keypoints with onnxruntime, run as the FASHN try-on reference runs it.

Two ONNX models, both published by DWPose's authors (Apache-2.0; engine/diffusion/weights.py):
1. YOLOX-L (``yolox_l.onnx``) finds the people. The photo, BGR and unnormalised (0..255), is
   fitted into the detector's square input (640x640) from the top-left corner, the rest grey
   114. Its raw output is one row per anchor of the three strides 8, 16, 32: box centre offset,
   log size, objectness and 80 class scores (both already through a sigmoid). A person is
   objectness x class-0 score; boxes over 0.1 go through non-maximum suppression (IoU 0.45)
   and those over 0.3 are kept. With no one found, the whole photo is the one box.
2. The RTMPose-l student ``dw-ll_ucoco_384.onnx`` (288x384 input) reads each person: the box,
   widened 1.25x and to the input's aspect ratio, is warped to the input (black outside the
   photo), normalised with ImageNet's mean and deviation -- in the BGR order it receives, as
   the reference does -- and the model gives SimCC vectors: per keypoint, one score per half
   pixel along x (576) and along y (768). A keypoint is the two maxima's bins / 2; its score the
   smaller of the two maxima.

Output: per person, the 133 COCO-WholeBody keypoints (body 17, feet 6, face 68, hands 21 + 21) in
the photo's pixels with their scores, which fashn/pose.py turns into the pose drawing. The
reference fits the photo inside 864x864 first (pose.drawing_size); the caller does that.

Loading checks each file's interface (input and output names, ranks, fixed sizes, float32)
against what this code feeds and reads, so that a wrong file stops the worker at start with a
DWPoseWeightsError naming the file and the port, never a shape error mid-job. The input sizes are
read from the files: the tiny twins (dwpose_tiny.py) are small versions of the same interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.arrays import Float32, Float64, Floats, Image8
from engine.diffusion.weights import DWPOSE_DETECTOR, DWPOSE_POSE, WeightsError

KEYPOINTS = 133  # COCO-WholeBody
CLASSES = 80  # COCO; class 0 is "person"
STRIDES = (8, 16, 32)  # YOLOX's three feature levels
SIMCC_SPLIT = 2  # SimCC bins per input pixel
# The interface names: YOLOX's ONNX export defaults and MMDeploy's for RTMPose's SimCC head.
DETECTOR_INPUT, DETECTOR_OUTPUT = "images", "output"
POSE_INPUT, POSE_OUTPUTS = "input", ("simcc_x", "simcc_y")

PAD_GREY = 114  # the detector's letterbox fill
CANDIDATE_SCORE = 0.1  # boxes considered by the suppression
NMS_IOU = 0.45
PERSON_SCORE = 0.3  # boxes kept as people
BOX_PADDING = 1.25  # the pose crop around a person's box
MEAN = np.array([123.675, 116.28, 103.53])  # ImageNet's, applied to B, G, R in that order
STD = np.array([58.395, 57.12, 57.375])


class DWPoseWeightsError(WeightsError):
    """An ONNX file is missing, unreadable or of another interface: the message names it."""


@dataclass(frozen=True)
class People:
    """Everyone found in one photo (n >= 1: with no detection, the whole photo was read)."""

    keypoints: Float64  # (n, 133, 2) pixels of the photo, x then y
    scores: Float32  # (n, 133)
    boxes: Float64  # (n, 4) the detected boxes (x0, y0, x1, y1), pixels of the photo


def anchor_count(height: int, width: int) -> int:
    """Rows of the detector's output for an input of height x width."""
    return sum((height // stride) * (width // stride) for stride in STRIDES)


# ---------------------------------------------------------------------------------------------
# Loading


def _dims(port: Any) -> list[int | None]:
    """A port's shape with symbolic or unknown sizes (a dynamic batch) as None."""
    return [size if isinstance(size, int) else None for size in port.shape]


def _check(path: Path, kind: str, ports: list[Any], expected: dict[str, list[int | None]]) -> None:
    """Every expected port is there, float32, of that rank and of the fixed sizes given (None:
    any size). Raises DWPoseWeightsError naming the file and each port that does not fit."""
    found = {port.name: port for port in ports}
    problems = [f"{kind} {name!r} is missing (it has {sorted(found)})"
                for name in expected if name not in found]
    for name, shape in expected.items():
        port = found.get(name)
        if port is None:
            continue
        dims = _dims(port)
        fits = len(dims) == len(shape) and all(
            want is None or got is None or got == want for got, want in zip(dims, shape,
                                                                             strict=True))
        if not fits:
            shown = ["?" if size is None else size for size in shape]
            problems.append(f"{kind} {name!r} is {port.shape}, not {shown}")
        if port.type != "tensor(float)":
            problems.append(f"{kind} {name!r} is {port.type}, not tensor(float)")
    if problems:
        raise DWPoseWeightsError(f"{path}: " + "; ".join(problems))


def _image_input(path: Path, session: Any, name: str) -> tuple[int, int]:
    """The session's one input is `name`, a float32 (1, 3, height, width) batch of a fixed
    height and width, which it returns."""
    inputs = session.get_inputs()
    _check(path, "input", inputs, {name: [1, 3, None, None]})
    extra = sorted(port.name for port in inputs if port.name != name)
    if extra:
        raise DWPoseWeightsError(f"{path}: unexpected inputs {extra} (only {name!r} is fed)")
    dims = _dims(inputs[0])
    if dims[2] is None or dims[3] is None:
        raise DWPoseWeightsError(f"{path}: input {name!r} is {inputs[0].shape}, not of a fixed "
                                 "height and width")
    return dims[2], dims[3]


def _session(path: Path, providers: list[Any]) -> Any:
    import onnxruntime

    if not path.is_file():
        raise DWPoseWeightsError(f"{path} is missing")
    try:
        return onnxruntime.InferenceSession(str(path), providers=providers)
    except Exception as error:  # noqa: BLE001 - onnxruntime raises its own unexported classes
        raise DWPoseWeightsError(f"{path} cannot be loaded by onnxruntime: {error}") from error


def providers(device: str = "cpu") -> list[Any]:
    """CUDA where asked for and the installed onnxruntime has it (onnxruntime-gpu, which the
    GPU image installs instead of the CPU build: ops/docker/imaging.Dockerfile), else the CPU."""
    import onnxruntime

    if device.startswith("cuda") and "CUDAExecutionProvider" in \
            onnxruntime.get_available_providers():
        index = device.partition(":")[2] or "0"
        return [("CUDAExecutionProvider", {"device_id": index}), "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


class DWPose:
    """The detector and the pose model of one weights folder, checked when loaded."""

    def __init__(self, detector: Path, pose: Path, device: str = "cpu") -> None:
        chosen = providers(device)
        self.detector = _session(detector, chosen)
        self.detector_size = _image_input(detector, self.detector, DETECTOR_INPUT)
        height, width = self.detector_size
        if height % STRIDES[-1] or width % STRIDES[-1]:
            raise DWPoseWeightsError(f"{detector}: input {DETECTOR_INPUT!r} is {height}x{width}, "
                                     f"not a multiple of the stride {STRIDES[-1]}")
        _check(detector, "output", self.detector.get_outputs(),
               {DETECTOR_OUTPUT: [1, anchor_count(height, width), 5 + CLASSES]})

        self.pose = _session(pose, chosen)
        self.pose_size = _image_input(pose, self.pose, POSE_INPUT)
        # What runs them: onnxruntime falls back to the CPU (and logs why) where the CUDA
        # provider cannot load, e.g. CUDA libraries of another version than its build's.
        self.provider: str = self.pose.get_providers()[0]
        height, width = self.pose_size
        _check(pose, "output", self.pose.get_outputs(), {
            POSE_OUTPUTS[0]: [1, KEYPOINTS, width * SIMCC_SPLIT],
            POSE_OUTPUTS[1]: [1, KEYPOINTS, height * SIMCC_SPLIT]})

    @classmethod
    def from_weights(cls, root: Path, device: str = "cpu") -> DWPose:
        """The two files where the weights layout keeps them (engine/diffusion/weights.py)."""
        return cls(root / DWPOSE_DETECTOR, root / DWPOSE_POSE, device)

    def __call__(self, photo: Image8) -> People:
        """Everyone in an RGB photo (h, w, 3) uint8."""
        bgr = np.ascontiguousarray(photo[..., ::-1])  # both models were fed BGR
        boxes = self.detect(bgr)
        found = boxes if len(boxes) else np.array([[0, 0, bgr.shape[1], bgr.shape[0]]], float)
        keypoints, scores = zip(*(self.read(bgr, box) for box in found), strict=True)
        return People(np.stack(keypoints), np.stack(scores), boxes.reshape(-1, 4))

    def detect(self, bgr: Image8) -> Float64:
        """The people's boxes (n, 4) in the photo's pixels, the most confident first."""
        batch, ratio = letterbox(bgr, self.detector_size)
        (raw,) = self.detector.run([DETECTOR_OUTPUT], {DETECTOR_INPUT: batch})
        return person_boxes(raw[0], self.detector_size, ratio)

    def read(self, bgr: Image8, box: Floats) -> tuple[Float64, Float32]:
        """One person's 133 keypoints (pixels of the photo) and scores."""
        height, width = self.pose_size
        center, scale = crop_of(box, width / height)
        crop = cv2.warpAffine(bgr, crop_matrix(center, scale, (width, height)), (width, height),
                              flags=cv2.INTER_LINEAR)
        batch = ((crop - MEAN) / STD).transpose(2, 0, 1)[None].astype(np.float32)
        simcc_x, simcc_y = self.pose.run(list(POSE_OUTPUTS), {POSE_INPUT: batch})
        bins, scores = simcc_maxima(simcc_x[0], simcc_y[0])
        return from_crop(bins / SIMCC_SPLIT, center, scale, (width, height)), scores


# ---------------------------------------------------------------------------------------------
# Detection


def letterbox(bgr: Image8, size: tuple[int, int]) -> tuple[Float32, float]:
    """The photo fitted into `size` (height, width) from the top-left corner, grey around, as
    a (1, 3, h, w) float32 batch of 0..255 values; and the scale applied."""
    height, width = size
    ratio = min(height / bgr.shape[0], width / bgr.shape[1])
    fitted = cv2.resize(bgr, (int(bgr.shape[1] * ratio), int(bgr.shape[0] * ratio)),
                        interpolation=cv2.INTER_LINEAR)
    canvas = np.full((height, width, 3), PAD_GREY, np.uint8)
    canvas[: fitted.shape[0], : fitted.shape[1]] = fitted
    return canvas.transpose(2, 0, 1)[None].astype(np.float32), ratio


def anchor_grid(size: tuple[int, int]) -> tuple[Float64, Float64]:
    """Each output row's cell (column, row) and stride, in the output's order (stride 8's
    cells row by row, then 16's, then 32's)."""
    cells, strides = [], []
    for stride in STRIDES:
        rows, columns = np.mgrid[: size[0] // stride, : size[1] // stride]
        cells.append(np.stack((columns.ravel(), rows.ravel()), axis=1))
        strides.append(np.full(rows.size, stride))
    return np.concatenate(cells).astype(np.float64), np.concatenate(strides)[:, None] * 1.0


def person_boxes(raw: Floats, size: tuple[int, int], ratio: float) -> Float64:
    """Decodes the detector's rows (anchors, 85) into the people's boxes in the photo's pixels.
    Only class 0 is kept in the end, and the reference's suppression runs class by class, so
    the other classes never change the result: only people are decoded."""
    cells, strides = anchor_grid(size)
    centers = (raw[:, :2] + cells) * strides
    sizes = np.exp(raw[:, 2:4].astype(np.float64)) * strides
    boxes = np.concatenate((centers - sizes / 2, centers + sizes / 2), axis=1) / ratio
    scores = raw[:, 4].astype(np.float64) * raw[:, 5]
    candidates = scores > CANDIDATE_SCORE
    boxes, scores = boxes[candidates], scores[candidates]
    kept = suppress(boxes, scores, NMS_IOU)
    return boxes[kept][scores[kept] > PERSON_SCORE]


def suppress(boxes: Float64, scores: Float64, threshold: float) -> list[int]:
    """Greedy non-maximum suppression, highest score first; areas count the end pixel, as in
    YOLOX's demo (width = x1 - x0 + 1), which the reference keeps."""
    areas = (boxes[:, 2] - boxes[:, 0] + 1) * (boxes[:, 3] - boxes[:, 1] + 1)
    order = np.argsort(scores)[::-1]
    kept = []
    while order.size:
        best, rest = order[0], order[1:]
        kept.append(int(best))
        low = np.maximum(boxes[best, :2], boxes[rest, :2])
        high = np.minimum(boxes[best, 2:], boxes[rest, 2:])
        overlap = np.prod(np.maximum(high - low + 1, 0.0), axis=1)
        order = rest[overlap / (areas[best] + areas[rest] - overlap) <= threshold]
    return kept


# ---------------------------------------------------------------------------------------------
# Pose


def crop_of(box: Floats, aspect: float) -> tuple[Float64, Float64]:
    """The pose crop around a box (x0, y0, x1, y1): its centre, and its size (width, height)
    padded 1.25x and then widened or heightened to the model's aspect ratio (width / height)."""
    box = np.asarray(box, np.float64)
    center = (box[:2] + box[2:]) / 2
    width, height = (box[2:] - box[:2]) * BOX_PADDING
    if width > height * aspect:
        return center, np.array([width, width / aspect])
    return center, np.array([height * aspect, height])


def crop_matrix(center: Float64, scale: Float64, size: tuple[int, int]) -> Float64:
    """The affine map from the photo to the crop of `size` (width, height): the crop's centre at
    the box's, `scale` pixels of the photo across its width (no rotation)."""
    zoom = size[0] / scale[0]
    return np.array([[zoom, 0.0, size[0] / 2 - zoom * center[0]],
                     [0.0, zoom, size[1] / 2 - zoom * center[1]]])


def from_crop(points: Floats, center: Float64, scale: Float64, size: tuple[int, int]) -> Float64:
    """Points in the crop's pixels back to the photo's (the inverse of crop_matrix)."""
    photo: Float64 = np.asarray(points, np.float64) / np.array(size) * scale + center - scale / 2
    return photo


def simcc_maxima(simcc_x: Floats, simcc_y: Floats) -> tuple[Float64, Float32]:
    """Each keypoint's bins (133, 2) at the maxima of its x and y vectors, and its score, the
    smaller maximum. A keypoint whose score is not positive gets bin -1 (the reference's
    marker of "not found"; its score keeps it from ever being drawn)."""
    bins = np.stack((simcc_x.argmax(axis=1), simcc_y.argmax(axis=1)), axis=1).astype(np.float64)
    scores = np.minimum(simcc_x.max(axis=1), simcc_y.max(axis=1)).astype(np.float32)
    bins[scores <= 0] = -1
    return bins, scores
