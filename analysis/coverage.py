"""Every numbered table and figure with results in the four papers, and what reproduces it
(issue 19.3): the coverage section of REPRODUCTION.md."""

from __future__ import annotations

ILLUSTRATION = "no result: an illustration or diagram"
SETUP = "no result: the set-up (configuration, models, notation)"
TESTBED = "not reproduced: a measurement on the authors' testbed hardware, whose data are not published"
#: What the simulated halves of PAL's testbed results run without.
TESTBED_SIM = (
    " (the testbed GPUs' own PM penalties of Fig. 8 and the per-model locality penalties are not "
    "published: GPUs sampled from the Frontera profiles, one L_across)"
)
#: What the Synergy figures run on instead of Synergy's own trace.
SYNERGY_JOBS = (
    " (on Synergy-like generated jobs: Synergy builds its trace from the raw Philly log, which "
    "`../shared/traces/synergy` lacks, PROVENANCE.md)"
)


def _by(*names: str) -> str:
    return "reproduced by " + ", ".join(f"`{n}`" for n in names)


#: paper -> (item, status): the reproduction(s) covering a numbered table or figure, or why
#: none does. Read from the papers in ``../shared/papers`` (issue 19.3).
COVERAGE: dict[str, tuple[tuple[str, str], ...]] = {
    "CUCKOO": (
        ("Fig. 1", TESTBED + " (per-GPU-type efficiency of each job)"),
        ("Fig. 2", ILLUSTRATION),
        ("Fig. 3", ILLUSTRATION),
        (
            "Table 1",
            _by("cuckoo-table1") + " (simulated on Muri's own 400-job testbed trace; the paper's trace is not public)",
        ),
        (
            "Table 2",
            TESTBED + " (Muri-P's error against measured iteration times of interleaved groups on A800, A10 and "
            "RTX 4090; `../shared/traces/muri` holds each job's stage times alone on Muri's V100 testbed only: "
            "resource_time_0..2 per job, 48 (model, batch, GPUs) keys in muri_job_type_profiles_DERIVED.csv, no "
            "co-located run and no other GPU type)",
        ),
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
        (
            "Fig. 9",
            _by("cuckoo-fig9") + " (the `cuckoo-online` systems on the generated Helios-like workload: the Helios "
            "trace itself is not in `../shared/traces/helios`)",
        ),
        ("Table 10", _by("cuckoo-online")),
        (
            "Fig. 10",
            TESTBED + " (AM's and Muri-P's throughput error against measured co-located runs; "
            "`../shared/traces/muri` holds stage times of jobs alone, not of pairs)",
        ),
        ("Table 11", TESTBED + " (predicted outcomes against measured co-located runs, as Fig. 10)"),
        ("Fig. 11", TESTBED + " (precision, recall and F1 of the predictions against measured runs, as Fig. 10)"),
        ("Table 12", _by("cuckoo-online", "cuckoo-direction")),
        ("Fig. 12", _by("cuckoo-fig12") + " (w from 0 to 1 on `cuckoo-online`'s generated workload)"),
        ("Table 13", _by("cuckoo-online", "planning-gaps") + " (MCHP's gpu_order=shortest-first option beside it)"),
        ("Table 14", _by("cuckoo-online")),
    ),
    "GIMBAL": (
        ("Fig. 1", TESTBED + " (conservative packing on the authors' cluster)"),
        ("Fig. 2", TESTBED + " (JCT of packing pairs under resource restrictions)"),
        ("Figs. 3-7", ILLUSTRATION),
        ("Table 1", SETUP),
        ("Table 2", _by("gimbal-table2")),
        (
            "Fig. 8",
            _by("gimbal-fig8") + " (Philly and Alibaba; the Slurm bars: not reproduced, they are runs of the Slurm "
            "scheduler, not data, the paper gives no Slurm configuration and packgap has no Slurm model)",
        ),
        ("Fig. 9", _by("gimbal-fig9") + " (Slurm's queuing time on Alibaba: not reproduced, as in Fig. 8)"),
        ("Fig. 10", _by("gimbal-fig10")),
        ("Fig. 11", _by("gimbal-fig11")),
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
        ("Fig. 9", TESTBED + " (physical-cluster JCT CDF); the simulation half " + _by("pal-table4") + TESTBED_SIM),
        ("Fig. 10", TESTBED + " (physical-cluster boxplots); the simulation half " + _by("pal-table4") + TESTBED_SIM),
        ("Table IV", TESTBED + " (cluster column); the simulation column " + _by("pal-table4") + TESTBED_SIM),
        ("Fig. 11", _by("pal-fig11")),
        ("Fig. 12", _by("pal-fig12")),
        ("Fig. 13", _by("pal-fig13")),
        ("Fig. 14", _by("pal-synergy") + SYNERGY_JOBS),
        ("Fig. 15", _by("pal-synergy") + " (with the abstract's utilisation claim)" + SYNERGY_JOBS),
        ("Fig. 16", _by("pal-synergy") + SYNERGY_JOBS),
        ("Fig. 17", _by("pal-synergy") + SYNERGY_JOBS),
        (
            "Fig. 18",
            _by("pal-fig18", "pal-summit")
            + " (timings: measured, in the run part; `pal-summit`: a whole Summit-sized trace, sampled rounds"
            + " certified)",
        ),
        ("Fig. 19", _by("pal-synergy") + SYNERGY_JOBS),
    ),
    "SJF-BSBF": (
        ("Table I", SETUP),
        ("Fig. 1", ILLUSTRATION),
        ("Fig. 2", TESTBED + " (throughput of each model on the 4-server cluster)"),
        ("Fig. 3", TESTBED + " (throughput of co-located pairs: the interference ratios xi)"),
        ("Fig. 4", _by("sjf-bsbf-fig4") + " (Table II's workload and policies, per job)"),
        ("Table II", _by("sjf-bsbf-table2")),
        ("Table III", _by("sjf-bsbf-table3", "sjf-bsbf-pollux-load", "sjf-bsbf-crossover")),
        ("Table IV", _by("sjf-bsbf-table4", "sjf-bsbf-pollux-load")),
        ("Fig. 5", _by("sjf-bsbf-fig5") + " (Table III's workload and policies, per job)"),
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
