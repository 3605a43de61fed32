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

Loading checks each file's interface (one image input, the outputs' count, ranks, fixed sizes,
float32) against what this code feeds and reads, so that a wrong file stops the worker at start
with a DWPoseWeightsError naming the file and the port, never a shape error mid-job. The port
names and input sizes are read from the files: the tiny twins (dwpose_tiny.py) are small
versions of the same interface, under the export's default names.
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
# The port names of YOLOX's ONNX export and MMDeploy's for RTMPose's SimCC head, which the tiny
# twins write. Loading reads each file's own names (the published files' are unchecked); only
# simcc_x / simcc_y mean something to it: which output is which axis.
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
#
# The port names are read from each file, as the public code that runs these files does
# (session.get_inputs()[0].name): the published files may name their ports otherwise than the
# export defaults above, and nothing downstream depends on a name. What is checked is what this
# code feeds and reads: one image input, one detector output, two SimCC outputs told apart by
# name or by size, never by order alone.


def _dims(port: Any) -> list[int | None]:
    """A port's shape with symbolic or unknown sizes (a dynamic batch) as None."""
    return [size if isinstance(size, int) else None for size in port.shape]


def _problems(kind: str, port: Any, shape: list[int | None]) -> list[str]:
    """What does not fit in a port expected float32, of that rank and of the fixed sizes given
    (None: any size; a symbolic size in the file fits any)."""
    dims = _dims(port)
    fits = len(dims) == len(shape) and all(
        want is None or got is None or got == want for got, want in zip(dims, shape, strict=True))
    problems = []
    if not fits:
        shown = ["?" if size is None else size for size in shape]
        problems.append(f"{kind} {port.name!r} is {port.shape}, not {shown}")
    if port.type != "tensor(float)":
        problems.append(f"{kind} {port.name!r} is {port.type}, not tensor(float)")
    return problems


def _require(path: Path, problems: list[str]) -> None:
    if problems:
        raise DWPoseWeightsError(f"{path}: " + "; ".join(problems))


def _names(ports: list[Any]) -> list[str]:
    return [port.name for port in ports]


def _image_input(path: Path, session: Any) -> tuple[str, tuple[int, int]]:
    """The session's one input, whatever its name: a float32 (1, 3, height, width) batch (the
    batch may be dynamic) of a fixed height and width. Its name and (height, width)."""
    inputs = session.get_inputs()
    if len(inputs) != 1:
        raise DWPoseWeightsError(f"{path}: inputs {_names(inputs)}, not one image input (only "
                                 "the image is fed)")
    port = inputs[0]
    _require(path, _problems("input", port, [1, 3, None, None]))
    dims = _dims(port)
    if dims[2] is None or dims[3] is None:
        raise DWPoseWeightsError(f"{path}: input {port.name!r} is {port.shape}, not of a fixed "
                                 "height and width")
    return port.name, (dims[2], dims[3])


def _detector_output(path: Path, session: Any, size: tuple[int, int]) -> str:
    """The detector's one output, whatever its name: (1, anchors, 85) rows. Its name."""
    outputs = session.get_outputs()
    if len(outputs) != 1:
        raise DWPoseWeightsError(f"{path}: outputs {_names(outputs)}, not one output of "
                                 f"{5 + CLASSES} values per anchor")
    _require(path, _problems("output", outputs[0], [1, anchor_count(*size), 5 + CLASSES]))
    return str(outputs[0].name)


def _simcc_outputs(path: Path, session: Any, size: tuple[int, int]) -> tuple[str, str]:
    """The pose model's two SimCC outputs, (1, 133, bins) each: x's bins are the input's width
    x SIMCC_SPLIT, y's its height x SIMCC_SPLIT. Their names, x's first.

    An output named simcc_x or simcc_y (MMDeploy's names) is taken by its name, the other output
    being the other axis; with neither name, they are told apart by their number of bins, which
    a square input cannot do: such a file is refused. The order of the outputs is never used."""
    outputs = session.get_outputs()
    if len(outputs) != 2:
        raise DWPoseWeightsError(f"{path}: outputs {_names(outputs)}, not the two SimCC "
                                 f"vectors {list(POSE_OUTPUTS)}")
    height, width = size
    bins = (width * SIMCC_SPLIT, height * SIMCC_SPLIT)
    first, second = outputs
    if {first.name, second.name} & set(POSE_OUTPUTS):
        # x: the output named simcc_x, or else the one not named simcc_y.
        x = first if first.name == POSE_OUTPUTS[0] or second.name == POSE_OUTPUTS[1] else second
        y = second if x is first else first
    elif bins[0] == bins[1]:
        raise DWPoseWeightsError(
            f"{path}: outputs {first.name!r} and {second.name!r} cannot be told apart: neither "
            f"is named {POSE_OUTPUTS[0]!r} or {POSE_OUTPUTS[1]!r}, and the input is square "
            f"({height}x{width}), so x and y both have {bins[0]} bins")
    else:
        last = {port.name: (_dims(port) or [None])[-1] for port in outputs}
        x_ports = [port for port in outputs if last[port.name] == bins[0]]
        y_ports = [port for port in outputs if last[port.name] == bins[1]]
        if len(x_ports) != 1 or len(y_ports) != 1:
            raise DWPoseWeightsError(
                f"{path}: outputs {first.name!r} {first.shape} and {second.name!r} "
                f"{second.shape} are not one of {bins[0]} bins (x: the input's width {width} "
                f"x {SIMCC_SPLIT}) and one of {bins[1]} (y: its height {height} x {SIMCC_SPLIT})")
        x, y = x_ports[0], y_ports[0]
    _require(path, _problems("output", x, [1, KEYPOINTS, bins[0]])
             + _problems("output", y, [1, KEYPOINTS, bins[1]]))
    return str(x.name), str(y.name)


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
        self.detector_input, self.detector_size = _image_input(detector, self.detector)
        height, width = self.detector_size
        if height % STRIDES[-1] or width % STRIDES[-1]:
            raise DWPoseWeightsError(f"{detector}: input {self.detector_input!r} is "
                                     f"{height}x{width}, not a multiple of the stride "
                                     f"{STRIDES[-1]}")
        self.detector_output = _detector_output(detector, self.detector, self.detector_size)

        self.pose = _session(pose, chosen)
        self.pose_input, self.pose_size = _image_input(pose, self.pose)
        # What runs them: onnxruntime falls back to the CPU (and logs why) where the CUDA
        # provider cannot load, e.g. CUDA libraries of another version than its build's.
        self.provider: str = self.pose.get_providers()[0]
        self.pose_outputs = _simcc_outputs(pose, self.pose, self.pose_size)

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
        (raw,) = self.detector.run([self.detector_output], {self.detector_input: batch})
        return person_boxes(raw[0], self.detector_size, ratio)

    def read(self, bgr: Image8, box: Floats) -> tuple[Float64, Float32]:
        """One person's 133 keypoints (pixels of the photo) and scores."""
        height, width = self.pose_size
        center, scale = crop_of(box, width / height)
        crop = cv2.warpAffine(bgr, crop_matrix(center, scale, (width, height)), (width, height),
                              flags=cv2.INTER_LINEAR)
        batch = ((crop - MEAN) / STD).transpose(2, 0, 1)[None].astype(np.float32)
        simcc_x, simcc_y = self.pose.run(list(self.pose_outputs), {self.pose_input: batch})
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
