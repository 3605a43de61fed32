"""How the seed (ops/seed.py) presents the fixture photos in the catalog: each digital model's
name, one-line description and filter attributes; each background's name, category and
description. Keyed by the photo's file name (its catalog id), so the ids stay those of the
fixtures (model-1, bg-1, scene-01, ...).

The first seeds named them "Model N" and "Scene N" (category "scene") with no description:
`is_old_default` tells such a row, which the seed may still dress; a row an operator renamed is
theirs and stays as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.enums import BodyType, CatalogKind, Gender, SkinTone

MODEL_CATEGORY = "studio"
# What the first seeds called the photo models and backgrounds, and the backgrounds' category.
OLD_DEFAULT_NAMES = {
    CatalogKind.MODEL: re.compile(r"Model \d+"),
    CatalogKind.BACKGROUND: re.compile(r"Scene \d+"),
    CatalogKind.SAMPLE: re.compile(r"Sample (person|garment)"),
}
OLD_BACKGROUND_CATEGORY = "scene"


@dataclass(frozen=True)
class Presentation:
    name: str
    category: str
    description: str
    gender: Gender | None = None
    skin_tone: SkinTone | None = None
    body_type: BodyType | None = None


def _model(
    name: str, gender: Gender, skin: SkinTone, build: BodyType, hair: str, height_cm: int
) -> Presentation:
    description = f"{build.value.capitalize()} build · {skin.value} skin · {hair} · {height_cm} cm"
    return Presentation(name, MODEL_CATEGORY, description, gender, skin, build)


F, M = Gender.FEMALE, Gender.MALE

# catalog-models/model-N.jpg
MODELS: dict[str, Presentation] = {
    "model-1": _model("Mei", F, SkinTone.FAIR, BodyType.SLIM, "long dark hair, ponytail", 172),
    "model-2": _model("Hana", F, SkinTone.FAIR, BodyType.SLIM, "pink hair in a bun", 170),
    "model-3": _model(
        "Clara", F, SkinTone.FAIR, BodyType.SLIM, "light-brown hair, pinned up", 175
    ),
    "model-4": _model("Amara", F, SkinTone.DEEP, BodyType.SLIM, "short natural afro", 176),
    "model-5": _model("Kenji", M, SkinTone.LIGHT, BodyType.ATHLETIC, "short black hair", 184),
    "model-6": _model("Luca", M, SkinTone.LIGHT, BodyType.ATHLETIC, "short brown hair", 187),
}

STUDIO, STREET, NATURE, INTERIOR = "studio", "street", "nature", "interior"
BACKGROUND_CATEGORIES = (STUDIO, STREET, NATURE, INTERIOR)

# backgrounds/bg-N.jpg (studio sets and rooms) and scenes/scene-NN.jpg (real places).
BACKGROUNDS: dict[str, Presentation] = {
    "bg-1": Presentation("Neon table", STUDIO, "Wooden table under red and blue neon light"),
    "bg-2": Presentation("Cellar shelves", INTERIOR, "Dark cellar with shelves in green light"),
    "bg-3": Presentation("Neon street", STREET, "Street at night, lit by neon signs"),
    "bg-4": Presentation("Cloud arch", STUDIO, "Pink arch set with clouds and steps"),
    "bg-5": Presentation("Bokeh tabletop", INTERIOR, "Wooden table under warm bokeh lights"),
    "bg-6": Presentation("Violet haze", STUDIO, "Purple smoke on a soft gradient"),
    "bg-7": Presentation("Stage lights", STUDIO, "Stage with spotlights and smoke"),
    "bg-8": Presentation("Twin bedroom", INTERIOR, "Bedroom in pink and blue light"),
    "bg-9": Presentation("Dark corner", STUDIO, "Corner of an empty dark room"),
    "bg-10": Presentation("Sky-blue wall", STUDIO, "Pale blue wall over a wooden table top"),
    "scene-01": Presentation("Colosseum square", STREET, "Square before the Colosseum at dusk"),
    "scene-02": Presentation("Reading room", INTERIOR, "Room with bookshelves and a tiled floor"),
    "scene-03": Presentation("Sand dune", NATURE, "Rippled sand dune under a clear sky"),
    "scene-04": Presentation("Sea cliffs lawn", NATURE, "Lawn with hay bales, sea cliffs behind"),
    "scene-05": Presentation("Lobby", INTERIOR, "Modern lobby with stairs and a tiled floor"),
    "scene-06": Presentation("Poplar road", STREET, "Road between poplars, mountains ahead"),
    "scene-07": Presentation("Farmland sunset", NATURE, "Glowing sunset sky over farmland"),
}

# The built-in and generated backgrounds keep their names; they gain a description.
DESCRIPTIONS: dict[str, str] = {
    "transparent": "No background: a PNG with a transparent backdrop",
    "white": "Plain white backdrop, as for product pages",
    "studio-grey": "Light grey paper sweep",
    "studio-warm": "Warm beige paper sweep",
    "studio-blue": "Pale blue paper sweep",
}


# The sample inputs the upload page offers ("or try a sample"), by photo: what a visitor sees
# in each, in words (no brand names, which the photos' logos are not ours to use).
SAMPLES = {
    "01008_00": "Mesh top, leopard skirt",
    "01861_00": "Burgundy crop top",
    "02849_00": "Ribbed tee, print skirt",
    "00055_00": "Lilac logo tee",
    "00126_00": "Colour-block tee",
    "00151_00": "Striped long-sleeve top",
}


def sample_label(photo: str, folder: str) -> str:
    """A sample's name: what it shows, or what the first seeds called it for a photo not
    described here."""
    return SAMPLES.get(photo) or f"Sample {'person' if folder == 'people' else 'garment'}"


def presentation(kind: CatalogKind, item_id: str) -> Presentation | None:
    """The presentation of a fixture photo's item, or None for a photo not described here."""
    table = MODELS if kind == CatalogKind.MODEL else BACKGROUNDS
    return table.get(item_id)


def is_old_default(kind: CatalogKind, name: str) -> bool:
    """Whether a photo item's name is one the first seeds gave ("Model 3", "Scene 7")."""
    pattern = OLD_DEFAULT_NAMES.get(kind)
    return pattern is not None and pattern.fullmatch(name) is not None
