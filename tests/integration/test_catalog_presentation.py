"""How the catalog presents itself, over HTTP against the running stack: the seeded digital
models have names, one-line descriptions and filter attributes (gender, skin tone, body type)
that the model picker filters on; the backgrounds have names, the four categories and
descriptions, the real-place scenes among them; operators set and clear the attributes (a
background has none); and seeding a database the first seeds made ("Model N", "Scene N")
dresses their items but keeps an operator's rename."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from core.catalog.admin import MODEL_ATTRIBUTES_ONLY
from core.db import SessionFactory
from core.enums import CatalogKind, UserRole
from core.models.catalog import CatalogItem
from core.settings import Settings
from core.storage import Storage
from ops.admin import set_role
from ops.seed import seed
from tests.support.accounts import sign_up
from tests.support.paths import FIXTURES, fixture_images
from tests.support.stacks import running_stack

ADMIN_PATH = "/api/v1/admin/catalog"
# What the seed must show for the fixture models: name, gender, skin tone, body type.
MODELS = {
    "model-1": ("Mei", "female", "fair", "slim"),
    "model-2": ("Hana", "female", "fair", "slim"),
    "model-3": ("Clara", "female", "fair", "slim"),
    "model-4": ("Amara", "female", "deep", "slim"),
    "model-5": ("Kenji", "male", "light", "athletic"),
    "model-6": ("Luca", "male", "light", "athletic"),
}
BACKGROUNDS = {
    "bg-1": ("Neon table", "studio"),
    "bg-2": ("Cellar shelves", "interior"),
    "bg-3": ("Neon street", "street"),
    "bg-4": ("Cloud arch", "studio"),
    "bg-5": ("Bokeh tabletop", "interior"),
    "bg-6": ("Violet haze", "studio"),
    "bg-7": ("Stage lights", "studio"),
    "bg-8": ("Twin bedroom", "interior"),
    "bg-9": ("Dark corner", "studio"),
    "bg-10": ("Sky-blue wall", "studio"),
    "scene-01": ("Colosseum square", "street"),
    "scene-02": ("Reading room", "interior"),
    "scene-03": ("Sand dune", "nature"),
    "scene-04": ("Sea cliffs lawn", "nature"),
    "scene-05": ("Lobby", "interior"),
    "scene-06": ("Poplar road", "street"),
    "scene-07": ("Farmland sunset", "nature"),
}
OLD_NAME = re.compile(r"(Model|Scene) \d+")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    for folder in ("catalog-models", "backgrounds", "scenes", "people", "garments"):
        fixture_images(folder)
    with running_stack(tmp_path_factory.mktemp("catalog-presentation")) as running:
        yield running.settings


@pytest.fixture(scope="module")
def admin(api: httpx.Client, db: SessionFactory) -> dict[str, str]:
    email = f"ops-{uuid.uuid4().hex[:8]}@example.com"
    token = sign_up(api, db, email)
    assert set_role(db, email, UserRole.ADMIN)
    return {"Authorization": f"Bearer {token}"}


def models(api: httpx.Client, **params: Any) -> dict[str, Any]:
    page = api.get("/api/v1/model", params={"pageSize": 100, **params})
    assert page.status_code == 200, page.text
    data: dict[str, Any] = page.json()["data"]
    return data


def model_names(api: httpx.Client, **params: Any) -> list[str]:
    return [item["name"] for item in models(api, **params)["items"]]


def backgrounds(api: httpx.Client, **params: Any) -> dict[str, Any]:
    page = api.get("/imageedit/seed", params={"type": "background", "pagesize": 100, **params})
    assert page.status_code == 200, page.text
    data: dict[str, Any] = page.json()["data"]
    return data


def filter_values(api: httpx.Client) -> dict[str, list[str]]:
    answer = api.get("/api/v1/model/filters")
    assert answer.status_code == 200, answer.text
    values: dict[str, list[str]] = answer.json()["data"]
    return values


def upload(
    api: httpx.Client, headers: dict[str, str], path: Path, kind: str, **fields: str
) -> httpx.Response:
    return api.post(ADMIN_PATH, headers=headers,
                    data={"kind": kind, "name": "Uploaded", **fields},
                    files={"file": ("photo.jpg", path.read_bytes(), "image/jpeg")})


def test_seeded_models_have_names_descriptions_and_attributes(api: httpx.Client) -> None:
    items = {item["_id"]: item for item in models(api)["items"]}
    assert set(items) == set(MODELS)
    for item_id, (name, gender, skin, build) in MODELS.items():
        item = items[item_id]
        assert (item["name"], item["gender"], item["skinTone"], item["bodyType"]) == (
            name, gender, skin, build), item
        assert not OLD_NAME.fullmatch(item["name"])
        # One line: build, skin tone, hair, height.
        description = item["description"]
        assert "\n" not in description and len(description) <= 120, description
        assert description.startswith(f"{build.capitalize()} build · {skin} skin · ")
        height = re.fullmatch(r".* · (\d{3}) cm", description)
        assert height is not None, description
        centimetres = int(height.group(1))
        assert (170 <= centimetres <= 176) if gender == "female" else (183 <= centimetres <= 188)
    # The picker shows them in the seed's order.
    assert model_names(api) == [name for name, *_ in MODELS.values()]


def test_model_filters_return_the_matching_models(api: httpx.Client) -> None:
    male = models(api, gender="male")
    assert [i["name"] for i in male["items"]] == ["Kenji", "Luca"] and male["total"] == 2
    assert model_names(api, skinTone="deep") == ["Amara"]
    assert model_names(api, gender="female", skinTone="fair") == ["Mei", "Hana", "Clara"]
    assert model_names(api, bodyType="athletic") == ["Kenji", "Luca"]
    assert model_names(api, bodyType="slim", category="studio") == [
        "Mei", "Hana", "Clara", "Amara"]
    nobody = models(api, gender="female", bodyType="athletic")
    assert nobody["items"] == [] and nobody["total"] == 0
    assert model_names(api, skinTone="tan") == []
    # Filters and paging together: the total counts every match, the page holds its share.
    second = models(api, gender="female", pageSize=3, pageNum=2)
    assert [i["name"] for i in second["items"]] == ["Amara"] and second["total"] == 4
    for params, field in (({"gender": "robot"}, "gender"), ({"skinTone": "Fair"}, "skinTone"),
                          ({"bodyType": "tall"}, "bodyType")):
        refused = api.get("/api/v1/model", params=params)
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"].startswith("application/json")
        assert refused.json()["message"].startswith(f"{field}: "), refused.text


def test_filter_values_are_those_of_the_published_models(
    api: httpx.Client, admin: dict[str, str]
) -> None:
    assert filter_values(api) == {
        "gender": ["female", "male"],
        "skinTone": ["fair", "light", "deep"],
        "bodyType": ["slim", "athletic"],
    }
    # Amara is the only deep-skinned model: unpublished, "deep" is no longer offered.
    hidden = api.patch(f"{ADMIN_PATH}/model-4", json={"published": False}, headers=admin)
    assert hidden.status_code == 200, hidden.text
    try:
        assert filter_values(api)["skinTone"] == ["fair", "light"]
        assert model_names(api, skinTone="deep") == []
    finally:
        api.patch(f"{ADMIN_PATH}/model-4", json={"published": True}, headers=admin)
    assert filter_values(api)["skinTone"] == ["fair", "light", "deep"]


def test_backgrounds_have_names_categories_and_descriptions(api: httpx.Client) -> None:
    page = backgrounds(api)
    items = {item["_id"]: item for item in page["items"]}
    assert page["total"] == len(items) == 2 + 3 + len(BACKGROUNDS)  # built-ins, generated
    for item_id, (name, category) in BACKGROUNDS.items():
        assert (items[item_id]["name"], items[item_id]["category"]) == (name, category)
    for item in items.values():
        assert item["description"].strip(), item
        assert not OLD_NAME.fullmatch(item["name"]), item
        assert (item["gender"], item["skinTone"], item["bodyType"]) == (None, None, None)
    photo_categories = {items[i]["category"] for i in BACKGROUNDS}
    assert photo_categories == {"studio", "street", "nature", "interior"}
    # The seven real places are offered, after the studio sets, built-ins still first.
    order = [item["_id"] for item in page["items"]]
    scenes = [f"scene-0{n}" for n in range(1, 8)]
    assert order[:2] == ["transparent", "white"]
    assert order[-7:] == scenes
    # The picker's default page (18) leaves the last scenes for page 2.
    first = backgrounds(api, pagesize=18)
    assert len(first["items"]) == 18 and first["total"] == page["total"]
    rest = backgrounds(api, pagesize=18, pagenum=2)
    assert [i["_id"] for i in rest["items"]] == order[18:]


def test_samples_are_labelled_with_what_they_show(api: httpx.Client, db: SessionFactory,
                                                   stack: Settings) -> None:
    """The upload page's samples carry what they show; a database the first seeds made
    ("Sample person") is relabelled by the next seed."""
    def labels() -> dict[str, str]:
        answer = api.get("/api/v1/sample")
        assert answer.status_code == 200, answer.text
        return {item["_id"]: item["name"] for item in answer.json()["data"]["items"]}

    shown = labels()
    assert shown["sample-people-01008_00"] == "Mesh top, leopard skirt"
    assert shown["sample-garments-00151_00"] == "Striped long-sleeve top"
    assert not any(name.startswith("Sample ") for name in shown.values()), shown
    with db.begin() as session:
        row = session.get(CatalogItem, "sample-people-01008_00")
        assert row is not None
        row.name = "Sample person"
    assert seed(db, Storage(stack), stack, FIXTURES) == 0
    assert labels() == shown


def test_operators_set_and_clear_a_models_attributes(
    api: httpx.Client, admin: dict[str, str], db: SessionFactory
) -> None:
    person = next(p for p in fixture_images("people") if p.name == "01008_00.jpg")
    created = upload(api, admin, person, "model", description="  Curvy build ·\n medium skin ",
                     gender="female", skinTone="medium", bodyType="curvy")
    assert created.status_code == 200, created.text
    item = created.json()["data"]
    item_id = item["_id"]
    try:
        assert (item["description"], item["gender"], item["skinTone"], item["bodyType"]) == (
            "Curvy build · medium skin", "female", "medium", "curvy")
        # Unpublished: the filter values do not offer its attributes yet.
        assert "medium" not in filter_values(api)["skinTone"]
        api.patch(f"{ADMIN_PATH}/{item_id}", json={"published": True}, headers=admin)
        assert [i["_id"] for i in models(api, skinTone="medium")["items"]] == [item_id]
        values = filter_values(api)
        assert "medium" in values["skinTone"] and "curvy" in values["bodyType"]

        # Absent fields stay; null clears; a value sets; "" clears the description.
        cleared = api.patch(f"{ADMIN_PATH}/{item_id}", headers=admin,
                            json={"gender": None, "skinTone": "tan"})
        assert cleared.status_code == 200, cleared.text
        entry = cleared.json()["data"]
        assert (entry["gender"], entry["skinTone"], entry["bodyType"]) == (None, "tan", "curvy")
        assert entry["description"] == "Curvy build · medium skin"
        assert item_id not in [i["_id"] for i in models(api, gender="female")["items"]]
        assert [i["_id"] for i in models(api, skinTone="tan")["items"]] == [item_id]
        described = api.patch(f"{ADMIN_PATH}/{item_id}", headers=admin,
                              json={"description": "", "bodyType": None, "skinTone": None})
        assert described.status_code == 200, described.text
        with db() as session:
            row = session.get(CatalogItem, item_id)
            assert row is not None
            assert (row.description, row.gender, row.skin_tone, row.body_type) == (
                "", None, None, None)
        assert "curvy" not in filter_values(api)["bodyType"]
        listed = api.get(ADMIN_PATH, params={"kind": "model"}, headers=admin).json()["data"]
        mine = next(i for i in listed["items"] if i["_id"] == item_id)
        assert (mine["description"], mine["gender"]) == ("", None)

        bad = api.patch(f"{ADMIN_PATH}/{item_id}", json={"bodyType": "tall"}, headers=admin)
        assert bad.status_code == 422 and bad.json()["message"].startswith("bodyType: ")
        long = api.patch(f"{ADMIN_PATH}/{item_id}", json={"description": "x" * 281},
                         headers=admin)
        assert long.status_code == 422 and "description" in long.json()["message"]
    finally:
        assert api.delete(f"{ADMIN_PATH}/{item_id}", headers=admin).status_code == 200


def test_a_background_has_no_gender_skin_tone_or_body_type(
    api: httpx.Client, admin: dict[str, str], db: SessionFactory, stack: Settings
) -> None:
    for body in ({"gender": "female"}, {"skinTone": "deep"},
                 {"bodyType": "slim", "name": "Renamed"}):
        refused = api.patch(f"{ADMIN_PATH}/bg-1", json=body, headers=admin)
        assert refused.status_code == 422, refused.text
        assert refused.json()["message"] == MODEL_ATTRIBUTES_ONLY
    with db() as session:
        row = session.get(CatalogItem, "bg-1")
        assert row is not None
        assert (row.name, row.gender, row.skin_tone, row.body_type) == (
            "Neon table", None, None, None)
    # A description is fine, and so is clearing what it does not have.
    described = api.patch(f"{ADMIN_PATH}/bg-1", headers=admin,
                          json={"description": "Red and blue neon", "gender": None})
    assert described.status_code == 200, described.text
    assert described.json()["data"]["description"] == "Red and blue neon"
    api.patch(f"{ADMIN_PATH}/bg-1", headers=admin,
              json={"description": "Wooden table under red and blue neon light"})

    # An upload of a background with a gender is refused before anything is stored.
    storage = Storage(stack)
    stored_before = set(storage.keys("catalog/"))
    before = len(backgrounds(api)["items"])
    path = next(p for p in fixture_images("backgrounds") if p.name == "bg-2.jpg")
    refused = upload(api, admin, path, "background", gender="male")
    assert refused.status_code == 422, refused.text
    assert refused.json()["message"] == MODEL_ATTRIBUTES_ONLY
    assert set(storage.keys("catalog/")) == stored_before
    with db() as session:
        uploads = session.execute(select(CatalogItem.id).where(
            CatalogItem.kind == CatalogKind.BACKGROUND,
            CatalogItem.id.like("background-%"))).scalars().all()
    assert uploads == [] and len(backgrounds(api)["items"]) == before


def test_seeding_an_old_style_database_dresses_its_items_but_keeps_a_rename(
    api: httpx.Client, admin: dict[str, str], db: SessionFactory, stack: Settings
) -> None:
    """The first seeds named the photos "Model N" and "Scene N" (category "scene") with no
    description. Seeding such a database again gives them their presentation, except an item
    an operator renamed (kept whole) and a category an operator changed."""
    photo_ids = list(MODELS) + [i for i in BACKGROUNDS if i.startswith("bg-")]
    with db.begin() as session:
        for number, item_id in enumerate(photo_ids, start=1):
            row = session.get(CatalogItem, item_id)
            assert row is not None
            row.name = f"{'Model' if row.kind == CatalogKind.MODEL else 'Scene'} {number}"
            row.category = "studio" if row.kind == CatalogKind.MODEL else "scene"
            row.description = ""
            row.gender = row.skin_tone = row.body_type = None
        white = session.get(CatalogItem, "white")
        assert white is not None
        white.description = ""
    # An operator renames one model and recategorises one background (its name still old).
    renamed = api.patch(f"{ADMIN_PATH}/model-3", json={"name": "Clara B"}, headers=admin)
    assert renamed.status_code == 200, renamed.text
    regrouped = api.patch(f"{ADMIN_PATH}/bg-3", json={"category": "City"}, headers=admin)
    assert regrouped.status_code == 200, regrouped.text

    storage = Storage(stack)
    assert seed(db, storage, stack, FIXTURES) == 0  # nothing added, but dressed

    def snapshot() -> dict[str, tuple[Any, ...]]:
        with db() as session:
            return {row.id: (row.name, row.category, row.description, row.gender,
                             row.skin_tone, row.body_type)
                    for row in session.execute(select(CatalogItem)).scalars()}

    rows = snapshot()
    for item_id, (name, gender, skin, build) in MODELS.items():
        if item_id == "model-3":
            continue
        assert rows[item_id][:2] == (name, "studio")
        assert rows[item_id][2].startswith(f"{build.capitalize()} build")
        assert rows[item_id][3:] == (gender, skin, build)
    assert rows["model-3"] == ("Clara B", "studio", "", None, None, None)
    for item_id, (name, category) in BACKGROUNDS.items():
        if item_id != "bg-3":
            assert rows[item_id][:2] == (name, category)
            assert rows[item_id][2]
    assert rows["bg-3"][:2] == ("Neon street", "city") and rows["bg-3"][2]
    assert rows["white"][0] == "Pure white" and rows["white"][2]
    assert model_names(api)[:3] == ["Mei", "Hana", "Clara B"]

    # Seeding again changes nothing more: the rename stays, nothing is re-dressed.
    assert seed(db, storage, stack, FIXTURES) == 0
    assert snapshot() == rows
