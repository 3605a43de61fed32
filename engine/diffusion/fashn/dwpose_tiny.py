"""Tiny random twins of DWPose's two ONNX files, for the tests (``python -m ops.weights tiny``).

Each has the published file's interface -- ranks, dtypes, the export tools' default port names
(not checked against the published files; dwpose.py reads the names from each file), the detector's
85 values per anchor over strides 8/16/32, the pose model's 133 keypoints and two SimCC bins per
input pixel -- at a small input size (the detector 64x64 instead of 640x640, the pose model
24x32 instead of 288x384), and a miniature of the same structure: the detector's heads give raw
box values and sigmoid scores per stride, the pose model's features go through a linear map to
each axis's bins. Weights are random from a fixed seed; dwpose.py loads them through the same
checks as the real files. Written with the `onnx` package (imaging environment only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from engine.diffusion.fashn.dwpose import (
    CLASSES,
    DETECTOR_INPUT,
    DETECTOR_OUTPUT,
    KEYPOINTS,
    POSE_INPUT,
    POSE_OUTPUTS,
    SIMCC_SPLIT,
    STRIDES,
)

DETECTOR_SIZE = (64, 64)  # height, width
POSE_SIZE = (32, 24)
OPSET = 17
IR_VERSION = 8  # what onnxruntime 1.31 reads (and older runtimes too)
POSE_FEATURES = 16
POSE_STRIDE = 4
SEED = 35


def _weights(rng: np.random.Generator, *shape: int) -> Any:
    """He-style random weights: outputs of about unit size for unit inputs."""
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
    return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)


def _biases(rng: np.random.Generator, values: int) -> Any:
    """The detector's biases: the scores start lowered (sigmoid(-0.5) = 0.38), so that a random
    head finds 0 to 9 people in a fixture photo rather than dozens."""
    biases = _weights(rng, values)
    biases[4:] -= 0.5
    return biases


def _save(graph: Any, path: Path) -> Path:
    import onnx
    from onnx import helper

    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="metamodel ops.weights tiny")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def write_detector(path: Path, size: tuple[int, int] = DETECTOR_SIZE,
                   input_name: str = DETECTOR_INPUT, seed: int = SEED) -> Path:
    """A YOLOX-shaped detector: per stride, a strided convolution to 85 channels (4 raw box
    values, then objectness and the class scores through a sigmoid), the cells flattened and
    the strides concatenated into (1, anchors, 85), as YOLOX's export without decoding."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    height, width = size
    values = 5 + CLASSES
    nodes = [helper.make_node("Mul", [input_name, "to_unit"], ["unit"])]
    initialisers = [numpy_helper.from_array(np.array(1 / 255, np.float32), "to_unit"),
                    numpy_helper.from_array(np.array([1, values, -1], np.int64), "flat_shape"),
                    numpy_helper.from_array(np.array([0], np.int64), "box_start"),
                    numpy_helper.from_array(np.array([4], np.int64), "box_end"),
                    numpy_helper.from_array(np.array([values], np.int64), "scores_end"),
                    numpy_helper.from_array(np.array([1], np.int64), "channel_axis")]
    levels = []
    for stride in STRIDES:
        name = f"stride{stride}"
        initialisers += [numpy_helper.from_array(_weights(rng, values, 3, stride, stride),
                                                 f"{name}_w"),
                         numpy_helper.from_array(_biases(rng, values), f"{name}_b")]
        nodes += [
            helper.make_node("Conv", ["unit", f"{name}_w", f"{name}_b"], [f"{name}_head"],
                             kernel_shape=[stride, stride], strides=[stride, stride]),
            helper.make_node("Slice", [f"{name}_head", "box_start", "box_end", "channel_axis"],
                             [f"{name}_box"]),
            helper.make_node("Slice", [f"{name}_head", "box_end", "scores_end", "channel_axis"],
                             [f"{name}_logits"]),
            helper.make_node("Sigmoid", [f"{name}_logits"], [f"{name}_scores"]),
            helper.make_node("Concat", [f"{name}_box", f"{name}_scores"], [f"{name}_all"],
                             axis=1),
            helper.make_node("Reshape", [f"{name}_all", "flat_shape"], [f"{name}_flat"]),
        ]
        levels.append(f"{name}_flat")
    nodes += [helper.make_node("Concat", levels, ["levels"], axis=2),
              helper.make_node("Transpose", ["levels"], [DETECTOR_OUTPUT], perm=[0, 2, 1])]
    anchors = sum((height // s) * (width // s) for s in STRIDES)
    graph = helper.make_graph(
        nodes, "tiny_yolox",
        [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, [1, 3, height, width])],
        [helper.make_tensor_value_info(DETECTOR_OUTPUT, TensorProto.FLOAT, [1, anchors, values])],
        initialisers)
    return _save(graph, path)


def write_pose(path: Path, size: tuple[int, int] = POSE_SIZE, input_name: str = POSE_INPUT,
               seed: int = SEED) -> Path:
    """An RTMPose-shaped model: a strided convolution and a 1x1 one to 133 keypoint maps,
    flattened, then one linear map per axis to its SimCC bins (2 per input pixel)."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    height, width = size
    cells = (height // POSE_STRIDE) * (width // POSE_STRIDE)
    bins = (width * SIMCC_SPLIT, height * SIMCC_SPLIT)
    initialisers = [
        numpy_helper.from_array(_weights(rng, POSE_FEATURES, 3, POSE_STRIDE, POSE_STRIDE),
                                "stem_w"),
        numpy_helper.from_array(_weights(rng, KEYPOINTS, POSE_FEATURES, 1, 1), "maps_w"),
        numpy_helper.from_array(np.array([1, KEYPOINTS, cells], np.int64), "flat_shape"),
        numpy_helper.from_array(_weights(rng, cells, bins[0]), "to_x"),
        numpy_helper.from_array(_weights(rng, cells, bins[1]), "to_y"),
    ]
    nodes = [
        helper.make_node("Conv", [input_name, "stem_w"], ["stem"],
                         kernel_shape=[POSE_STRIDE, POSE_STRIDE],
                         strides=[POSE_STRIDE, POSE_STRIDE]),
        helper.make_node("Relu", ["stem"], ["features"]),
        helper.make_node("Conv", ["features", "maps_w"], ["maps"], kernel_shape=[1, 1]),
        helper.make_node("Reshape", ["maps", "flat_shape"], ["flat"]),
        helper.make_node("MatMul", ["flat", "to_x"], [POSE_OUTPUTS[0]]),
        helper.make_node("MatMul", ["flat", "to_y"], [POSE_OUTPUTS[1]]),
    ]
    graph = helper.make_graph(
        nodes, "tiny_rtmpose",
        [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, [1, 3, height, width])],
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, KEYPOINTS, count])
         for name, count in zip(POSE_OUTPUTS, bins, strict=True)],
        initialisers)
    return _save(graph, path)
