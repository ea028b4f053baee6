"""Type hints of the extension module ``sit._sit`` (re-exported by ``sit``)."""

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "os.PathLike[str]"]
_Record = Union[None, str, Sequence[str]]
_Inputs = Mapping[str, Tuple[Sequence[float], Sequence[float]]]
_Progress = Callable[[int, int], Any]
_Array = npt.NDArray[np.float64]
_Data = Union[_Path, Mapping[str, Sequence[float]], Any]
_Params = Union[str, Sequence[str], Mapping[str, Union[None, float, Tuple[Optional[float], Optional[float]]]]]

class SitError(Exception):
    """A model that cannot be read or has errors, a value that cannot be set, a run or
    study that cannot be done. For a model with errors the message is the rendered
    diagnostics (as ``sitc check`` prints them) and ``diagnostics`` holds them."""

    diagnostics: List[Diagnostic]

class ModelFault(SitError):
    """A fault of the model during a run (a phase past its limit, a sub-step count out
    of its bounds, an adaptive method past its bound of internal steps or of events in
    one step), recognised by its type, not its message. The step was left half done:
    ``reset()`` before stepping the model again."""

    model: str
    time: float
    kind: str

class NonFiniteError(SitError):
    """A run met a value that is not finite (NaN or infinity), which stops it unless
    ``allow_non_finite=True``. The message names the rule that made it, its line, the
    time at the start of the step and the values the rule read, as ``sitc run`` does;
    ``result`` holds the rows before the step that made it."""

    var: str
    value: float
    time: float
    line: Optional[int]
    rule: Optional[str]
    result: RunResult

class NonFiniteWarning(UserWarning):
    """A run met a value that is not finite (NaN or infinity). The message names the
    first variable and the step that made it: once per ``Model.run``, once per row of
    ``sit.sweep`` (named by its parameter values). The values after it may be NaN or
    infinite."""

class TableRangeWarning(UserWarning):
    """A lookup table was read past its grid (``clamp``: it held its end values) or
    more than one grid span past it (``extrapolate``). The message names the table, how
    many reads were past it and the range of arguments seen against the grid, per
    argument: once per table per ``Model.run``, once per table per ``sit.sweep``."""

class StiffnessWarning(UserWarning):
    """The stiffness test of an adaptive explicit method (``dopri5``, ``tsit5``,
    ``dop853``; Hairer's test) found the model stiff: its steps were bounded by the
    method's stability, not by the tolerances. The message names the model, the method
    and the time from which: once per ``Model.run``."""

class AccuracyWarning(UserWarning):
    """The estimated error of a run by a fixed-step method (``euler``, ``rk4``) is past
    5% of a state's largest magnitude: Richardson's estimate from a copy of the run at
    2·dt, made only when step doubling at 64 sampled steps suspects it (as ``sitc run``
    does). The message names the state, the estimate and what makes it smaller
    (``method rk4;`` or ``method dopri5;`` in the model, a smaller ``dt``): once per
    ``Model.run``."""

class Diagnostic:
    """One error or warning, as ``sitc check --format json`` reports it."""

    severity: str
    code: str
    message: str
    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    label: str
    notes: List[str]
    help: Optional[str]
    text: str

class Variable:
    """One variable of a model: its dotted path, kind (``param``, ``input``, ``state``,
    ``pred``, ``situation``, ``event``, ``on``, ``mode``), type (``real`` or ``flag``),
    whether it is an output and settable, its doc comment, its unit (``"m/s"``, declared
    or inferred; ``None`` where not known), and for a mode its states' names (its value
    is the index of its state in ``states``)."""

    name: str
    kind: str
    type: str
    output: bool
    settable: bool
    doc: str
    unit: Optional[str]
    states: List[str]

class RunResult:
    """The values recorded by ``Model.run``: one float64 array per column."""

    @property
    def columns(self) -> List[str]:
        """``"t"``, then the recorded variables (the header of ``sitc run``)."""
    @property
    def t(self) -> _Array:
        """The model time of each row."""
    @property
    def events(self) -> Optional[List[Tuple[float, str, str, str, str]]]:
        """The event log of a run with ``events=True`` (else ``None``): one tuple
        ``(t, name, from, to, rule)`` per change of a logical variable and per reset of
        a submodel, in order, as the rows of ``sitc run --events`` (``rule`` is the
        ``file:line`` of the rule that made the change, or empty)."""
    def __getitem__(self, name: str) -> _Array: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...
    def to_numpy(self) -> _Array:
        """One 2-D array, (rows, columns)."""
    def to_dict(self) -> Dict[str, _Array]: ...
    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` (pandas must be installed)."""

class SweepResult:
    """The rows of ``sit.sweep``, in the order of the grid, with the columns of
    ``sitc sweep``."""

    @property
    def columns(self) -> List[str]: ...
    def __getitem__(self, name: str) -> _Array: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...
    def to_numpy(self) -> _Array:
        """One 2-D array, (rows, columns)."""
    def to_dict(self) -> Dict[str, _Array]: ...
    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` (pandas must be installed)."""

class Model:
    """A model loaded from a ``.sit`` file, run by the built-in interpreter."""

    @property
    def name(self) -> str: ...
    @property
    def variables(self) -> List[Variable]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    @property
    def time(self) -> float: ...
    def __getitem__(self, name: str) -> float:
        """The value of a variable by dotted path (``KeyError`` if there is none)."""
    def __setitem__(self, name: str, value: float) -> None:
        """Sets a param, input, state or ``NAME.on`` (``SitError`` if it cannot be set,
        ``ValueError`` for NaN or an infinity)."""
    def __contains__(self, name: str) -> bool: ...
    def reset(self) -> None:
        """Back to t = 0: states to their initial values, params and inputs kept."""
    def step(self, dt: float) -> None:
        """One step of ``dt`` > 0."""
    def copy(self) -> Model: ...
    def run(
        self,
        dt: float,
        t_end: float,
        record: _Record = None,
        every: int = 1,
        set: Optional[Mapping[str, float]] = None,
        inputs: Optional[_Inputs] = None,
        progress: Optional[_Progress] = None,
        events: bool = False,
        allow_non_finite: bool = False,
        sensitivities: Union[None, str, Sequence[str]] = None,
    ) -> RunResult:
        """Simulates a copy of the model, exactly as ``sitc run``: the values of ``set``
        (params and inputs, then a reset, then states), ``t_end / dt`` steps of ``dt``,
        a row at t = 0, after every ``every`` steps and after the last (``t_end``). ``record``: ``None`` (the
        model's outputs), ``"all"``, names or globs (``"pi.*"``). ``inputs`` drives real
        inputs from time series ``{name: (times, values)}`` (linear between points, held
        beyond the ends). ``progress(done_steps, total_steps)`` is called now and then.
        ``events=True`` also records the event log (``RunResult.events``, the rows of
        ``sitc run --events``; the values are the same, bit for bit). A value that is
        not finite stops the run with ``NonFiniteError`` (the rule that made it, the rows
        before it); ``allow_non_finite=True`` runs on past it with a
        ``NonFiniteWarning``. The GIL is released while it runs.

        ``sensitivities``: params (or states, for their initial values), a list or a
        comma-separated string, whose forward sensitivities are integrated with the
        model (docs/sensitivities.md): a column ``d(x)/d(k)`` (``d(x)/d(v(0))`` for an
        initial value) right after each recorded real state ``x`` that depends on it,
        as ``sitc run --sensitivities``, bit for bit. ``KeyError`` for a name that is
        not a param or a real state."""
    def fit(
        self,
        data: _Data,
        params: _Params,
        dt: float,
        log: Optional[Sequence[str]] = None,
        sigma: Optional[Mapping[str, float]] = None,
        set: Optional[Mapping[str, float]] = None,
        max_iter: int = 100,
        progress: Optional[Callable[[int, float], Any]] = None,
    ) -> FitResult:
        """Fits ``params`` of a copy of the model to ``data`` by Levenberg–Marquardt on
        the exact forward sensitivities, as ``sitc fit`` does (the same report, bit for
        bit). ``data``: a CSV file's path (``sitc fit --data``) or a mapping of column
        names to arrays (a dict, a pandas ``DataFrame``) with the times under ``"t"``
        and the other columns named as the model's variables (NaN: not measured then).
        ``params``: names (a list or a comma-separated string, each from the model's
        value, unbounded), or a dict of name to ``None``, a start value or a pair
        ``(lo, hi)`` of bounds (``None`` for no bound). ``log``: params fitted in log
        space (positive; for rate constants of unknown scale). ``sigma``: per data
        column the σ its residuals are divided by (default 1). ``set``: values set
        before each run (params and inputs). ``progress(iteration, sum_sq)`` is called
        after every accepted step. The model is stepped by ``dt`` and read at the
        data's times (linear between its steps). ``ValueError`` for bad data or
        bounds, ``KeyError`` for an unknown name, ``SitError`` for a run that failed."""
    def residuals(
        self,
        data: _Data,
        params: _Params,
        dt: float,
        log: Optional[Sequence[str]] = None,
        sigma: Optional[Mapping[str, float]] = None,
        set: Optional[Mapping[str, float]] = None,
    ) -> Residuals:
        """The weighted residuals of the model against ``data`` and their exact
        Jacobian, for another minimiser: ``least_squares(r, r.x0, jac=r.jac,
        bounds=r.bounds)``. The arguments are those of ``fit``."""

class FitResult:
    """What ``Model.fit`` found."""
    names: List[str]
    """The fitted params, in order."""
    values: Dict[str, float]
    """Their values at the fit."""
    std_errors: Dict[str, float]
    """Their standard errors, ``s²·(JᵀJ)⁻¹`` from the Jacobian at the fit (``s²`` the
    residual variance), carried from log space for those fitted there."""
    start: Dict[str, float]
    """Their starting values."""
    correlation: _Array
    """Their correlations, a square array in the order of ``names``."""
    sum_sq: float
    """The weighted sum of squared residuals."""
    points: int
    """The measured values used."""
    runs: int
    """The runs of the model made (each with its sensitivities)."""
    iterations: int
    """The iterations."""
    converged: bool
    """Whether it converged (else it stopped at ``max_iter``)."""
    t: _Array
    """The data's times."""
    fitted: Dict[str, _Array]
    """Per data column, the model's values at the data's times at the fit."""
    text: str
    """The report as ``sitc fit`` prints it (also ``str(result)``)."""

class Residuals:
    """The weighted residuals ``(model − data)/σ`` of ``Model.residuals`` as a function
    of the coordinates ``q`` (each param's value, or its logarithm for one fitted in log
    space). The residual and the Jacobian at the same point cost one run."""
    def __call__(self, q: Sequence[float]) -> _Array:
        """One residual per measured value (column by column, row by row)."""
    def jac(self, q: Sequence[float]) -> _Array:
        """Their exact Jacobian: one row per residual, one column per param."""
    @property
    def x0(self) -> _Array:
        """The starting coordinates."""
    @property
    def bounds(self) -> Tuple[_Array, _Array]:
        """``(lo, hi)`` of the coordinates."""
    @property
    def names(self) -> List[str]:
        """The params, the order of the coordinates."""
    def values(self, q: Sequence[float]) -> List[float]:
        """The params' values at ``q``."""
    @property
    def runs(self) -> int:
        """The runs of the model made so far."""

class Study:
    """A checked parameter study (see ``sit.sweep``)."""

    def __init__(
        self,
        path: _Path,
        params: Mapping[str, Sequence[float]],
        dt: float,
        t_end: float,
        record: _Record = None,
        summary: Union[None, str, Sequence[str]] = None,
        set: Optional[Mapping[str, float]] = None,
        inputs: Optional[_Inputs] = None,
        model: Optional[str] = None,
        compiled: bool = False,
        gpu: bool = False,
        precision: Optional[str] = None,
        allow_non_finite: bool = False,
    ) -> None: ...
    @property
    def columns(self) -> List[str]: ...
    def __len__(self) -> int: ...
    def spec(self) -> Dict[str, Any]:
        """The study as plain, picklable values (the model's files included)."""
    def run(self, progress: Optional[_Progress] = None) -> _Array:
        """Every row, on the local cores."""
    def run_range(self, start: int, stop: int) -> _Array:
        """The rows of sets ``start..stop``."""
    def result(self, rows: _Array) -> SweepResult: ...
    def faults(self) -> List[Tuple[int, str, bool]]:
        """The reports of the rows run here that met a non-finite value or reached 1e100
        (row, message, whether a blow-up past 1e100)."""
    def raise_non_finite(
        self, result: SweepResult, faults: Optional[List[Tuple[int, str, bool]]] = None
    ) -> None:
        """Raises ``NonFiniteError`` for the rows that met a non-finite value or reached
        1e100."""

def check(path: _Path) -> List[Diagnostic]:
    """Every error and warning of the file and its imports (``SitError`` if it cannot
    be read)."""

def load(path: _Path, model: Optional[str] = None) -> Model:
    """Loads a model (``SitError`` with the rendered diagnostics if it has errors)."""

def _run_chunk(
    spec: Dict[str, Any], start: int, stop: int
) -> Tuple[_Array, List[Tuple[int, str, bool]]]: ...
