"""Anchors of the LGRR throughput model for the models of GIMBAL Table 1, from public traces.

GIMBAL's own measurements are not public, so every model of Table 1 is pinned to the
closest measured workload (a *proxy* where the same model was never measured; the source
string says which):

* solo profile: ``lucid/single_data.csv`` (samples/s and GPU utilisation, amp off) at the
  per-worker batch of Table 1's middle option. The fixed step cost c and the marginal speed
  v come from the line t(b) = c + b / v through that batch and the next larger one (the
  next smaller one for the largest); a slope or intercept that is not positive gives
  c = 0. LLaMA has no public profile: ``pal/colocate_info/raw_single.csv`` GPT2-XL (8 GPUs,
  data parallel, 0.08 it/s at 512 samples) gives its speed, utilisation taken as 100 %.
* free-competition pair speed p(m | k): the mean measured normalised speed of m beside k,
  from the first source that has both: Lucid ``colocate_info.csv`` (amp off, every batch
  size), PAL ``norm_speed.csv`` (speed1 / speed2, infeasible 0.0 rows dropped), Gavel
  ``simulation_throughputs.json`` v100 (pair throughput / isolated throughput). A pair no
  source measured gets the mean of m's measured pair speeds, or of all measured pair speeds
  when m has none (stated as a fallback).

:func:`build` recomputes the table from the trace folder; the bundled ``anchors.json`` is its
output, so generators stay byte-identical where the traces are absent
(``tests/calibration/test_anchors.py`` checks the two agree when the traces are present).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from packgap.instances.csvfile import read_csv

BUNDLED = Path(__file__).with_name("anchors.json")
#: Table 1 model -> (Lucid model, dataset, per-worker batch, note).
PROFILES: dict[str, tuple[str, str, int, str]] = {
    "ResNet-18": ("ResNet18", "CIFAR-10", 64, ""),
    "MobileNetV2": ("MobileNetV2", "CIFAR-10", 64, ""),
    "EfficientNet": ("EfficientNet", "CIFAR-10", 64, ""),
    "MobileNetV3": ("MobileNetV3", "ImageNet", 64, ""),
    "ResNet-50": ("ResNet50", "ImageNet", 64, ""),
    "BERT": ("BERT", "SQuAD", 32, ""),
    "VGG-11": ("VGG", "CIFAR-10", 64, "proxy: Lucid VGG on CIFAR-10"),
    "VGG-16": ("VGG", "CIFAR-10", 128, "proxy: Lucid VGG on CIFAR-10 at batch 128"),
    "DeepSpeech2": ("LSTM", "Wikitext2", 64, "proxy: Lucid LSTM (recurrent)"),
    "ProxylessNAS": ("MobileNetV3", "ImageNet", 128, "proxy: Lucid MobileNetV3 at batch 128"),
    "OFA": ("MobileNetV3", "ImageNet", 32, "proxy: Lucid MobileNetV3 at batch 32"),
}
LLAMA = ("LLaMA", 0.08 * 512 / 8, "PAL raw_single.csv GPT2-XL DP24 on 8 GPUs, 0.08 it/s x 512 samples / 8 workers")
#: Table 1 model -> its name in each pair source (absent: the source never measured it).
PAIR_NAMES: dict[str, dict[str, str]] = {
    "lucid": {m: p[0] for m, p in PROFILES.items() if m not in ("ResNet-50", "BERT")},
    "pal": {"ResNet-50": "resnet50", "VGG-16": "vgg19", "BERT": "Bert-Base", "LLaMA": "GPT2-XL"},
    "gavel": {
        "ResNet-18": "ResNet-18 (batch size 64)",
        "ResNet-50": "ResNet-50 (batch size 64)",
        "BERT": "Transformer (batch size 64)",
        "DeepSpeech2": "LM (batch size 20)",
    },
}


def _rows(path: Path) -> list[dict[str, str]]:
    return [row for _, row in read_csv(path, (), "a Lucid or PAL measurement CSV")]


def _profile(rows: list[dict[str, str]], name: str) -> dict[str, Any]:
    model, dataset, batch, note = PROFILES[name]
    solo = {int(r["batchsize"]): r for r in rows if (r["model"], r["dataset"], r["amp"]) == (model, dataset, "0")}
    sizes = sorted(solo)
    other = [b for b in sizes if b > batch][:1] or [b for b in sizes if b < batch][-1:]
    speed, cost = float(solo[batch]["speed"]), 0.0
    if other:
        b2 = other[0]
        t1, t2 = batch / speed, b2 / float(solo[b2]["speed"])
        v = (b2 - batch) / (t2 - t1) if t2 != t1 else -1.0
        if v > 0 and t1 - batch / v > 0:
            speed, cost = v, t1 - batch / v
    source = f"lucid single_data.csv {model},{dataset},batch {batch},amp 0" + (f" ({note})" if note else "")
    util = float(solo[batch]["gpu_util"])
    return {"name": name, "speed": speed, "fixed_cost": cost, "utilization": util, "source": source, "batch": batch}


def _pair_tables(traces: Path) -> dict[str, dict[tuple[str, str], list[float]]]:
    lucid: dict[tuple[str, str], list[float]] = {}
    for r in _rows(traces / "lucid" / "colocate_info.csv"):
        if r["amp1"] == "0" and r["amp2"] == "0":
            lucid.setdefault((r["model1"], r["model2"]), []).append(float(r["speed1"]))
            lucid.setdefault((r["model2"], r["model1"]), []).append(float(r["speed2"]))
    pal: dict[tuple[str, str], list[float]] = {}
    for r in _rows(traces / "pal" / "colocate_info" / "norm_speed.csv"):
        if r["model2"] != "Empty" and float(r["speed1"]) > 0 and float(r["speed2"]) > 0:
            pal.setdefault((r["model1"], r["model2"]), []).append(float(r["speed1"]))
            pal.setdefault((r["model2"], r["model1"]), []).append(float(r["speed2"]))
    gavel: dict[tuple[str, str], list[float]] = {}
    table = json.loads((traces / "gavel" / "simulation_throughputs.json").read_text())["v100"]
    names = set(PAIR_NAMES["gavel"].values())
    for a in names:
        entry = table[str((a, 1))]
        for b in names:
            pair = entry.get(str((b, 1)))
            if pair and pair[0] > 0:
                gavel[(a, b)] = [pair[0] / entry["null"]]
    return {"lucid": lucid, "pal": pal, "gavel": gavel}


def build(traces: Path) -> dict[str, Any]:
    """The anchor table (``models`` and ``pairs`` of an instance's ``throughput``) from ``traces``."""
    singles = _rows(traces / "lucid" / "single_data.csv")
    models = [_profile(singles, name) for name in PROFILES]
    llama = {"name": LLAMA[0], "speed": LLAMA[1], "fixed_cost": 0.0, "utilization": 100.0, "source": LLAMA[2]}
    models.append({**llama, "batch": 16})
    tables = _pair_tables(traces)
    measured: dict[tuple[str, str], tuple[float, str]] = {}
    names = [m["name"] for m in models]
    for m in names:
        for k in names:
            for src, table in tables.items():
                a, b = PAIR_NAMES[src].get(m), PAIR_NAMES[src].get(k)
                if a is not None and b is not None and (a, b) in table:
                    values = table[(a, b)]
                    measured[(m, k)] = (statistics.fmean(values), f"{src}: {a} beside {b}, mean of {len(values)}")
                    break
    pairs = []
    for m in names:
        own = [v for (a, _), (v, _) in measured.items() if a == m]
        whose = f"{m}'s" if own else "all"
        own = own or [v for v, _ in measured.values()]
        for k in names:
            if (m, k) in measured:
                speed, source = measured[(m, k)]
            else:
                speed, source = statistics.fmean(own), f"fallback: mean of {whose} {len(own)} measured pair speeds"
            pairs.append({"model": m, "partner": k, "speed": round(speed, 6), "source": source})
    for m in models:
        m["speed"], m["fixed_cost"] = round(m["speed"], 6), round(m["fixed_cost"], 6)
    return {"models": models, "pairs": pairs}


def bundled() -> dict[str, Any]:
    """The anchor table shipped with packgap (``anchors.json``, written by :func:`build`)."""
    data: dict[str, Any] = json.loads(BUNDLED.read_text())
    return data
