"""Sit models from Python: check, load, run and sweep ``.sit`` models.

The interpreter of Sit is built into the package (``sit._sit``), so no Rust toolchain is
needed at run time. Results are bit-identical to ``sitc run`` and ``sitc sweep``.

>>> import sit
>>> m = sit.load("examples/models/van_der_pol.sit")        # doctest: +SKIP
>>> r = m.run(dt=0.01, t_end=20, record=["x0", "x1"])      # doctest: +SKIP
>>> r["x0"][-1]                                            # doctest: +SKIP

Errors: ``sit.SitError`` for a model that cannot be read or has errors (the message is
the rendered diagnostics, ``.diagnostics`` the objects), a value that cannot be set or a
study that cannot run; ``sit.ModelFault`` (a ``SitError``) for a fault of the model
during a run (a phase past its limit, a sub-step count out of bounds, an adaptive method
past its bounds), with ``model``, ``time`` and ``kind``; ``sit.NonFiniteError`` (a
``SitError``) for a run that met a NaN or an infinity, naming the rule that made it (the
default; ``Model.run(..., allow_non_finite=True)`` runs on with a warning); ``KeyError``
for an unknown variable name; ``ValueError`` for a
value out of range (NaN, ``dt <= 0``, a bad time series); ``TypeError`` for a wrong
type.

Warnings: ``sit.NonFiniteWarning`` when a run with ``allow_non_finite=True`` met a NaN
or an infinity (the first variable and step, once per run; per row of a sweep, where
such rows are warnings), ``sit.TableRangeWarning`` when a
lookup table was read past its grid (once per table, with the count and the range of
arguments seen), ``sit.StiffnessWarning`` when an adaptive explicit method found the model
stiff (once per run), ``sit.AccuracyWarning`` when the estimated error of a fixed-step run
(``euler``, ``rk4``) is past 5% of a state's magnitude (once per run); all are ``UserWarning``, issued through ``warnings.warn``, so
``warnings.simplefilter("error", sit.NonFiniteWarning)`` turns one into an exception.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

from ._sit import (
    AccuracyWarning,
    Diagnostic,
    FitResult,
    Model,
    ModelFault,
    NonFiniteError,
    NonFiniteWarning,
    Residuals,
    RunResult,
    SitError,
    StiffnessWarning,
    Study,
    SweepResult,
    TableRangeWarning,
    Variable,
    _run_chunk,
    check,
    load,
)

__all__ = [
    "AccuracyWarning",
    "Diagnostic",
    "FitResult",
    "Model",
    "ModelFault",
    "NonFiniteError",
    "NonFiniteWarning",
    "Residuals",
    "RunResult",
    "SitError",
    "StiffnessWarning",
    "Study",
    "SweepResult",
    "TableRangeWarning",
    "Variable",
    "check",
    "fit",
    "load",
    "sweep",
]

Progress = Callable[[int, int], Any]


def fit(
    model: Union[Model, str, "os.PathLike[str]"],
    data: Any,
    params: Any,
    dt: float,
    log: Optional[Sequence[str]] = None,
    sigma: Optional[Mapping[str, float]] = None,
    set: Optional[Mapping[str, float]] = None,
    max_iter: int = 100,
    progress: Optional[Callable[[int, float], Any]] = None,
    name: Optional[str] = None,
) -> FitResult:
    """Fits ``params`` of ``model`` (a ``Model``, or the path of a ``.sit`` file whose
    model ``name``, else its root, is loaded) to measured ``data``, as ``sitc fit``
    does: ``Model.fit`` with the same arguments (see it for each)."""
    if not isinstance(model, Model):
        model = load(model, name)
    return model.fit(
        data,
        params,
        dt,
        log=log,
        sigma=sigma,
        set=set,
        max_iter=max_iter,
        progress=progress,
    )


def sweep(
    path: Union[str, "os.PathLike[str]"],
    params: Mapping[str, Sequence[float]],
    dt: float,
    t_end: float,
    record: Union[None, str, Sequence[str]] = None,
    summary: Union[str, Sequence[str]] = ("final",),
    set: Optional[Mapping[str, float]] = None,
    inputs: Optional[Mapping[str, Tuple[Sequence[float], Sequence[float]]]] = None,
    model: Optional[str] = None,
    client: Any = None,
    chunk_size: Optional[int] = None,
    progress: Optional[Progress] = None,
    compiled: bool = False,
    gpu: bool = False,
    precision: str = "f64",
    allow_non_finite: bool = False,
) -> SweepResult:
    """Runs the model in ``path`` once for every combination of the values of
    ``params`` (the first name varying slowest) and returns one row per combination,
    as ``sitc sweep`` does, bit for bit.

    ``summary`` says what to collect of each recorded variable: ``"final"``, ``"max"``,
    ``"min"``, ``"first-crossing=T"`` (the time at which the variable first reaches T:
    the first row at or above T after a row below it, or at or below after a row above,
    the time linear between those two rows; NaN if never), ``"first-crossing(NAME)=T"``
    (the same of the recorded variable NAME only). ``set`` gives values set in every run, ``inputs``
    drives inputs from time series ``{name: (times, values)}``.

    With ``client=None`` the runs use every local core. With a
    ``dask.distributed.Client`` the grid is split into chunks of ``chunk_size`` sets
    (default: about four chunks per worker), each chunk is run by a worker (which loads
    the model once per chunk, from the files' text shipped with the task, so workers
    need no shared file system), and the rows come back in the order of the grid,
    identical to the local result. A chunk lost with its worker is run again by Dask.

    With ``compiled=True`` the sets run on the model's generated code (its batch form,
    blocks of lanes on every core) instead of the interpreter: the same rows, bit for
    bit, many times faster. The code is built with cargo the first time (a line on
    stderr says so) into a cache (``$SIT_CACHE_DIR/sweep``, else ``~/.cache/sit/sweep``)
    and reused afterwards, also where Rust is not installed. Inputs driven by
    ``inputs`` are driven by the interpreter's rule in the generated code; a compiled
    sweep counts the reads of tables past their grids as the interpreter does (the
    same ``TableRangeWarning``), reports the runs found stiff (``StiffnessWarning``)
    and a variable that is not finite at the end of a run, not the step that made it.

    With ``gpu=True`` the sets run on an NVIDIA GPU, one thread per set, the model's
    step compiled at run time by NVRTC into a CUDA kernel (docs/gpu.md): the same rows,
    bit for bit, except through sin, exp, pow and the other functions of the math
    library (a few ulps). It needs the GPU's driver and NVRTC (``SitError`` without);
    ``inputs`` are driven on the GPU by the interpreter's rule; table reads past their
    grids are not counted there.
    With a ``client`` each chunk runs on its worker's GPU. ``precision="f32"`` (with
    ``gpu=True`` only) runs the kernel in single precision: every value, literal and
    function of the math library in ``float``, the rows converted to float64 at the
    end; faster on the GPU, no longer the interpreter's bits (docs/gpu.md gives the
    bound).

    A row that meets a value that is not finite (NaN or infinity) is an error, as in
    ``sitc sweep``: every row runs (the others go on), then ``NonFiniteError`` is
    raised naming each such row by its axis values with the rule that made the value
    (the first 20, then a count), with the attributes ``rows`` (their indices, from 0)
    and ``result`` (the whole ``SweepResult``). With ``allow_non_finite=True`` (or
    ``#[allow(non_finite, reason = "…")]`` in the model) such rows are the answer, each
    with a ``NonFiniteWarning``. (``compiled=True`` and ``gpu=True`` keep the warnings.)

    ``progress(done, total)`` is called as sets complete. Raises ``SitError``,
    ``KeyError`` or ``ValueError`` (see the module documentation) before running
    anything when the study is not valid.
    """
    if isinstance(summary, str):
        summary = [summary]
    study = Study(
        os.fspath(path),
        dict(params),
        dt,
        t_end,
        record=record,
        summary=list(summary),
        set=None if set is None else dict(set),
        inputs=None if inputs is None else dict(inputs),
        model=model,
        compiled=compiled,
        gpu=gpu,
        precision=precision,
        allow_non_finite=allow_non_finite,
    )
    if client is None:
        result = study.result(study.run(progress))
        study.raise_non_finite(result)
        return result
    return _on_cluster(study, client, chunk_size, progress)


def _chunk(spec: dict, start: int, stop: int) -> Any:
    """The task of a Dask worker: the rows of sets ``start..stop`` of the study ``spec``."""
    return _run_chunk(spec, start, stop)


def _on_cluster(
    study: Study, client: Any, chunk_size: Optional[int], progress: Optional[Progress]
) -> SweepResult:
    import numpy as np

    total = len(study)
    if chunk_size is None:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        chunk_size = max(1, math.ceil(total / (4 * workers)))
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {chunk_size}")
    bounds = [(s, min(s + chunk_size, total)) for s in range(0, total, chunk_size)]
    if not bounds:
        return study.result(np.empty((0, len(study.columns))))
    # A list of one: `scatter` would ship each item of a dict on its own. A key of its
    # own (`hash=False`): with the content's hash, an earlier identical study releasing
    # its copy could delete this one's.
    [spec] = client.scatter([study.spec()], broadcast=True, hash=False)
    futures = client.map(
        _chunk,
        [spec] * len(bounds),
        [a for a, _ in bounds],
        [b for _, b in bounds],
        pure=False,
    )
    try:
        if progress is not None:
            from distributed import as_completed

            size = {f.key: b - a for f, (a, b) in zip(futures, bounds)}
            done = 0
            for future in as_completed(futures):
                done += size[future.key]
                progress(done, total)
        parts = client.gather(futures)
    finally:
        for future in futures:
            future.release()
    result = study.result(np.concatenate([rows for rows, _ in parts]))
    study.raise_non_finite(result, [f for _, faults in parts for f in faults])
    return result
