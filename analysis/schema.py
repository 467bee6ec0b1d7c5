"""JSON Schema of each family's instance and solution documents, built from the readers
(``packgap schema FAMILY instance|solution``, issue 32.3).

The family's reader (``instance_from_dict`` / ``solution_from_dict``) reads sample documents
inside :func:`packgap.fields.recording`, which notes every check it makes: an object's known and
required keys, a number's bounds and whether it must be whole, a string's choices, a list's
elements. The schema is those notes merged over the samples (every generator of the family at
its example size, and the solutions of every packgap heuristic of the family on them), so it
says what the readers accept and cannot drift from them. A field the samples never fill is
still listed (the reader declares its key) with no type; keys a reader takes as data (job ids,
model names, class names) become ``additionalProperties``. Cross-field rules (a deadline after
its arrival, a job no wider than the cluster) stay with the reader and the validator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from packgap.fields import MAX_ABS, Note, recording

PARTS = ("instance", "solution")
DIALECT = "https://json-schema.org/draft/2020-12/schema"
_TOKEN = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


@dataclass
class _Node:
    notes: list[Note] = field(default_factory=list)
    keys: dict[str, bool] = field(default_factory=dict)
    nulls: set[str] = field(default_factory=set)
    children: dict[str, _Node] = field(default_factory=dict)
    items: _Node | None = None
    values: _Node | None = None

    def child(self, token: str | int) -> _Node:
        if isinstance(token, int):
            self.items = self.items or _Node()
            return self.items
        if token in self.keys:
            return self.children.setdefault(token, _Node())
        self.values = self.values or _Node()  # a key that is data: a map entry
        return self.values


def _tokens(path: str) -> list[str | int]:
    return [int(index) if index else name for index, name in _TOKEN.findall(path)]


def tree(notes: Iterable[Note]) -> _Node:
    """The notes placed by path; an object's keys are known before its fields are read."""
    root = _Node()
    for note in notes:
        node = root
        for token in _tokens(note.path):
            node = node.child(token)
        node.notes.append(note)
        if note.kind == "object":
            for key, required in note.rule["keys"].items():
                node.keys[key] = node.keys.get(key, True) and required
            node.nulls |= set(note.rule["nulls"])
    return root


def _number(rules: list[Mapping[str, Any]]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer" if all(r["integer"] for r in rules) else "number"}
    minima = [r["minimum"] for r in rules if r["minimum"] is not None]
    if all(r["positive"] for r in rules):
        schema["exclusiveMinimum"] = 0
    if minima or "exclusiveMinimum" not in schema:
        schema["minimum"] = min(minima) if minima else -MAX_ABS
    schema["maximum"] = MAX_ABS
    return schema


def to_schema(node: _Node) -> dict[str, Any]:
    """The JSON Schema of one node: one alternative per kind of check made there."""
    kinds = {n.kind for n in node.notes}
    found: list[dict[str, Any]] = []
    if "object" in kinds:
        properties = {}
        for key in sorted(node.keys):
            child = to_schema(node.children[key]) if key in node.children else {}
            properties[key] = {"anyOf": [child, {"type": "null"}]} if key in node.nulls and child else child
        required = sorted(k for k, needed in node.keys.items() if needed)
        found.append({"type": "object", "properties": properties, "required": required, "additionalProperties": False})
    elif "map" in kinds or node.values is not None:
        found.append({"type": "object", "additionalProperties": to_schema(node.values) if node.values else {}})
    if "number" in kinds:
        found.append(_number([n.rule for n in node.notes if n.kind == "number"]))
    if "string" in kinds:
        choices = {c for n in node.notes if n.kind == "string" for c in n.rule["choices"] or ()}
        unrestricted = any(n.rule["choices"] is None for n in node.notes if n.kind == "string")
        found.append({"type": "string", "minLength": 1, **({} if unrestricted else {"enum": sorted(choices)})})
    if "boolean" in kinds:
        found.append({"type": "boolean"})
    if "array" in kinds:
        array: dict[str, Any] = {"type": "array", "items": to_schema(node.items) if node.items else {}}
        if all(n.rule["nonempty"] for n in node.notes if n.kind == "array"):
            array["minItems"] = 1
        found.append(array)
    if not found:
        return {}
    return found[0] if len(found) == 1 else {"anyOf": found}


def samples(family: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Instance documents of every generator of ``family`` at its example size, and the solution
    documents of every packgap heuristic of the family on them."""
    from packgap.analysis import registry
    from packgap.analysis.run import solve
    from packgap.solvers.outcome import SolveOptions

    kit = registry.kit(family)
    fam = kit.family
    instances = [
        fam.instance_from_dict(fam.instance_to_dict(g.build(g.example_options())))
        for g in kit.generators
        if g.target == family
    ]
    solutions = []
    for instance in instances:
        for method in kit.methods:
            if not method.exact and method.default_time_limit is None:
                result = solve(fam, instance, method, options=SolveOptions())
                if result.solution is not None:
                    solutions.append(result.solution)
    return [fam.instance_to_dict(i) for i in instances], solutions


def schema(family: str, part: str) -> dict[str, Any]:
    """The JSON Schema of ``family``'s ``part`` (instance or solution) documents."""
    from packgap.analysis import registry
    from packgap.errors import UnknownNameError

    if part not in PARTS:
        raise UnknownNameError("document part", part, list(PARTS))
    fam = registry.family(family)
    instances, solutions = samples(family)
    read = fam.instance_from_dict if part == "instance" else fam.solution_from_dict
    with recording() as notes:
        for document in instances if part == "instance" else solutions:
            read(document)
    body = to_schema(tree(notes))
    title = f"packgap {family} {part}"
    if part == "instance":
        body["properties"]["schema"] = {"const": fam.schema}
        body["properties"]["version"] = {"const": fam.version}
    return {"$schema": DIALECT, "$id": f"https://packgap.invalid/schema/{family}/{part}.json", "title": title, **body}


#: Units read from a field name's ending (the documents' naming rule), for the field tables.
UNITS = {"_s": "s", "_gb": "GB", "_mb": "MB", "_h": "h", "_pct": "%"}


def _kind(node: Mapping[str, Any]) -> str:
    if "anyOf" in node:
        return " or ".join(_kind(n) for n in node["anyOf"])
    if "const" in node:
        return f"= {node['const']!r}"
    kind = str(node.get("type", "any"))
    if "enum" in node:
        kind += " (" + ", ".join(node["enum"]) + ")"
    if "exclusiveMinimum" in node:
        kind += " > 0"
    elif node.get("minimum", -MAX_ABS) != -MAX_ABS:
        kind += f" >= {node['minimum']:g}"
    if node.get("minItems"):
        kind += ", not empty"
    return kind


def field_rows(node: Mapping[str, Any], path: str = "") -> list[tuple[str, str, bool, str]]:
    """Every field of a schema: (path, kind, required, unit); ``[]`` marks a list's elements and
    ``{name}`` a map's values (names the document defines)."""
    rows: list[tuple[str, str, bool, str]] = []
    for alternative in node.get("anyOf", [node]):
        for key, child in alternative.get("properties", {}).items():
            here = f"{path}.{key}" if path else key
            unit = next((u for end, u in UNITS.items() if key.endswith(end)), "")
            rows.append((here, _kind(child), key in alternative.get("required", []), unit))
            rows += field_rows(child, here)
        if isinstance(alternative.get("additionalProperties"), Mapping) and alternative["additionalProperties"]:
            rows.append((f"{path}.{{name}}", _kind(alternative["additionalProperties"]), False, ""))
            rows += field_rows(alternative["additionalProperties"], f"{path}.{{name}}")
        if alternative.get("items"):
            rows += field_rows(alternative["items"], f"{path}[]")
    return rows


#: Unit and meaning of each field, looked up as ``FAMILY:PATH``, then ``FAMILY:NAME``, then ``NAME``
#: (the last part of the path); ``tests/analysis/test_schema.py`` fails on a field without one.
MEANINGS: dict[str, tuple[str, str]] = {
    "schema": ("", "document kind, packgap.FAMILY"),
    "version": ("", "version of the document kind"),
    "name": ("", "name of the instance"),
    "id": ("", "job (or group) id, unique in the document"),
    "jobs": ("", "the jobs"),
    "groups": ("", "the job groups"),
    "model": ("", "model name (a key of the document's models / profiles)"),
    "models": ("", "per-model performance profiles"),
    "gpus": ("", "GPU demand (a count), or the GPU ids used"),
    "gpu_types": ("", "GPU types of the cluster"),
    "gpu_type": ("", "GPU type the group runs on"),
    "count": ("", "GPUs of this type"),
    "arrival": ("s", "submit time"),
    "deadline": ("s", "deadline, on the same clock as arrival"),
    "duration": ("s", "standalone run time the trace gives"),
    "iterations": ("", "training iterations to run"),
    "batch": ("samples", "batch size (per GPU for sharing, global for calibration)"),
    "start": ("s", "start time"),
    "stop": ("s", "time the segment is preempted (absent: runs to the finish)"),
    "finish": ("s", "completion time the producer claims (checked by the validator)"),
    "nodes": ("", "nodes of the cluster"),
    "gpus_per_node": ("", "GPUs per node"),
    "cluster": ("", "the cluster"),
    "objective": ("", "the objective the instance is scored by"),
    "source": ("", "where the numbers come from"),
    "jobs[]": ("", "one job"),
    "planning:gpu_types[].name": ("", "GPU type name"),
    "packing:gpu_types[].name": ("", "GPU type name"),
    "sharing:models[].name": ("", "model name"),
    "calibration:throughput.models[].name": ("", "model name"),
    "planning:groups[].jobs": ("", "ids of the jobs packed into the group"),
    "planning:groups[].times": ("s", "processing time of the group per GPU type"),
    "planning:groups[].times.{name}": ("s", "processing time on this GPU type"),
    "planning:tardiness_weight": ("", "weight of CUCKOO's deadline cost C2 against completion time"),
    "planning:sequences": ("", "per GPU, the groups it runs, in order"),
    "planning:sequences[].gpu": ("", "GPU index within its type"),
    "planning:sequences[].groups": ("", "group ids in run order"),
    "packing:alpha": ("1/s", "weight of mean JCT in eq. 10"),
    "packing:beta": ("", "weight of the late-job fraction in eq. 10"),
    "packing:interference": ("", "lambda, the AM estimator's interference factor"),
    "packing:interleaving": ("", "interleaving estimator of a pair's iteration time"),
    "packing:jobs[].profiles": ("", "per GPU type, the job's per-iteration stage times"),
    "packing:jobs[].profiles.{name}": ("", "stage times on this GPU type"),
    "packing:jobs[].profiles.{name}.S": ("ms", "data loading (storage) time per iteration"),
    "packing:jobs[].profiles.{name}.F": ("ms", "forward pass time per iteration"),
    "packing:jobs[].profiles.{name}.B": ("ms", "backward pass time per iteration"),
    "packing:jobs[].profiles.{name}.C": ("ms", "communication time per iteration"),
    "packing:jobs[].profiles.{name}.iteration": ("ms", "measured standalone iteration time (else S + F + B + C)"),
    "packing:jobs[].sync": ("", "how a pair's iterations synchronise"),
    "packing:groups[].jobs": ("", "ids of the one to four jobs of the group"),
    "packing:groups[].gpus": ("", "GPU indices within the type"),
    "placement:classes": ("", "job classes, most variability-sensitive first"),
    "placement:jobs[].class": ("", "the job's class (one of classes)"),
    "placement:jobs[].work": ("", "remaining work (weight of the work objective)"),
    "placement:locality_penalty": ("", "L_across: slowdown factor of a job spread over nodes"),
    "placement:model_penalties": ("", "L_across per model, overriding locality_penalty"),
    "placement:pm_scores": ("", "per class, one PM-score per GPU (iteration time / median; > 1 slower)"),
    "placement:pm_scores.{name}": ("", "PM-scores of this class, one per GPU"),
    "placement:unavailable": ("", "GPU ids held by sticky jobs this round"),
    "placement:allocations": ("", "per job id, the GPU ids it gets"),
    "placement:allocations.{name}": ("", "GPU ids of this job"),
    "sharing:cluster.gpu_memory_gb": ("GB", "memory of each GPU"),
    "sharing:cluster.max_jobs_per_gpu": ("", "jobs that may share one GPU (2 in the paper)"),
    "sharing:cluster.preemption_overhead_s": ("s", "no-progress time a preemptive policy pays per resume"),
    "sharing:interference": ("", "interference ratios xi of co-located jobs"),
    "sharing:interference.default": ("", "xi of a pair not listed"),
    "sharing:interference.pairs": ("", "xi per ordered model pair"),
    "sharing:interference.pairs[].model": ("", "the slowed model"),
    "sharing:interference.pairs[].partner": ("", "the model it shares a GPU with"),
    "sharing:interference.pairs[].xi": ("", "slowdown of model beside partner (>= 1)"),
    "sharing:models[].comp_alpha": ("s", "eq. 3 fixed compute time per iteration"),
    "sharing:models[].comp_beta": ("s/sample", "eq. 3 compute time per sample"),
    "sharing:models[].comm_alpha": ("s", "eq. 4 fixed communication time"),
    "sharing:models[].comm_beta": ("s/MB", "eq. 4 communication time per MB"),
    "sharing:models[].delta": ("", "eq. 7 compute/communication overlap (>= 1)"),
    "sharing:models[].mem_base_gb": ("GB", "GPU memory of the model at batch 0"),
    "sharing:models[].mem_per_sample_gb": ("GB", "GPU memory per sample of the batch"),
    "sharing:models[].message_mb": ("MB", "gradient message size M"),
    "sharing:jobs[].segments": ("", "run segments: start, GPUs, stop"),
    "sharing:jobs[].segments[].gpus": ("", "GPU ids of the segment"),
    "sharing:jobs[].steps": ("", "s = ceil(B / b), accumulation steps per iteration"),
    "sharing:jobs[].co_runner": ("", "job already on one of its GPUs when it started (null: none)"),
    "sharing:preemptive": ("", "the schedule preempts jobs (Tiresias)"),
    "sharing:resume_overhead_s": ("s", "no-progress time each resume pays on top of the cluster's preemption overhead"),
    "calibration:granularity": ("%", "LGRR step of the MPS share limits"),
    "calibration:now": ("s", "time of calibration, against which deadlines are measured"),
    "calibration:jobs[].gpus": ("", "global GPU indices of the job's workers"),
    "calibration:jobs[].remaining_steps": ("", "training steps left"),
    "calibration:throughput": ("", "the throughput model every method and the evaluator use"),
    "calibration:throughput.alpha": ("", "concavity exponent of speed in the MPS share"),
    "calibration:throughput.models": ("", "per-model anchors"),
    "calibration:throughput.models[].speed": ("samples/s", "solo speed"),
    "calibration:throughput.models[].fixed_cost": ("s", "fixed cost of one step"),
    "calibration:throughput.models[].utilization": ("%", "solo GPU utilisation (the share cap)"),
    "calibration:throughput.pairs": ("", "measured free-competition pair speeds"),
    "calibration:throughput.pairs[].model": ("", "the slowed model"),
    "calibration:throughput.pairs[].partner": ("", "its co-runner"),
    "calibration:throughput.pairs[].speed": ("", "speed beside partner (1.0 = alone)"),
    "calibration:jobs[].shares": ("%", "MPS share of each worker, in the order of the job's gpus"),
    "calibration:jobs[].samples": ("samples", "samples of each worker per step (LISS split)"),
    "calibration:search": ("", "what the method reports of its own search"),
    "calibration:search.{name}": ("", "one figure of the search (evaluations, simulated seconds)"),
}


def meaning(family: str, path: str) -> tuple[str, str] | None:
    """The unit and meaning of ``path`` in ``family``'s documents (:data:`MEANINGS`)."""
    leaf = path.rpartition(".")[2].removesuffix("[]")
    for key in (f"{family}:{path}", f"{family}:{leaf}", leaf):
        if key in MEANINGS:
            return MEANINGS[key]
    return None
