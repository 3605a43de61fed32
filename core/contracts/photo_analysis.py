"""The upload analysis (workflows/photo_analysis.py): what each uploaded photo shows and
what each service can do with it."""

from __future__ import annotations

from dataclasses import dataclass

# Every upload is analysed on the imaging queue (workflows/photo_analysis.py): what it shows and
# what each service can do with it (core/photos/analysis.py). The activity stores the result on
# the upload; the API waits for it about a second and shows it, and submit refuses what it
# rules out before anything is charged.
PHOTO_ANALYSIS_WORKFLOW = "PhotoAnalysis"
ANALYSE_PHOTO = "analyse_uploaded_photo"


@dataclass
class AnalysePhotoInput:
    key: str  # the stored upload
    max_bytes: int
    imaging_task_queue: str


def photo_analysis_workflow_id(upload_id: str) -> str:
    """One analysis per upload: a second request finds the first one's workflow."""
    return f"photo-analysis-{upload_id}"
