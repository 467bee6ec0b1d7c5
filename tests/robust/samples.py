"""Small valid inputs the robustness tests break in one place each (written by the tests,
never copied from the trace folder)."""

from __future__ import annotations

SPEC = """time_limit = 20
seed = 5

[[generate]]
generator = "planning"
sizes = [3]
seeds = [0]
options = { gpu_types = "A800:1,RTX4090:2" }
methods = ["mchp", "edf"]

[params.mchp]
deadline_weight = 2.0
"""

MURI_HEADER = (
    "job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,"
    "iteration_time,resource_time_0,resource_time_1,resource_time_2,priority"
)
MURI = f"{MURI_HEADER}\n0,1,5000,1000,dqn,128,0,0,490,8,8,0,1\n1,2,6000,1000,a2c,64,0,0,490,8,8,1,1\n"
PHILLY = "timestamp,duration,num_gpus\n2017-10-02 09:00:00,100,1\n2017-10-02 09:10:00,200,2\n"
