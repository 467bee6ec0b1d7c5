"""The anchor table: rebuilt from trace files of the official formats, equal to the bundled one."""

from __future__ import annotations

import json

import pytest

from packgap.errors import PackgapError
from packgap.instances.calibration.anchors import PROFILES, build, bundled
from packgap.instances.traces import traces_dir


def _tiny_traces(root):
    (root / "lucid").mkdir(parents=True)
    (root / "pal" / "colocate_info").mkdir(parents=True)
    (root / "gavel").mkdir()
    singles = ["model,dataset,batchsize,amp,speed,gpu_util,gmem_util,gmem,label"]
    for lucid, dataset, batch in {v[:3] for v in PROFILES.values()}:
        singles.append(f"{lucid},{dataset},{batch},0,{10 * batch},50.0,1,1,0")
        singles.append(f"{lucid},{dataset},{2 * batch},0,{15 * batch},60.0,1,1,0")
    (root / "lucid" / "single_data.csv").write_text("\n".join(singles) + "\n")
    head = ",model1,dataset1,gpu_num1,batchsize1,amp1,speed1,model2,dataset2,gpu_num2,batchsize2,amp2,speed2,"
    head += "gpu_util,gmem_util,gmem"
    (root / "lucid" / "colocate_info.csv").write_text(f"{head}\n0,ResNet18,C,1,32,0,0.6,VGG,C,1,32,0,0.9,1,1,1\n")
    pal = "index,model1,dataset1,gpu_num1,batch_size1,speed1,co_pipeline_rank,pipeline_strategy,"
    pal += "model2,dataset2,gpu_num2,batch_size2,speed2"
    (root / "pal" / "colocate_info" / "norm_speed.csv").write_text(
        f"{pal}\n1,GPT2-XL,W,8,4,0.5,0,NA,resnet50,I,8,32,0.7\n"
    )
    names = [
        "ResNet-18 (batch size 64)",
        "ResNet-50 (batch size 64)",
        "Transformer (batch size 64)",
        "LM (batch size 20)",
    ]
    table = {str((a, 1)): {"null": 2.0, **{str((b, 1)): [1.0, 1.5] for b in names}} for a in names}
    (root / "gavel" / "simulation_throughputs.json").write_text(json.dumps({"v100": table}))


def test_build_on_tiny_files(tmp_path):
    _tiny_traces(tmp_path)
    table = build(tmp_path)
    pairs = {(p["model"], p["partner"]): p for p in table["pairs"]}
    assert len(pairs) == 12 * 12
    assert pairs[("ResNet-18", "VGG-11")]["speed"] == 0.6 and pairs[("VGG-11", "ResNet-18")]["speed"] == 0.9
    assert pairs[("LLaMA", "ResNet-50")]["speed"] == 0.5 and pairs[("ResNet-50", "LLaMA")]["speed"] == 0.7
    assert pairs[("ResNet-50", "BERT")]["source"].startswith("gavel")
    assert pairs[("MobileNetV2", "OFA")]["source"].startswith("fallback")
    rn18 = next(m for m in table["models"] if m["name"] == "ResNet-18")
    # t(b) = c + b / v through (64, 64 / 640) and (128, 128 / 960): v = 64 / (2/15 - 1/10) = 1920, c = 1/15.
    assert rn18["speed"] == pytest.approx(1920.0) and rn18["fixed_cost"] == pytest.approx(1 / 15, abs=1e-6)


@pytest.mark.traces
def test_bundled_table_is_the_traces_table():
    try:
        root = traces_dir(None)
    except PackgapError:
        pytest.skip("no trace folder")
    if not (root / "lucid" / "colocate_info.csv").is_file():
        pytest.skip("lucid traces absent")
    assert build(root) == bundled()
