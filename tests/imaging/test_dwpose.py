"""DWPose with onnxruntime (engine/diffusion/fashn/dwpose.py) on its tiny ONNX twins.

The tiny pair (`python -m ops.weights tiny` writes it) runs end to end on fixture photos. Two
models written here with known answers check the geometry: a detector whose output is fixed
(people where the test puts them) and a pose model that points every keypoint at the brightest
pixel of its crop, so a white square in a photo must come back at its place in the photo's
pixels. Files of another interface stop the load with an error naming the file and the port.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from engine.diffusion.fashn.dwpose import (
    CLASSES,
    DETECTOR_INPUT,
    DETECTOR_OUTPUT,
    KEYPOINTS,
    POSE_INPUT,
    POSE_OUTPUTS,
    SIMCC_SPLIT,
    DWPose,
    DWPoseWeightsError,
    anchor_count,
    crop_of,
)
from engine.diffusion.fashn.dwpose_source import DWPoseSource, fitted
from engine.diffusion.fashn.dwpose_tiny import (
    DETECTOR_SIZE,
    IR_VERSION,
    OPSET,
    POSE_SIZE,
    write_detector,
    write_pose,
)
from engine.diffusion.fashn.pose import Pose, best_person, draw_pose
from engine.diffusion.weights import DWPOSE_DETECTOR, DWPOSE_POSE, build_manifest, model_of
from tests.imaging.onnx_ports import renamed
from tests.support.paths import fixture_array, fixture_images

VALUES = 5 + CLASSES


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny pair in the weights layout, written by the functions `ops.weights tiny` calls."""
    root = tmp_path_factory.mktemp("weights")
    write_detector(root / DWPOSE_DETECTOR)
    write_pose(root / DWPOSE_POSE)
    return root


def save(nodes: list[Any], inputs: list[Any], outputs: list[Any], initialisers: list[Any],
         path: Path) -> Path:
    import onnx

    model = helper.make_model(helper.make_graph(nodes, "test", inputs, outputs, initialisers),
                              opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def fixed_model(path: Path, input_name: str, input_shape: list[int],
                outputs: dict[str, np.ndarray[Any, Any]], second_input: str | None = None) -> Path:
    """A model that reads its input (so it is fed) and always answers `outputs`; with
    `second_input`, it also reads that one, a float32 [1]."""
    nodes = [helper.make_node("ReduceMax", [input_name], ["peak"], keepdims=0),
             helper.make_node("Mul", ["peak", "zero"], ["nothing"])]
    initialisers = [numpy_helper.from_array(np.array(0, np.float32), "zero")]
    inputs = [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, input_shape)]
    if second_input is not None:
        nodes[1:] = [helper.make_node("Mul", ["peak", second_input], ["scaled"]),
                     helper.make_node("Mul", ["scaled", "zero"], ["nothing"])]
        inputs.append(helper.make_tensor_value_info(second_input, TensorProto.FLOAT, [1]))
    for name, value in outputs.items():
        initialisers.append(numpy_helper.from_array(value.astype(np.float32), f"{name}_value"))
        nodes.append(helper.make_node("Add", ["nothing", f"{name}_value"], [name]))
    return save(nodes, inputs,
                [helper.make_tensor_value_info(name, TensorProto.FLOAT, list(value.shape))
                 for name, value in outputs.items()],
                initialisers, path)


def brightest_pixel_model(path: Path, size: tuple[int, int] = POSE_SIZE) -> Path:
    """A pose model whose 133 keypoints all sit at its crop's brightest column and row: SimCC
    bins 2i and 2i+1 both score column i's brightest value (so the first, 2i, wins)."""
    height, width = size
    nodes = [helper.make_node("ReduceMax", [POSE_INPUT], ["grey"], axes=[1], keepdims=0),
             helper.make_node("ReduceMax", ["grey"], ["columns"], axes=[1], keepdims=0),
             helper.make_node("ReduceMax", ["grey"], ["rows"], axes=[2], keepdims=0)]
    initialisers = []
    for name, profile, count in ((POSE_OUTPUTS[0], "columns", width),
                                 (POSE_OUTPUTS[1], "rows", height)):
        spread = np.repeat(np.eye(count, dtype=np.float32), SIMCC_SPLIT, axis=1)
        initialisers += [numpy_helper.from_array(spread, f"{name}_spread"),
                         numpy_helper.from_array(np.array([1, 1, count * SIMCC_SPLIT], np.int64),
                                                 f"{name}_row"),
                         numpy_helper.from_array(
                             np.array([1, KEYPOINTS, count * SIMCC_SPLIT], np.int64),
                             f"{name}_all")]
        nodes += [helper.make_node("MatMul", [profile, f"{name}_spread"], [f"{name}_bins"]),
                  helper.make_node("Reshape", [f"{name}_bins", f"{name}_row"], [f"{name}_one"]),
                  helper.make_node("Expand", [f"{name}_one", f"{name}_all"], [name])]
    return save(nodes,
                [helper.make_tensor_value_info(POSE_INPUT, TensorProto.FLOAT,
                                               [1, 3, height, width])],
                [helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                               [1, KEYPOINTS, count * SIMCC_SPLIT])
                 for name, count in zip(POSE_OUTPUTS, (width, height), strict=True)],
                initialisers, path)


def detector_answer(boxes: list[tuple[float, float, float, float]],
                    ratio: float) -> np.ndarray[Any, Any]:
    """The raw output (1, anchors, 85) of a detector that sees exactly these people (boxes in
    the photo's pixels), each on its own stride-8 anchor with objectness and person score 1."""
    height, width = DETECTOR_SIZE
    raw = np.zeros((1, anchor_count(height, width), VALUES), np.float32)
    raw[..., 4:] = 0.0  # nobody else
    for index, box in enumerate(boxes):
        x0, y0, x1, y1 = (value * ratio for value in box)  # into the letterboxed input
        cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
        cell_x, cell_y = int(cx // 8), int(cy // 8)
        row = cell_y * (width // 8) + cell_x
        assert raw[0, row, 4] == 0, f"box {index} shares an anchor"
        raw[0, row, :4] = (cx / 8 - cell_x, cy / 8 - cell_y, np.log(w / 8), np.log(h / 8))
        raw[0, row, 4:6] = 1.0
    return raw


def spots_photo(centres: list[tuple[int, int]], size: tuple[int, int] = (160, 200),
                sigma: float = 6.0,
                colour: tuple[int, int, int] = (1, 1, 1)) -> np.ndarray[Any, Any]:
    """A black RGB photo (height, width) with a round spot (Gaussian) of `colour` (1 where a
    channel is lit) on each of the pixels `centres`: one brightest pixel each, which a crop
    keeps at any scale."""
    rows, columns = np.mgrid[: size[0], : size[1]]
    light = np.zeros(size)
    for x, y in centres:
        light = np.maximum(light, np.exp(-((columns - x) ** 2 + (rows - y) ** 2) / sigma ** 2 / 2))
    photo: np.ndarray[Any, Any] = (np.round(light * 255)[..., None] * np.array(colour))
    return photo.astype(np.uint8)


# ---------------------------------------------------------------------------------------------


def test_the_tiny_pair_reads_everyone_in_fixture_photos(tiny: Path) -> None:
    dwpose = DWPose.from_weights(tiny)
    assert dwpose.detector_size == DETECTOR_SIZE and dwpose.pose_size == POSE_SIZE
    found = []
    for path in fixture_images("people")[:6] + fixture_images("people-wild")[:4]:
        photo = fixture_array(path.parent.name, path.name)
        people = dwpose(photo)
        count = max(len(people.boxes), 1)  # nobody found: the whole photo is read as one
        found.append(len(people.boxes))
        assert people.keypoints.shape == (count, KEYPOINTS, 2)
        assert people.scores.shape == (count, KEYPOINTS) and people.scores.dtype == np.float32
        boxes = people.boxes if len(people.boxes) else np.array(
            [[0, 0, photo.shape[1], photo.shape[0]]], float)
        for keypoints, box in zip(people.keypoints, boxes, strict=True):
            # Each person's keypoints lie in that person's crop, in the photo's pixels.
            center, scale = crop_of(box, POSE_SIZE[1] / POSE_SIZE[0])
            low, high = center - scale / 2, center + scale / 2
            assert np.all((keypoints >= low - scale / 2 / POSE_SIZE[1]) & (keypoints < high))
        # What fashn/pose.py takes: the person to dress and their pose drawing.
        chosen = best_person(people.keypoints, people.scores)
        pose = Pose.from_wholebody(people.keypoints[chosen], people.scores[chosen],
                                   photo.shape[1], photo.shape[0])
        assert draw_pose(pose, *photo.shape[:2]).shape == photo.shape[:2]
    # The random heads exercise both paths: photos with several people, photos with none.
    assert max(found) >= 2 and min(found) == 0, found


def test_the_tiny_pair_is_deterministic(tiny: Path) -> None:
    photo = fixture_array("people", fixture_images("people")[0].name)
    first, second = DWPose.from_weights(tiny)(photo), DWPose.from_weights(tiny)(photo)
    assert np.array_equal(first.keypoints, second.keypoints)
    assert np.array_equal(first.scores, second.scores)


def test_keypoints_come_back_in_the_photo_s_pixels(tmp_path: Path) -> None:
    # Two people, each a white spot inside their box; the photo is 200 wide and 160 high,
    # fitted into the detector's 64x64 at ratio 0.32. The second is the more confident. The
    # spots are red: the models are fed BGR, normalised by ImageNet's means in that order.
    centres = [(60, 70), (150, 100)]
    boxes = [(20.0, 20.0, 100.0, 140.0), (120.0, 40.0, 190.0, 150.0)]
    ratio = min(DETECTOR_SIZE[0] / 160, DETECTOR_SIZE[1] / 200)
    raw = detector_answer(boxes, ratio)
    raw[0, np.flatnonzero(raw[0, :, 4])[0], 4] = 0.8  # the first box's objectness
    detector = fixed_model(tmp_path / "detector.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                           {DETECTOR_OUTPUT: raw})
    people = DWPose(detector, brightest_pixel_model(tmp_path / "pose.onnx"))(
        spots_photo(centres, colour=(1, 0, 0)))
    # Decoded back from the letterboxed input, the most confident first.
    assert np.allclose(people.boxes, boxes[::-1])
    assert people.keypoints.shape == (2, KEYPOINTS, 2)
    for keypoints, scores, (x, y), box in zip(people.keypoints, people.scores, centres[::-1],
                                              boxes[::-1], strict=True):
        _, scale = crop_of(np.array(box), POSE_SIZE[1] / POSE_SIZE[0])
        pixel = scale[0] / POSE_SIZE[1]  # one crop pixel, in the photo's pixels
        assert np.abs(keypoints - (x, y)).max() <= pixel, keypoints[0]
        # The spot's red as the model's input has it: the third channel, normalised by the
        # third mean and deviation (up to 2.64; fed as RGB it would be the first, up to 2.25).
        assert np.all(scores == scores[0]) and 2.3 < scores[0] <= (255 - 103.53) / 57.375


def test_nobody_found_reads_the_whole_photo(tmp_path: Path) -> None:
    detector = fixed_model(tmp_path / "detector.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                           {DETECTOR_OUTPUT: detector_answer([], 1.0)})
    people = DWPose(detector, brightest_pixel_model(tmp_path / "pose.onnx"))(
        spots_photo([(40, 120)]))
    assert people.boxes.shape == (0, 4) and people.keypoints.shape == (1, KEYPOINTS, 2)
    pixel = crop_of(np.array([0, 0, 200, 160]), 0.75)[1][0] / POSE_SIZE[1]
    assert np.abs(people.keypoints[0] - (40, 120)).max() <= pixel


def test_overlapping_boxes_keep_the_most_confident(tmp_path: Path) -> None:
    ratio = min(DETECTOR_SIZE[0] / 160, DETECTOR_SIZE[1] / 200)
    raw = detector_answer([(20.0, 20.0, 100.0, 140.0), (40.0, 20.0, 110.0, 140.0)], ratio)
    second = np.flatnonzero(raw[0, :, 4])[1]
    raw[0, second, 4] = 0.9  # the second box scores 0.9 and overlaps the first by IoU 0.67
    detector = fixed_model(tmp_path / "detector.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                           {DETECTOR_OUTPUT: raw})
    people = DWPose(detector, brightest_pixel_model(tmp_path / "pose.onnx"))(spots_photo([]))
    assert np.allclose(people.boxes, [(20.0, 20.0, 100.0, 140.0)])


def test_the_pose_source_reads_the_photo_fitted_as_the_reference_does(tmp_path: Path) -> None:
    # A photo larger than the reference's 864: DWPose reads it at 648x864; the pose comes back
    # as fractions of the photo, wherever the spot is.
    large = spots_photo([(900, 1300)], size=(1728, 1296), sigma=60.0, colour=(1, 0, 0))
    assert fitted(large).shape == (864, 648, 3)
    small = spots_photo([(50, 40)])
    assert fitted(small) is small  # never enlarged
    detector = fixed_model(tmp_path / "detector.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                           {DETECTOR_OUTPUT: detector_answer([], 1.0)})
    source = DWPoseSource(DWPose(detector, brightest_pixel_model(tmp_path / "pose.onnx")))
    pose = source(large, None)
    assert pose is not None
    # One crop pixel of the whole fitted photo (810 wide at the 0.75 aspect, 24 pixels across).
    tolerance = crop_of(np.array([0, 0, 648, 864]), 0.75)[1][0] / POSE_SIZE[1] / 648
    spot = np.array([900 / 1296, 1300 / 1728])
    for points in (pose.body, pose.hands.reshape(-1, 2), pose.face):
        assert np.abs(points - spot).max() <= tolerance, points[0]


# ---------------------------------------------------------------------------------------------
# Ports named otherwise: the names are the file's, the interface is checked

# Another export's names for the tiny pair's ports: the detector's as torch.onnx numbers an
# unnamed input, the pose model's outputs numbered and written y first.
DETECTOR_NAMES = {DETECTOR_INPUT: "input.1", DETECTOR_OUTPUT: "dets"}
POSE_NAMES = {POSE_INPUT: "img", POSE_OUTPUTS[0]: "1234", POSE_OUTPUTS[1]: "5678"}


def test_ports_named_otherwise_read_the_same_keypoints(tiny: Path, tmp_path: Path) -> None:
    detector = renamed(tiny / DWPOSE_DETECTOR, tmp_path / "yolox_l.onnx", DETECTOR_NAMES,
                       batch="batch")  # and of a dynamic batch, as exports may be
    pose = renamed(tiny / DWPOSE_POSE, tmp_path / "dw-ll_ucoco_384.onnx", POSE_NAMES,
                   outputs=["5678", "1234"])
    # Only simcc_y named, written first: the other output is x, whatever its place.
    half = renamed(tiny / DWPOSE_POSE, tmp_path / "half.onnx", {POSE_OUTPUTS[0]: "1234"},
                   outputs=[POSE_OUTPUTS[1], "1234"])
    standard = DWPose.from_weights(tiny)
    other = DWPose(detector, pose)
    assert (other.detector_input, other.detector_output) == ("input.1", "dets")
    assert other.detector.get_inputs()[0].shape == ["batch", 3, *DETECTOR_SIZE]
    assert (other.pose_input, other.pose_outputs) == ("img", ("1234", "5678"))
    assert DWPose(detector, half).pose_outputs == ("1234", POSE_OUTPUTS[1])
    found = 0
    for path in fixture_images("people")[:4]:
        photo = fixture_array(path.parent.name, path.name)
        expected = standard(photo)
        found += len(expected.boxes)
        for people in (other(photo), DWPose(detector, half)(photo)):
            assert np.array_equal(people.boxes, expected.boxes)
            assert np.array_equal(people.keypoints, expected.keypoints)
            assert np.array_equal(people.scores, expected.scores)
    assert found  # the detector's output was read, not only the whole-photo fallback


def test_unnamed_simcc_outputs_of_a_square_input_are_refused(tmp_path: Path,
                                                             tiny: Path) -> None:
    # Under MMDeploy's names a square pose model loads; numbered, x and y have the same 64
    # bins and only their order would tell them apart, which is not trusted.
    square = write_pose(tmp_path / "square.onnx", size=(32, 32))
    assert DWPose(tiny / DWPOSE_DETECTOR, square).pose_outputs == POSE_OUTPUTS
    numbered = renamed(square, tmp_path / "dw-ll_ucoco_384.onnx", POSE_NAMES)
    with pytest.raises(DWPoseWeightsError) as raised:
        DWPose(tiny / DWPOSE_DETECTOR, numbered)
    assert str(raised.value) == (
        f"{numbered}: outputs '1234' and '5678' cannot be told apart: neither is named "
        "'simcc_x' or 'simcc_y', and the input is square (32x32), so x and y both have 64 bins")


# ---------------------------------------------------------------------------------------------
# Files of another interface


def pose_outputs(keypoints: int = KEYPOINTS, size: tuple[int, int] = POSE_SIZE,
                 names: tuple[str, str] = POSE_OUTPUTS) -> dict[str, np.ndarray[Any, Any]]:
    height, width = size
    return {names[0]: np.zeros((1, keypoints, width * SIMCC_SPLIT)),
            names[1]: np.zeros((1, keypoints, height * SIMCC_SPLIT))}


BAD_POSE = {
    "one channel": ((POSE_INPUT, [1, 1, *POSE_SIZE], pose_outputs()),
                    ["input 'input' is [1, 1, 32, 24], not [1, 3, '?', '?']"]),
    "body keypoints only": ((POSE_INPUT, [1, 3, *POSE_SIZE], pose_outputs(keypoints=17)),
                            ["output 'simcc_x' is [1, 17, 48], not [1, 133, 48]",
                             "output 'simcc_y' is [1, 17, 64], not [1, 133, 64]"]),
    "one bin per pixel": ((POSE_INPUT, [1, 3, 64, 48], pose_outputs()),
                          ["output 'simcc_x' is [1, 133, 48], not [1, 133, 96]"]),
    "heatmap output": ((POSE_INPUT, [1, 3, *POSE_SIZE], {"heatmaps": np.zeros((1, 133, 8, 6))}),
                       ["outputs ['heatmaps'], not the two SimCC vectors"]),
    "a heatmap beside simcc_y": ((POSE_INPUT, [1, 3, *POSE_SIZE],
                                  {"heatmaps": np.zeros((1, 133, 8, 6)),
                                   "simcc_y": np.zeros((1, 133, 64))}),
                                 ["output 'heatmaps' is [1, 133, 8, 6], not [1, 133, 48]"]),
    "unnamed outputs of one size": ((POSE_INPUT, [1, 3, *POSE_SIZE],
                                     {"1234": np.zeros((1, 133, 48)),
                                      "5678": np.zeros((1, 133, 48))}),
                                    ["outputs '1234' [1, 133, 48] and '5678' [1, 133, 48] are "
                                     "not one of 48 bins (x: the input's width 24 x 2) and one "
                                     "of 64 (y: its height 32 x 2)"]),
    "unnamed outputs of a square input": ((POSE_INPUT, [1, 3, 24, 24],
                                           pose_outputs(size=(24, 24), names=("1234", "5678"))),
                                          ["outputs '1234' and '5678' cannot be told apart",
                                           "the input is square (24x24)"]),
    "two inputs": ((POSE_INPUT, [1, 3, *POSE_SIZE], pose_outputs()),
                   ["inputs ['input', 'scale'], not one image input"]),
}


@pytest.mark.parametrize("case", sorted(BAD_POSE))
def test_a_pose_model_of_another_interface_is_named(tiny: Path, tmp_path: Path,
                                                    case: str) -> None:
    (name, shape, outputs), expected = BAD_POSE[case]
    pose = fixed_model(tmp_path / "dw-ll_ucoco_384.onnx", name, shape, outputs,
                       "scale" if case == "two inputs" else None)
    with pytest.raises(DWPoseWeightsError) as raised:
        DWPose(tiny / DWPOSE_DETECTOR, pose)
    message = str(raised.value)
    assert str(pose) in message
    for part in expected:
        assert part in message


def test_a_detector_of_another_size_is_named(tiny: Path, tmp_path: Path) -> None:
    # A 640x640 detector's 8,400 anchors behind a 64x64 input.
    detector = fixed_model(tmp_path / "yolox_l.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                           {DETECTOR_OUTPUT: np.zeros((1, anchor_count(640, 640), VALUES))})
    with pytest.raises(DWPoseWeightsError, match=r"output 'output' is \[1, 8400, 85\], not "
                                                 r"\[1, 84, 85\]"):
        DWPose(detector, tiny / DWPOSE_POSE)
    two = fixed_model(tmp_path / "yolox_l.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                      {DETECTOR_OUTPUT: detector_answer([], 1.0)}, second_input="scale")
    with pytest.raises(DWPoseWeightsError, match=r"inputs \['images', 'scale'\], not one image"):
        DWPose(two, tiny / DWPOSE_POSE)
    outputs = fixed_model(tmp_path / "yolox_l.onnx", DETECTOR_INPUT, [1, 3, *DETECTOR_SIZE],
                          {DETECTOR_OUTPUT: detector_answer([], 1.0),
                           "features": np.zeros((1, 8))})
    with pytest.raises(DWPoseWeightsError, match=r"outputs \['output', 'features'\], not one"):
        DWPose(outputs, tiny / DWPOSE_POSE)
    odd = write_detector(tmp_path / "odd.onnx", size=(64, 48))
    with pytest.raises(DWPoseWeightsError, match="64x48, not a multiple of the stride 32"):
        DWPose(odd, tiny / DWPOSE_POSE)


def test_a_missing_or_broken_file_is_named(tiny: Path, tmp_path: Path) -> None:
    with pytest.raises(DWPoseWeightsError, match=f"{tmp_path / 'absent.onnx'} is missing"):
        DWPose(tmp_path / "absent.onnx", tiny / DWPOSE_POSE)
    broken = tmp_path / "broken.onnx"
    broken.write_bytes((tiny / DWPOSE_POSE).read_bytes()[:5000])  # a truncated download
    with pytest.raises(DWPoseWeightsError, match=f"{broken} cannot be loaded by onnxruntime"):
        DWPose(tiny / DWPOSE_DETECTOR, broken)


# ---------------------------------------------------------------------------------------------
# Licences


def test_both_files_are_licensed_for_commercial_use(tiny: Path) -> None:
    for relative in (DWPOSE_DETECTOR, DWPOSE_POSE):
        model = model_of(relative)
        assert model is not None and model.source == "yzd-v/DWPose"
        assert model.licence.spdx == "Apache-2.0" and model.licence.commercial
    # The tiny twins carry the licences of the files they stand in for.
    entries = {entry["path"]: entry for entry in build_manifest(tiny, tiny=True)["files"]}
    assert sorted(entries) == sorted((DWPOSE_DETECTOR, DWPOSE_POSE))
    for entry in entries.values():
        assert entry["licence"] == "Apache-2.0" and entry["commercial"] is True
        assert entry["source"].startswith("random stand-in (ops.weights tiny) for yzd-v/DWPose:")
