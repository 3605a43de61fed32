"""`make eval`'s markdown tables: the people-wild scores, the engine timings and the
quality gate's verdicts per fixture category."""

from __future__ import annotations

import statistics

from ops.eval.cases import Outcome
from ops.eval.wild import WILD_EACH_IOU, WILD_MEAN_IOU, WildScore, mean


def wild_table(after: list[WildScore], before: list[WildScore] | None, revision: str) -> str:
    """Markdown: per photo IoU and alpha error (before | after with a baseline), the mean row
    and whether each target is met."""
    lines = ["# People in the wild: cut-out against the reference masks", "",
             f"IoU at alpha 0.5 and mean absolute alpha error; targets: IoU >= {WILD_EACH_IOU:.2f}"
             f" on each photo, >= {WILD_MEAN_IOU:.2f} mean. A refusal scores IoU 0 and alpha "
             "error 1 (in the means).", ""]
    if before is not None:
        lines += [f"before = `{revision}`, after = this working tree.", "",
                  "| photo | IoU before | IoU after | alpha err before | alpha err after | "
                  "ms before | ms after | target | after |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    else:
        lines += ["| photo | IoU | alpha err | ms | target | result |",
                  "|---|---:|---:|---:|---:|---|"]

    def verdict(value: float, target: float) -> str:
        return "met" if value >= target else "short"

    def cell(s: WildScore, value: float) -> str:
        return f"{value:.3f}" if s.error is None else "refused"

    for i, s in enumerate(after):
        note = "" if s.error is None else f" ({s.error.replace('|', '/')[:60]})"
        if before is not None:
            b = before[i]
            lines.append(f"| {s.photo.name} | {cell(b, b.iou)} | {cell(s, s.iou)} | "
                         f"{cell(b, b.alpha_error)} | {cell(s, s.alpha_error)} | {b.ms:.0f} | "
                         f"{s.ms:.0f} | {WILD_EACH_IOU:.2f} | "
                         f"{verdict(s.iou, WILD_EACH_IOU)}{note} |")
        else:
            lines.append(f"| {s.photo.name} | {cell(s, s.iou)} | {cell(s, s.alpha_error)} | "
                         f"{s.ms:.0f} | {WILD_EACH_IOU:.2f} | "
                         f"{verdict(s.iou, WILD_EACH_IOU)}{note} |")
    mean_iou = mean([s.iou for s in after])
    mean_error = mean([s.alpha_error for s in after])
    if before is not None:
        lines.append(f"| **mean** | {mean([s.iou for s in before]):.3f} | {mean_iou:.3f} | "
                     f"{mean([s.alpha_error for s in before]):.3f} | {mean_error:.3f} | "
                     f"{mean([s.ms for s in before]):.0f} | {mean([s.ms for s in after]):.0f}"
                     f" | {WILD_MEAN_IOU:.2f} | {verdict(mean_iou, WILD_MEAN_IOU)} |")
    else:
        lines.append(f"| **mean** | {mean_iou:.3f} | {mean_error:.3f} | "
                     f"{mean([s.ms for s in after]):.0f} | {WILD_MEAN_IOU:.2f} | "
                     f"{verdict(mean_iou, WILD_MEAN_IOU)} |")
    each = sum(1 for s in after if s.iou >= WILD_EACH_IOU)
    lines += ["", f"Photos at or above {WILD_EACH_IOU:.2f}: {each}/{len(after)}; refused: "
                  f"{sum(1 for s in after if s.error is not None)}."]
    return "\n".join(lines) + "\n"


def timings_table(results: dict[str, list[Outcome]]) -> str:
    lines = ["# Engine eval timings", "",
             "Engine time per image in ms (decoding excluded; one untimed warm-up run per "
             "operation first).", "",
             "| operation | input | model | background | ms | result | quality scores |",
             "|---|---|---|---|---:|---|---|"]
    for outcomes in results.values():
        for o in outcomes:
            result = "ok" if o.image is not None else (o.error or "error").replace("|", "/")
            lines.append(f"| {o.case.operation} | {o.case.photo.name} | "
                         f"{o.case.model.name if o.case.model else ''} | "
                         f"{o.case.background_label} | {o.ms:.0f} | {result} | "
                         f"{o.quality or '-'} |")
    lines += ["", "| operation | cases | errors | p50 ms | mean ms | max ms |",
              "|---|---:|---:|---:|---:|---:|"]
    for operation, outcomes in results.items():
        # What the upload's analysis refused never reached the engine: no time to count.
        ms = [o.ms for o in outcomes if not o.refused_at_upload] or [0.0]
        errors = sum(1 for o in outcomes if o.image is None)
        lines.append(f"| {operation} | {len(ms)} | {errors} | {statistics.median(ms):.0f} | "
                     f"{statistics.fmean(ms):.0f} | {max(ms):.0f} |")
    return "\n".join(lines) + "\n"


def gate_table(results: dict[str, list[Outcome]]) -> str:
    """Per fixture category and operation: what was delivered and what was refused where, then
    every output's gate scores."""
    lines = ["# The quality gate over the fixtures", "",
             "Each case as the product runs it: the upload's analysis first (a refusal there is a "
             "422 at submit, nothing charged), then the engine and its gate (a refusal there is "
             "refunded).", "",
             "| category | operation | cases | delivered | refused at upload | "
             "refused by the gate | errors |", "|---|---|---:|---:|---:|---:|---:|"]
    every = [o for outcomes in results.values() for o in outcomes]
    for category in sorted({o.case.category for o in every}):
        for operation in results:
            rows = [o for o in every if o.case.category == category
                    and o.case.operation == operation]
            if not rows:
                continue
            count = {v: sum(1 for o in rows if o.verdict == v) for v in (
                "delivered", "refused at upload", "refused by the gate", "error")}
            lines.append(f"| {category} | {operation} | {len(rows)} | {count['delivered']} | "
                         f"{count['refused at upload']} | {count['refused by the gate']} | "
                         f"{count['error']} |")
    lines += ["", "| category | operation | input | model | background | verdict | gate scores |",
              "|---|---|---|---|---|---|---|"]
    for o in every:
        why = o.refused_at_upload or (o.error if o.verdict == "error" else "") or ""
        lines.append(f"| {o.case.category} | {o.case.operation} | {o.case.photo.name} | "
                     f"{o.case.model.name if o.case.model else ''} | {o.case.background_label} | "
                     f"{o.verdict}{': ' + why if why else ''} | "
                     f"{(o.quality or '-').replace('|', '/')} |")
    return "\n".join(lines) + "\n"
