"""Work fanned out over a Ray cluster (the optional extra ``tavla[cluster]``).

When one machine is not enough (a season of matches to analyse, a thousand positions to roll out),
each item becomes one Ray task: a whole match analysed, one position rolled out, or a chunk of
positions evaluated. A task is a pure
function of its input (the match text, the position and the seed), so the answer is the one a single
machine gives, whichever node runs it, and a task lost with its node is simply run again
(``max_retries``). Inputs travel as text (the match file, the position's JSON form), so workers need
only ``pip install tavla[cluster]``.

Local use starts a Ray instance on this machine (``address=None``); a real cluster::

    ray start --head --port=6379                      # on the head node
    ray start --address=HEAD:6379                     # on every worker node
    tavla analyze season/*.mat --cluster auto --json  # on the head node (or address="ray://HEAD:10001")

``connect`` is called for you by the functions below; call it yourself to pass Ray other settings.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

#: Times a task is run again when its worker dies.
RETRIES = 3


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError('the cluster backend needs Ray: pip install "tavla[cluster]"') from None
    return ray


def connect(address: Optional[str] = None, num_cpus: Optional[int] = None) -> Any:
    """Joins the Ray cluster at ``address`` ("auto" for the one this node belongs to, "ray://HOST:10001"
    for a remote one), or starts a local instance (``address=None``, ``num_cpus`` cores). Connecting
    twice is harmless. Answers the ``ray`` module."""
    ray = _ray()
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None and num_cpus is not None:
            options["num_cpus"] = num_cpus
        ray.init(address=address, **options)
    return ray


#: A worker process's engines, made once per (variant, ply, rules): making one costs far more than
#: a 0-ply evaluation, and a worker runs many tasks.
_ENGINES: dict[Any, Any] = {}


def _engine(variant: str, ply: int, rules: Optional[dict] = None) -> Any:
    import tavla

    key = (variant, ply, tuple(sorted((rules or {}).items())))
    if key not in _ENGINES:
        # One thread: Ray runs a task per core.
        _ENGINES[key] = tavla.Engine(variant, ply=ply, threads=1, **(rules or {}))
    return _ENGINES[key]


def _analyze_match_text(text: str, ply: int, decisions: bool) -> dict[str, Any]:
    """One match analysed (the task's body): what ``tavla analyze FILE --json`` prints."""
    from tavla import analysis, formats

    report = analysis.analyze_match(_engine("backgammon", ply), formats.read_mat(text))
    if not decisions:
        report.pop("decisions")
        report.pop("rolls")
    return report


def analyze_matches(texts: Sequence[str], ply: int = 0, decisions: bool = False, address: Optional[str] = None,
                    num_cpus: Optional[int] = None) -> list[dict[str, Any]]:
    """Every match file's text analysed as one Ray task; the reports in the order given, each the one
    ``tavla.analysis.analyze_match`` gives on one machine. A file the reader refuses raises ValueError
    naming its place in ``texts``."""
    from tavla import formats

    for k, text in enumerate(texts):
        try:
            formats.read_mat(text)  # refuse a broken file before any task starts
        except ValueError as e:
            raise ValueError(f"match {k}: {e}") from None
    ray = connect(address, num_cpus)
    task = ray.remote(max_retries=RETRIES)(_analyze_match_text)
    return list(ray.get([task.remote(text, ply, decisions) for text in texts]))


def _evaluate_positions(texts: Sequence[str], ply: int) -> list[list[float]]:
    """Positions' cubeless probabilities at ``ply`` (the task's body)."""
    from tavla import formats

    out = []
    for text in texts:
        position = formats.parse(text)["position"]
        e = _engine(position.variant, ply, dict(position.rules)).evaluate(position)
        out.append([e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon])
    return out


def evaluate_positions(positions: Sequence[Any], ply: int = 2, chunk: Optional[int] = None,
                       address: Optional[str] = None, num_cpus: Optional[int] = None) -> list[list[float]]:
    """Every position (``tavla.Position``, the player on roll) evaluated at ``ply``, ``chunk`` positions
    a Ray task (default: about four tasks per core of the cluster): the five cubeless probabilities
    each, as ``Engine.evaluate`` gives them on one machine."""
    from tavla import formats

    texts = [formats.to_json(p) for p in positions]
    ray = connect(address, num_cpus)
    if chunk is None:
        cores = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunk = max(1, -(-len(texts) // (4 * cores)))
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    task = ray.remote(max_retries=RETRIES)(_evaluate_positions)
    parts = ray.get([task.remote(texts[k:k + chunk], ply) for k in range(0, len(texts), chunk)])
    return [probabilities for part in parts for probabilities in part]


def _rollout_position(text: str, trials: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One position rolled out (the task's body): ``Engine.rollout(...).to_dict()``."""
    from tavla import formats

    position = formats.parse(text)["position"]
    return _engine(position.variant, 0, dict(position.rules)).rollout(position, trials=trials, seed=seed,
                                                                     threads=1, **options).to_dict()


def rollout_positions(positions: Sequence[Any], trials: int = 1296, seed: int = 0, address: Optional[str] = None,
                      num_cpus: Optional[int] = None, **options: Any) -> list[dict[str, Any]]:
    """Every position (the player on roll, before its roll) rolled out as one Ray task with
    ``Engine.rollout(position, trials, seed, **options)`` (``ply``, ``variance_reduction``,
    ``truncate``, ...; no ``progress``): each result's ``to_dict()``, the one a single machine gives
    (a rollout's answer depends on its seed, not on its threads)."""
    from tavla import formats

    if "progress" in options or "threads" in options:
        raise ValueError("rollout_positions takes no progress or threads (each task runs one thread)")
    texts = [formats.to_json(p) for p in positions]
    ray = connect(address, num_cpus)
    task = ray.remote(max_retries=RETRIES)(_rollout_position)
    return list(ray.get([task.remote(text, trials, seed, options) for text in texts]))


def shutdown() -> None:
    """Leaves the cluster (a local instance stops)."""
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()


__all__ = ["connect", "analyze_matches", "evaluate_positions", "rollout_positions", "shutdown", "RETRIES"]
