"""The try-on model's pose images (engine/diffusion/fashn/pose.py): DWPose's COCO-WholeBody
keypoints to OpenPose's body order, and the grey drawing convention the weights were trained on
(checked pixel for pixel against the reference's drawing on 150 random poses while writing it;
here: what each part must come out as)."""

from __future__ import annotations

import numpy as np

from engine.diffusion.fashn.pose import (
    HAND_GREYS,
    LIMB_GREYS,
    Pose,
    best_person,
    draw_pose,
    drawing_size,
)

SIDE = 2000


def wholebody(scores: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """133 keypoints, keypoint i at pixel (i, 1000 + i), all with one score."""
    index = np.arange(133, dtype=np.float64)
    return np.stack((index, 1000 + index), axis=1), np.full(133, scores)


def fraction(coco: int) -> list[float]:
    return [coco / SIDE, (1000 + coco) / SIDE]


def test_wholebody_keypoints_go_to_openpose_order() -> None:
    pose = Pose.from_wholebody(*wholebody(), SIDE, SIDE)
    assert pose.body.shape == (18, 2) and pose.hands.shape == (2, 21, 2)
    assert pose.face.shape == (68, 2)
    assert pose.body[0].tolist() == fraction(0)  # nose
    assert pose.body[1].tolist() == [(a + b) / 2 for a, b in zip(fraction(5), fraction(6),
                                                                 strict=True)]  # neck
    assert pose.body[2].tolist() == fraction(6)  # right shoulder
    assert pose.body[5].tolist() == fraction(5)  # left shoulder
    assert pose.body[10].tolist() == fraction(16)  # right ankle
    assert pose.body[14].tolist() == fraction(2) and pose.body[17].tolist() == fraction(3)
    assert pose.hands[0, 0].tolist() == fraction(91)  # left hand, then right
    assert pose.hands[1, 20].tolist() == fraction(132)
    assert pose.face[0].tolist() == fraction(23) and pose.face[67].tolist() == fraction(90)


def test_what_is_not_seen_is_not_drawn() -> None:
    keypoints, scores = wholebody()
    scores[5] = 0.2  # left shoulder: so no neck either
    scores[0] = 0.3  # the body needs more than the threshold...
    scores[23] = 0.3  # ...hands and face only as much
    pose = Pose.from_wholebody(keypoints, scores, SIDE, SIDE)
    assert np.isnan(pose.body[[0, 1, 5]]).all() and not np.isnan(pose.body[2]).any()
    assert not np.isnan(pose.face[0]).any()
    unseen = Pose.from_wholebody(keypoints, np.zeros(133), SIDE, SIDE)
    assert not draw_pose(unseen, 300, 200).any()
    assert not draw_pose(None, 300, 200).any()  # a flat-lay


def only(body: dict[int, tuple[float, float]]) -> Pose:
    points = np.full((18, 2), np.nan)
    for index, place in body.items():
        points[index] = place
    return Pose(points, np.full((2, 21, 2), np.nan), np.full((68, 2), np.nan))


def test_a_limb_is_dimmed_under_its_brighter_joints() -> None:
    # Neck to right shoulder is limb 0: grey 20, dimmed to 12; its joints 20 x 1.3 = 26.
    canvas = draw_pose(only({1: (0.5, 0.2), 2: (0.3, 0.2)}), 100, 100)
    assert set(np.unique(canvas).tolist()) == {0, 12, 26}
    assert canvas[20, 40] == 12 and canvas[20, 50] == canvas[20, 30] == 26
    assert canvas[20 - 4 : 20 + 5, 40].all() and not canvas[26, 40]  # 9 pixels thick


def test_every_grey_of_a_whole_pose_is_one_of_the_convention_s() -> None:
    _, scores = wholebody()
    keypoints = np.random.default_rng(4).uniform(50, 950, (133, 2))
    canvas = draw_pose(Pose.from_wholebody(keypoints, scores, 1000, 1000), 1000, 1000)
    limbs = {int(int(g) * 0.6) for g in LIMB_GREYS[:17]}
    joints = {min(255, int(int(g) * 1.3)) for g in LIMB_GREYS[:17]}
    hands = {int(g) for g in HAND_GREYS} | {240}
    assert set(np.unique(canvas).tolist()) <= {0, 200} | limbs | joints | hands
    assert {200, 240} <= set(np.unique(canvas).tolist())  # face and hand points drawn


def test_a_hand_bone_is_a_thin_grey_line_with_bright_ends() -> None:
    hands = np.full((2, 21, 2), np.nan)
    hands[0, 0], hands[0, 1] = (0.2, 0.5), (0.8, 0.5)  # the first bone: grey 160
    canvas = draw_pose(Pose(np.full((18, 2), np.nan), hands, np.full((68, 2), np.nan)), 100,
                       100)
    assert canvas[50, 50] == HAND_GREYS[0] == 160 and canvas[50, 20] == 240
    assert not canvas[45, 50]  # 2 pixels thick, not 9


def test_the_drawing_size_is_the_photo_fitted_in_864() -> None:
    assert drawing_size(2000, 1000) == (864, 432)
    assert drawing_size(500, 300) == (500, 300)  # never enlarged


def test_of_several_people_the_largest_confident_body_is_dressed() -> None:
    keypoints, scores = wholebody()
    small = keypoints * 0.1
    people = np.stack((small, keypoints, small))
    assert best_person(people, np.stack((scores, scores, scores))) == 1
    assert best_person(people, np.stack((scores, scores * 0.0, scores))) == 0
