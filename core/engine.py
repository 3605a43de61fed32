"""The image engine's interface: what the imaging activities call.

The engine is plain Python (no Temporal, no FastAPI). The built-in CPU engine lives in the
top-level `engine` package; a remote GPU inference service implements the same interface over
HTTP. The worker's composition root picks one by the `ENGINE` setting.

Images cross this interface as decoded Pillow images (RGB, EXIF orientation already applied);
the engine returns RGB, or RGBA for the transparent background.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from PIL import Image

# Called by the engine between its stages: fraction done (0.0-1.0) and a short stage name.
# The activity turns this into heartbeats and the task's visible progress, so it must be cheap.
ProgressFn = Callable[[float, str], None]

BUILTIN_BACKGROUNDS = ("transparent", "white")
BackgroundKind = Literal["image", "transparent", "white"]


def no_progress(_fraction: float, _stage: str) -> None:
    """A ProgressFn for callers that do not report progress."""


# Notes: sentences the engine wants the customer to read beside a delivered image, when it did
# something they did not ask for in so many words (framed a full-length person from the knees
# up because the scene has nowhere to stand). Collected per render in the caller's context.
NOTE_LIMIT = 300  # characters kept of a task's notes (a sentence or two)
_notes: ContextVar[list[str] | None] = ContextVar("engine_notes", default=None)


Item = TypeVar("Item")


@contextmanager
def collecting(into: ContextVar[list[Item] | None]) -> Iterator[list[Item]]:
    """A fresh list in `into` for the block (this thread/context), yielded to the caller: how
    the engine hands back what it found out on the side (notes here, quality reports in
    engine/quality.py) without widening the ImageEngine interface."""
    items: list[Item] = []
    token = into.set(items)
    try:
        yield items
    finally:
        into.reset(token)


def collecting_notes() -> AbstractContextManager[list[str]]:
    """Collect the notes of every render inside the block (this thread/context)."""
    return collecting(_notes)


def add_note(text: str) -> None:
    """Record a note for the current render (once; nothing happens outside collecting_notes)."""
    notes = _notes.get()
    if notes is not None and text not in notes:
        notes.append(text)


@dataclass(frozen=True)
class Background:
    """What to put behind the subject: a photo, or one of the built-in backgrounds."""

    kind: BackgroundKind
    image: Image.Image | None = None

    @staticmethod
    def photo(image: Image.Image) -> Background:
        return Background(kind="image", image=image)

    @staticmethod
    def builtin(name: str) -> Background:
        if name not in BUILTIN_BACKGROUNDS:
            raise ValueError(f"unknown built-in background {name!r}")
        return Background(kind=name)  # type: ignore[arg-type]


# The user's placement adjustment (issue 13): limits, checked by the API and again here.
PLACEMENT_OFFSET_LIMIT = 0.5  # offsets are fractions of the frame, within +-this
PLACEMENT_SCALE_RANGE = (0.3, 2.0)


@dataclass(frozen=True)
class Placement:
    """The user's adjustment of where the subject stands, applied after the engine's own
    placement: moved by `x` and `y` (fractions of the output's width and height, right and
    down positive) and scaled by `scale` around its ground point (the bottom centre of its
    box), so a person stays standing where they were put."""

    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0

    def __post_init__(self) -> None:
        low, high = PLACEMENT_SCALE_RANGE
        limit = PLACEMENT_OFFSET_LIMIT
        if not (-limit <= self.x <= limit and -limit <= self.y <= limit):
            raise ValueError(f"placement offsets must be within +-{limit}")
        if not low <= self.scale <= high:
            raise ValueError(f"placement scale must be within {low} and {high}")

    @property
    def is_identity(self) -> bool:
        return self.x == 0.0 and self.y == 0.0 and self.scale == 1.0


class EngineError(Exception):
    """An error the engine raises on purpose.

    `retryable` False means the same input will fail the same way (bad image, no person): the
    workflow fails the task at once and refunds. `message` is shown to the user as it is.
    """

    retryable: bool = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ImageTooSmall(EngineError):
    """The input's short side is below the engine's minimum."""


class NoPersonFound(EngineError):
    """A person was needed (on the photo or the digital model) but none was found."""


class NoGarmentFound(EngineError):
    """A garment photo was given but no garment could be separated from its background."""


class NoSubjectFound(EngineError):
    """Background replace found nothing to cut out."""


class EngineUnavailable(EngineError):
    """A transient failure (remote service down, timeout): retrying may succeed."""

    retryable = True


class ImageEngine(Protocol):
    """The two operations users pay for."""

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        """Model swap. `photo` is either a person wearing the garment (the person takes the
        digital model's identity, garment pixels untouched) or a garment alone (the digital model
        is dressed in it). Then `background`, if given, replaces the background, with the
        subject moved and scaled by `placement` (the user's adjustment) when one is given."""
        ...

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        """Cut the subject (person or garment) out of `photo` and place it on `background`
        (moved and scaled by `placement` after the engine's own placement, when given; a
        transparent background keeps the photo's framing and ignores it)."""
        ...
