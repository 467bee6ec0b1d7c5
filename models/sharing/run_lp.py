"""Run intervals: the rate LP (:mod:`packgap.models.sharing.rate_lp`) made a bound for the
non-preemptive class only, the class of FIFO, SJF, SJF-FFS and SJF-BSBF (issue 35).

A non-preemptive schedule (SJF-BSBF section IV, eq. 10) starts each job j once, at S_j >= a_j,
and runs it on the same G_j GPUs, alone or beside partners, until it completes at C_j: it
makes progress at every instant of [S_j, C_j) (its rate 1 / (t_iter x xi) is positive, eqs.
5-7), so its running time in slot t (the rate LP's time alone plus time beside a partner)
is exactly the overlap of [S_j, C_j) with the slot. Each job gets one column x_j(s, e) per
pair of slots s <= e, for "S_j lies in slot s, C_j in slot e", with e = T (the overflow
[H, inf)) for C_j >= H and s = e = T for S_j >= H, and

* once: sum over (s, e) of x_j(s, e) = 1;
* held: running time in slot t >= sum of D x_j(s, e) over s < t < e (t < T): the run covers
  every slot strictly between its start and end slots whole;
* within: running time in slot t <= sum of |slot t after a_j| x_j(s, e) over s <= t <= e:
  it runs nowhere outside them;
* ends: C_j >= sum of x_j(s, e) max(start of slot e, max(start of slot s, a_j) + P_j) (H
  for e = T): the run ends inside slot e and lasts at least the least solo time P_j;
* late: the work after H (the rate LP's ``late``) <= P_j x sum over s of x_j(s, T): a run
  that completes before H does none there.

Proof of validity: map a non-preemptive schedule to the rate LP's point (every schedule
maps there, rate_lp's docstring) and set x_j(s, e) = 1 at the slots of its S_j and C_j.
Slot t strictly between s and e lies inside [S_j, C_j) (S_j < end of slot s <= start of t,
C_j >= start of e >= end of t), so the job runs all of it: held holds. Outside [s, e] the run
does not overlap the slot and inside it overlaps at most the slot's part after a_j: within
holds. C_j >= start of slot e, C_j >= S_j + P_j (its pace is at most solo, xi >= 1) and S_j >=
max(start of slot s, a_j): ends holds, and late holds since a job done by H does no work
after H. So every non-preemptive schedule is a feasible point and the LP optimum, or any
value :func:`packgap.models.sharing.rate_lp.dual_bound` certifies from any prices, is a lower
bound on its sum of completion times. Preemptive schedules (Tiresias) need not map: a job
stopped in the middle of its interval breaks held, so the bound is the class's only.

With the run intervals the LP also gets, per slot t and model m, the *same-model* rows that
the rate LP leaves out (its balance rows pair different models only, so a job could share
with a model-m partner that is not there): S_mt - sum over model-m jobs k of g_kmt = 0 and, per
model-m job j, 2 g_jmt - S_mt <= 0, where g_jmt is the GPU-seconds j shares with model-m jobs
in slot t. Valid for every schedule with C = 2: each such GPU-second of j has one partner k != j
of model m on that GPU, who counts it too, so g_jmt <= sum over k != j of g_kmt.

The rate LP credits a job's time beside partners to one model and pairs models only in
GPU-seconds, so a gang job could share four GPUs for a quarter of the time at its slow pace
while its partner shares all the time. The run LP also gets, per job j, partner model m and
slot t, the time tau_jmt during which j has a model-m partner (any one, not only the slowest):
tau_jmt <= j's running time; tau_jmt >= (GPU-seconds j shares with m) / G_j; j's work W_jt <=
running time - (1 - e_jm) tau_jmt (its pace is at most e_jm of solo while a model-m partner is
there, rate_lp's e_jm); and tau_jmt <= sum over model-m jobs k != j of tau_k,a,t (a: j's
model; written through one variable per (m, a, t) summing them): at every instant with a
model-m partner k, k has a model-a partner. Each holds for every schedule at every instant.

Pairs (s, e) whose longest run, end of slot e less max(start of slot s, a_j), is shorter than
P_j (less a relative 1e-9, so a rounded sum never drops a run that fits) admit no run and
are left out, and so are those whose shortest run, start of slot e less end of slot s, is
longer than the slowest run the job can have (plus a relative 1e-9): its I_j iterations at
sub-batch 1 beside the partner of the largest xi (eq. 7's iteration time grows with the
step count s: from s to s + 1 it changes by comp_alpha + beta B / (s (s + 1)) less the drop of
(t_comp^delta + t_comm^delta)^(1 / delta), at most that of t_comp, beta B / (s (s + 1))).
The start of slot s plus P_j is stepped down by a relative 1e-12 before it
enters ``ends`` (every rounding enlarges the feasible set).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from packgap.models.sharing.rate_lp import _Columns, _Rows

#: Relative slack of the length test and of the run's least end (rounding relaxes).
LENGTH_SLACK = 1e-9
END_SLACK = 1e-12


@dataclass(frozen=True)
class Window:
    """Job j's slots: arrival a_j, least solo time P_j, horizon H, slot length D, the slots
    after a_j (in order, the last one T - 1) and each one's part after a_j."""

    arrival: float
    solo: float
    horizon: float
    length: float
    slots: list[int]
    parts: list[float]
    #: The longest a run of the job can last (its slowest pace, all the way).
    slowest: float

    def start(self, k: int) -> float:
        """The earliest start of a run whose S_j lies in the k-th slot (k = len: the overflow)."""
        if k == len(self.slots):
            return max(self.horizon, self.arrival)
        return max(self.slots[k] * self.length, self.arrival)

    def end_slot_start(self, k: int) -> float:
        return self.horizon if k == len(self.slots) else self.slots[k] * self.length

    def fits(self, s: int, e: int) -> bool:
        """Whether a run of at least P_j and at most the slowest run can start in the s-th slot
        and end in the e-th."""
        count = len(self.slots)
        if s < count:
            shortest = self.end_slot_start(e) - (self.slots[s] + 1) * self.length
            if shortest > self.slowest * (1 + LENGTH_SLACK):
                return False
        if e == count:
            return True
        longest = (self.slots[e] + 1) * self.length - self.start(s)
        return longest >= self.solo * (1 - LENGTH_SLACK) - LENGTH_SLACK


def holding_rows(rows: _Rows, j: int, t: int) -> list[tuple[int, float]]:
    """The held (>= 0) and within (<= 0) rows of job j in slot t and its span row, for its
    running-time columns."""
    held, within = rows(("held", j, t), lower=0.0), rows(("within", j, t), upper=0.0)
    return [(held, 1.0), (within, 1.0), (rows(("span", j), lower=0.0), -1.0)]


def meeting_rows(rows: _Rows, j: int, model: str, partners: list[str], t: int) -> dict[str, tuple[int, int, int, int]]:
    """Per partner model m of job j in slot t: its rows "time beside m <= running time", "work
    <= running time - (1 - e_jm) time beside m", "time beside m >= GPU-seconds shared with m /
    G_j" and "time beside m <= what model-m jobs spend beside j's model" (module docstring)."""
    return {
        m: (
            rows(("beside run", j, m, t), upper=0.0),
            rows(("beside pace", j, m, t), upper=0.0),
            rows(("beside least", j, m, t), upper=0.0),
            rows(("meet", j, m, t), upper=0.0),
        )
        for m in partners
    }


def run_columns(rows: _Rows, col: _Columns, j: int, window: Window, late: int) -> list[tuple[int, float]]:
    """Job j's run columns x_j(s, e) (module docstring); ``late`` is its work-after-H column.
    Returns C_j's entries in the ends and span rows."""
    once = rows(("once", j), 1.0, 1.0)
    ends, span = rows(("ends", j), lower=0.0), rows(("span", j), lower=0.0)
    after = rows(("late run", j), upper=0.0)
    col.enter(late, [(after, 1.0), (span, -1.0)])
    held = [rows(("held", j, t), lower=0.0) for t in window.slots]
    within = [rows(("within", j, t), upper=0.0) for t in window.slots]
    count = len(window.slots)
    for s in range(count + 1):
        for e in range(s, count + 1):
            if not window.fits(s, e):
                continue
            least_end = (window.start(s) + window.solo) * (1 - END_SLACK)
            entries = [(once, 1.0), (ends, -max(window.end_slot_start(e), least_end)), (span, -window.start(s))]
            entries += [(held[k], -window.parts[k]) for k in range(s + 1, min(e, count))]
            entries += [(within[k], -window.parts[k]) for k in range(s, min(e + 1, count))]
            if e == count:
                entries.append((after, -window.solo))
            col(0.0, 1.0, entries)
    return [(ends, 1.0), (span, 1.0)]
