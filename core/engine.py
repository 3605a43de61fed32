"""The image engine's interface: what the imaging activities call.

The engine is plain Python (no Temporal, no FastAPI). The built-in CPU engine lives in the
top-level `engine` package; a remote GPU inference service implements the same interface over
HTTP. The worker's composition root picks one by the `ENGINE` setting.

Images cross this interface as decoded Pillow images (RGB, EXIF orientation already applied);
the engine returns RGB, or RGBA for the transparent background.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from PIL import Image

# Called by the engine between its stages: fraction done (0.0-1.0) and a short stage name.
# The activity turns this into heartbeats and the task's visible progress, so it must be cheap.
ProgressFn = Callable[[float, str], None]

BUILTIN_BACKGROUNDS = ("transparent", "white")
BackgroundKind = Literal["image", "transparent", "white"]


def no_progress(_fraction: float, _stage: str) -> None:
    """A ProgressFn for callers that do not report progress."""


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
    ) -> Image.Image:
        """Model swap. `photo` is either a person wearing the garment (the person takes the
        digital model's identity, garment pixels untouched) or a garment alone (the digital model
        is dressed in it). Then `background`, if given, replaces the background."""
        ...

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
    ) -> Image.Image:
        """Cut the subject (person or garment) out of `photo` and place it on `background`."""
        ...
