"""Copies of ONNX files whose graph inputs and outputs are named (and ordered) otherwise, for the
loading tests: the same weights and nodes behind other port names, as another export might
write them (imaging environment only: it needs the `onnx` package)."""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from pathlib import Path

import onnx


def renamed(source: Path, target: Path, names: dict[str, str],
            outputs: Sequence[str] | None = None, batch: str | None = None) -> Path:
    """`source` written to `target` with each graph input and output value in `names` renamed,
    every node reference to it too; with `outputs` (new names), the graph's outputs in that
    order; with `batch`, the inputs' first size that symbol (a dynamic batch). The copy passes
    onnx's full check."""
    model = onnx.load(str(source))
    graph = model.graph
    for value in (*graph.input, *graph.output, *graph.value_info):
        value.name = names.get(value.name, value.name)
    for node in graph.node:
        for references in (node.input, node.output):
            kept = [names.get(name, name) for name in references]
            del references[:]
            references.extend(kept)
    if batch is not None:
        for value in graph.input:
            value.type.tensor_type.shape.dim[0].dim_param = batch
    if outputs is not None:
        by_name = {value.name: deepcopy(value) for value in graph.output}
        assert sorted(by_name) == sorted(outputs), (sorted(by_name), outputs)
        del graph.output[:]
        graph.output.extend(by_name[name] for name in outputs)
    onnx.checker.check_model(model, full_check=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(target))
    return target
