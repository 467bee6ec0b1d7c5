"""Theorem 1 with release times: the least C_a + C_b of two jobs that share a GPU whenever
they overlap, a bound on any pair of conflicting jobs in a sharing schedule.

Section V-A's pair (one running job, one new job, Theorem 1) generalised: job a may start
at r_a or later and needs p_a seconds at its solo pace, job b likewise; while both run,
a runs at 1 / xi_a of its pace and b at 1 / xi_b (eqs. 5-6). Two jobs *conflict* when
G_a + G_b exceeds the GPU count: overlapping, they must hold a GPU together, and a gang job
runs at the pace of its slowest worker, so each is slowed at least by the other's ratio.
If their workers cannot share a GPU at all (memory, or C = 1), they cannot overlap.

The pair alone, at solo pace outside the overlap, is a relaxation of any schedule of the
two inside a larger one (other jobs only take GPUs and slow them down; with the same start
times a job with no fewer partners at every instant never finishes earlier), so its
optimum bounds C_a + C_b there. That optimum starts each job at its release or at the
other's finish: between such events the sum is linear in a start time, and where the order
of the finishes flips it has a maximum, not a minimum (Theorem 1's argument); a start
later than the release but before the other's finish is never better than the release
itself, where the job runs alone meanwhile and then has less left (the left shift of
:func:`packgap.models.sharing.branch_bound.left_shift_dominated`). That leaves three candidates:
a then b, b then a, both at their releases.
"""

from __future__ import annotations

from packgap.sharing.pair_time import concurrent_average


def together(start_a: float, start_b: float, p_a: float, p_b: float, xi_a: float, xi_b: float) -> float:
    """C_a + C_b when a starts at ``start_a``, b at ``start_b`` and both run to the end: the
    first alone until the second starts, then Theorem 1's t_con on what is left."""
    if start_b < start_a:
        return together(start_b, start_a, p_b, p_a, xi_b, xi_a)
    if start_a + p_a <= start_b:
        return start_a + p_a + start_b + p_b
    return 2 * start_b + 2 * concurrent_average(p_a - (start_b - start_a), p_b, xi_a, xi_b)


def pair_bound(
    release_a: float,
    release_b: float,
    p_a: float,
    p_b: float,
    xi_a: float,
    xi_b: float,
    *,
    share: bool,
    a_running: bool = False,
) -> float:
    """Least C_a + C_b of two conflicting jobs (module docstring). ``share`` False: they
    cannot overlap. ``a_running``: a already runs from ``release_a`` on, so it neither
    waits for b nor starts later."""
    best = release_a + p_a + max(release_b, release_a + p_a) + p_b
    if not a_running:
        best = min(best, release_b + p_b + max(release_a, release_b + p_b) + p_a)
    if share:
        best = min(best, together(release_a, release_b, p_a, p_b, xi_a, xi_b))
    return best
