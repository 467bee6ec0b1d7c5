"""Small hand-made sharing instances for the tests."""

from __future__ import annotations

from collections.abc import Sequence

from packgap.sharing import Cluster, Interference, Job, ModelProfile, SharingInstance


def solo_model(name: str, seconds_per_iter: float = 1.0, mem_base: float = 1.0, mem_per: float = 0.1) -> ModelProfile:
    """A model whose one-GPU iteration takes ``seconds_per_iter`` at any batch (no comm)."""
    return ModelProfile(name, seconds_per_iter, 0.0, 0.0, 0.0, 0.0, 1.0, mem_base, mem_per)


def tiny(
    jobs: Sequence[tuple[float, int, int]],
    *,
    xi: float = 1.5,
    gpus: int = 2,
    memory: float = 10.0,
    models: int = 1,
    pairs: dict[tuple[str, str], float] | None = None,
) -> SharingInstance:
    """Jobs ``(arrival, gpus, iterations)`` of 1 s iterations on one node of ``gpus`` GPUs."""
    profiles = {f"m{k}": solo_model(f"m{k}") for k in range(models)}
    return SharingInstance(
        "tiny",
        Cluster(1, gpus, memory),
        profiles,
        Interference(xi, pairs or {}),
        tuple(Job(f"j{i}", a, g, n, 4, f"m{i % models}") for i, (a, g, n) in enumerate(jobs)),
    )


def paired_models(jobs: Sequence[tuple[float, int, int]], xi: float, models: int) -> SharingInstance:
    """:func:`tiny` on 2 GPUs with ``models`` models and their own ordered-pair xi in [1, xi]
    (the sharing balance rows of the rate LP matter)."""
    pairs = {(f"m{a}", f"m{b}"): 1.0 + ((a + 2 * b) % 3) * (xi - 1) / 2 for a in range(models) for b in range(models)}
    return tiny(sorted(jobs), xi=xi, gpus=2, models=models, pairs=pairs)
