"""Every numbered table and figure with results in the four papers, and what reproduces it
(issue 19.3): the coverage section of REPRODUCTION.md."""

from __future__ import annotations

ILLUSTRATION = "no result: an illustration or diagram"
SETUP = "no result: the set-up (configuration, models, notation)"
TESTBED = "not reproduced: a measurement on the authors' testbed hardware, whose data are not published"
NOT_YET = "not reproduced yet: the data exist in `../shared/traces/{}`"


def _by(*names: str) -> str:
    return "reproduced by " + ", ".join(f"`{n}`" for n in names)


#: paper -> (item, status): the reproduction(s) covering a numbered table or figure, or why
#: none does. Read from the papers in ``../shared/papers`` (issue 19.3).
COVERAGE: dict[str, tuple[tuple[str, str], ...]] = {
    "CUCKOO": (
        ("Fig. 1", TESTBED + " (per-GPU-type efficiency of each job)"),
        ("Fig. 2", ILLUSTRATION),
        ("Fig. 3", ILLUSTRATION),
        ("Table 1", NOT_YET.format("muri") + " (Muri vs no packing, deadline misses; testbed runs in the paper)"),
        ("Table 2", NOT_YET.format("muri") + " (Muri's duration-estimate error per GPU; testbed profiles)"),
        ("Fig. 4", ILLUSTRATION),
        ("Table 3", SETUP + ": the input of Table 4"),
        ("Table 4", _by("cuckoo-table4")),
        ("Fig. 5", ILLUSTRATION),
        ("Fig. 6", ILLUSTRATION + " (Table 4's timeline, drawn by `cuckoo-table4`)"),
        ("Table 5", SETUP + ": the input of Table 6"),
        ("Table 6", _by("cuckoo-table6")),
        ("Fig. 7", ILLUSTRATION),
        ("Table 7", SETUP + " (the cluster: used by `cuckoo-online`)"),
        ("Table 8", SETUP + " (the models: used by `cuckoo-online`)"),
        ("Fig. 8", SETUP + " (the Helios submission pattern: the generator of `cuckoo-online`)"),
        ("Table 9", _by("cuckoo-online")),
        ("Fig. 9", NOT_YET.format("helios") + " (queue length and overtime jobs over time of the online runs)"),
        ("Table 10", _by("cuckoo-online")),
        (
            "Fig. 10",
            TESTBED + " (AM's and Muri-P's throughput error against measured co-located runs; "
            "`../shared/traces/muri` holds stage times of jobs alone, not of pairs)",
        ),
        ("Table 11", TESTBED + " (predicted outcomes against measured co-located runs, as Fig. 10)"),
        ("Fig. 11", TESTBED + " (precision, recall and F1 of the predictions against measured runs, as Fig. 10)"),
        ("Table 12", _by("cuckoo-online", "cuckoo-direction")),
        ("Fig. 12", NOT_YET.format("helios") + " (DAB's weight w: a sweep of `cuckoo-online`)"),
        ("Table 13", _by("cuckoo-online", "planning-gaps")),
        ("Table 14", _by("cuckoo-online")),
    ),
    "GIMBAL": (
        ("Fig. 1", TESTBED + " (conservative packing on the authors' cluster)"),
        ("Fig. 2", TESTBED + " (JCT of packing pairs under resource restrictions)"),
        ("Figs. 3-7", ILLUSTRATION),
        ("Table 1", SETUP),
        ("Table 2", NOT_YET.format("philly") + " (trace statistics of the Philly and Alibaba samples)"),
        ("Table 3", SETUP + ": the job combinations of `gimbal-fig13` and `gimbal-fig15`"),
        (
            "Fig. 8",
            _by("gimbal-fig8") + " (Philly; the Alibaba and Slurm bars: not yet, data in "
            "`../shared/traces/alibaba-gpu-v2023-openb`)",
        ),
        ("Fig. 9", NOT_YET.format("philly") + " (queue time and JCT CDF of the `gimbal-fig8` runs)"),
        ("Fig. 10", NOT_YET.format("philly") + " (completed jobs per type and throughput of Gandiva's runs)"),
        ("Fig. 11", NOT_YET.format("philly") + " (cluster throughput of Gavel's runs)"),
        ("Fig. 12", _by("gimbal-fig12")),
        ("Fig. 13", _by("gimbal-fig13")),
        ("Fig. 14", TESTBED + " (seconds of one LISS and LGRR iteration; `gimbal-fig13` uses a cost model of them)"),
        ("Fig. 15", _by("gimbal-fig15")),
    ),
    "PAL": (
        ("Figs. 1-2, 4", ILLUSTRATION),
        ("Fig. 3", TESTBED + " (application classes from DRAM and SM utilisation profiles)"),
        ("Fig. 5", TESTBED + " (clustering of one application's variability profile)"),
        (
            "Figs. 6-8",
            TESTBED + " (variability of Frontera and Longhorn GPUs; the profiles are inputs in `../shared/traces/pal`)",
        ),
        ("Tables I-III", SETUP),
        (
            "Fig. 9",
            TESTBED + " (physical-cluster JCT CDF; the simulation half: not yet, data in `../shared/traces/pal`)",
        ),
        ("Fig. 10", TESTBED + " (physical-cluster boxplots; the simulation half as Fig. 9)"),
        ("Table IV", TESTBED + " (physical cluster; the simulation column as Fig. 9)"),
        ("Fig. 11", _by("pal-fig11")),
        ("Fig. 12", _by("pal-fig12")),
        ("Fig. 13", _by("pal-fig13")),
        ("Fig. 14", NOT_YET.format("synergy") + " (FIFO, varying job load)"),
        ("Fig. 15", NOT_YET.format("synergy") + " (GPUs in use; the abstract's utilisation claim)"),
        ("Fig. 16", NOT_YET.format("synergy") + " (LAS, varying job load)"),
        ("Fig. 17", NOT_YET.format("synergy") + " (SRTF, varying job load)"),
        (
            "Fig. 18",
            _by("pal-fig18", "pal-summit")
            + " (timings: measured, in the run part; `pal-summit`: a whole Summit-sized trace, sampled rounds"
            + " certified)",
        ),
        ("Fig. 19", NOT_YET.format("synergy") + " (wait times under LAS, SRTF and FIFO)"),
    ),
    "SJF-BSBF": (
        ("Table I", SETUP),
        ("Fig. 1", ILLUSTRATION),
        ("Fig. 2", TESTBED + " (throughput of each model on the 4-server cluster)"),
        ("Fig. 3", TESTBED + " (throughput of co-located pairs: the interference ratios xi)"),
        ("Fig. 4", NOT_YET.format("pollux") + " (JCT CDF and queuing per model of the `sjf-bsbf-table2` runs)"),
        ("Table II", _by("sjf-bsbf-table2")),
        ("Table III", _by("sjf-bsbf-table3", "sjf-bsbf-pollux-load", "sjf-bsbf-crossover")),
        ("Table IV", _by("sjf-bsbf-table4", "sjf-bsbf-pollux-load")),
        ("Fig. 5", NOT_YET.format("pollux") + " (JCT CDF and queuing per model of the `sjf-bsbf-table3` runs)"),
        ("Fig. 6a", _by("sjf-bsbf-fig6a", "sjf-bsbf-pollux-load")),
        ("Fig. 6b", _by("sjf-bsbf-fig6b")),
    ),
}


def coverage_markdown() -> list[str]:
    lines = [
        "## Coverage",
        "",
        "Every numbered table and figure with results in the four papers: the reproduction that covers it, "
        "or why none does.",
        "",
        "| paper | item | reproduced by, or why not |",
        "|---|---|---|",
    ]
    for paper, items in COVERAGE.items():
        lines += [f"| {paper} | {item} | {status} |" for item, status in items]
    return lines
