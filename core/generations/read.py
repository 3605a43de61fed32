"""Reading generations back: the queries the API and the workflow's activities share, and the
caller's own generations, one or a page at a time."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.auth.ownership import owned_by, owns
from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import GenerationKind, GenerationStatus
from core.errors import NotFound
from core.generations.tasks import queue_completion_mail
from core.models.generations import Generation, GenerationImage
from core.settings import Settings

NOT_FOUND = "That generation was not found."


def tasks_of(
    session: Session, generation_id: str, *, with_deleted: bool = True
) -> list[GenerationImage]:
    """A generation's tasks in input order. `with_deleted=False` for what the owner is shown:
    an image deleted on its own is left out (the workflow's accounting still counts it)."""
    query = select(GenerationImage).where(GenerationImage.generation_id == generation_id)
    if not with_deleted:
        query = query.where(GenerationImage.deleted_at.is_(None))
    return list(session.execute(query.order_by(GenerationImage.position)).scalars())


def tasks_by_generation(
    session: Session, generation_ids: list[str], *, with_deleted: bool = True
) -> dict[str, list[GenerationImage]]:
    """Several generations' tasks in one query, each list in input order (`with_deleted` as
    in tasks_of)."""
    grouped: dict[str, list[GenerationImage]] = {gid: [] for gid in generation_ids}
    if generation_ids:
        query = select(GenerationImage).where(GenerationImage.generation_id.in_(generation_ids))
        if not with_deleted:
            query = query.where(GenerationImage.deleted_at.is_(None))
        for task in session.execute(query.order_by(GenerationImage.position)).scalars():
            grouped[task.generation_id].append(task)
    return grouped


def owned_generation(session: Session, principal: Principal, generation_id: str) -> Generation:
    """The caller's generation in the caller's mode, or NotFound (also for someone else's and
    for the other mode's: we never say which)."""
    generation = session.get(Generation, generation_id)
    if generation is None or not owns(principal, generation) or generation.deleted_at is not None:
        raise NotFound(NOT_FOUND)
    return generation


@dataclass(frozen=True)
class GenerationPage:
    generations: list[Generation]
    tasks: dict[str, list[GenerationImage]]
    total: int


class Generations:
    """Reading the caller's generations, and the guest's request to be mailed the result."""

    def __init__(self, sessions: SessionFactory, settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings

    def get(
        self, principal: Principal, generation_id: str
    ) -> tuple[Generation, list[GenerationImage]]:
        with self.sessions() as session:
            generation = owned_generation(session, principal, generation_id)
            return generation, tasks_of(session, generation_id, with_deleted=False)

    def page(
        self,
        principal: Principal,
        kind: GenerationKind | None,
        status: GenerationStatus | None,
        page: int,
        page_size: int,
    ) -> GenerationPage:
        """The caller's own generations of its mode, newest first (the web app's are live: a
        test key's are the API's)."""
        query = select(Generation).where(
            owned_by(principal, Generation), Generation.deleted_at.is_(None)
        )
        if kind:
            query = query.where(Generation.service == kind)
        if status:
            query = query.where(Generation.status == status)
        with self.sessions() as session:
            total = session.execute(
                select(func.count()).select_from(query.subquery())
            ).scalar_one()
            generations = list(
                session.execute(
                    query.order_by(Generation.created_at.desc())
                    .offset((page - 1) * page_size)
                    .limit(page_size)
                ).scalars()
            )
            tasks = tasks_by_generation(
                session, [g.id for g in generations], with_deleted=False
            )
        return GenerationPage(generations, tasks, int(total))

    def mail_guest_when_done(self, principal: Principal, generation_id: str, email: str) -> None:
        """Mail the guest when the generation finishes (at once if it already has)."""
        with self.sessions.begin() as session:
            generation = owned_generation(session, principal, generation_id)
            generation.guest_email = email.strip()
            queue_completion_mail(session, generation, self.settings.app_url)
