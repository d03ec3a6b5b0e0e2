"""Run the graph: every ordered pair of the chosen notions, in this process, in local worker
processes (``jobs``) or on a Dask distributed cluster (``dask_address``), with a result cache.

Pairs are independent, so they are plain tasks: each names its two notions by *spec* (a catalogue
ID, or ``file.py:NAME`` for a user's notion) and is resolved where it runs, so a task is a few
strings wherever it is sent. Results come back as JSON documents (the contract's pair objects).
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace

from symbolic.core.errors import DPCheckError, InvalidSize, clip
from symbolic.core.verdicts import Sizes
from symbolic.graph.cache import PairCache, pair_key
from symbolic.graph.hasse import diagram
from symbolic.graph.literature import relations_by_pair
from symbolic.graph.pair import PairResult, decide_pair
from symbolic.graph.user import load_user_notion
from symbolic.notions.catalog import find_notion, notion_catalog
from symbolic.solve.settings import Settings

MAX_GRAPH_NOTIONS = 80


def resolve(spec: str):
    """A NotionInfo from a spec: ``file.py:NAME`` for a user's notion, else a catalogue ID or name."""
    if ":" in spec and spec.rsplit(":", 1)[0].endswith(".py"):
        return load_user_notion(spec)
    return find_notion(spec)


@dataclass(frozen=True)
class GraphResult:
    notions: tuple          # IDs, in the order given
    sizes: Sizes
    pairs: tuple            # PairResult values
    seconds: float
    cached: int = 0

    def to_json(self) -> dict:
        return {"notions": list(self.notions), "sizes": self.sizes.as_dict(),
                "pairs": [p.to_json() for p in self.pairs], "seconds": round(self.seconds, 3),
                "cached": self.cached}

    def diagram(self):
        return diagram(self.notions, self.pairs)


def _task(spec_a: str, spec_b: str, sizes: tuple, settings: Settings) -> dict:
    """One pair, resolved and decided where it runs (a worker process or a Dask worker)."""
    from symbolic.solve.solver import fresh_context
    fresh_context()
    a, b = resolve(spec_a), resolve(spec_b)
    lit = relations_by_pair().get((a.id, b.id))
    return decide_pair(a, b, Sizes(*sizes), settings, lit).to_json()


def run_graph(specs=None, *, sizes: Sizes = Sizes(2, 2, 2), settings: Settings | None = None, jobs: int = 1,
              dask_address: str | None = None, cache_dir=None, progress=None) -> GraphResult:
    """Decide every ordered pair among ``specs`` (default: every listed notion of one mechanism).
    ``progress(done, total)`` is called as pairs finish."""
    t0 = time.monotonic()
    settings = settings or Settings(budget=20.0, second_solver=False)
    specs = list(specs) if specs else [i.id for i in notion_catalog() if i.notion.arity == 1]
    infos = [resolve(s) for s in specs]
    ids = [i.id for i in infos]
    if len(set(ids)) != len(ids):
        dup = next(x for x in ids if ids.count(x) > 1)
        raise DPCheckError(f"notion {clip(dup)} is named twice; give each notion once")
    if len(ids) > MAX_GRAPH_NOTIONS:
        raise InvalidSize(f"{len(ids)} notions make {len(ids) * (len(ids) - 1)} pairs; at most {MAX_GRAPH_NOTIONS} "
                          f"notions a run")
    if len(ids) < 2:
        raise InvalidSize("a graph needs at least two notions")
    spec_of = dict(zip(ids, specs))
    todo, done = [], {}
    cache = PairCache(cache_dir) if cache_dir else None
    lit = relations_by_pair()
    keys = {}
    for a in infos:
        for b in infos:
            if a.id == b.id:
                continue
            key = pair_key(a, b, sizes, settings, lit.get((a.id, b.id)))
            keys[(a.id, b.id)] = key
            hit = cache.get(key) if cache is not None else None
            if hit is not None:
                done[(a.id, b.id)] = PairResult.from_json(hit)
            else:
                todo.append((a.id, b.id))
    cached, total = len(done), len(keys)
    if progress:
        progress(len(done), total)

    def finish(pair, doc):
        res = PairResult.from_json(doc)
        done[pair] = res
        if cache is not None and not (res.relation == "unknown" and "time" in (res.reason or "")):
            cache.put(keys[pair], doc)
        if progress:
            progress(len(done), total)

    args = [(spec_of[x], spec_of[y], sizes.as_tuple(), settings) for x, y in todo]
    if dask_address:
        _run_dask(dask_address, todo, args, finish)
    elif jobs > 1 and len(todo) > 1:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_worker_context()) as pool:
            futures = {pool.submit(_task, *a): pair for pair, a in zip(todo, args)}
            for f in as_completed(futures):
                finish(futures[f], f.result())
    else:
        for pair, a in zip(todo, args):
            finish(pair, _task(*a))
    ordered = tuple(done[(a, b)] for a in ids for b in ids if a != b)
    return GraphResult(tuple(ids), sizes, ordered, time.monotonic() - t0, cached)


def _worker_context():
    """Workers forked from a single-threaded server (never from this process, whose pool threads
    could hold a lock at the moment of a fork and leave the child stuck): "forkserver", with the
    engine imported once in the server; "spawn" where there is no forkserver."""
    import multiprocessing as mp
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["symbolic.graph.sweep", "symbolic.solve.run", "z3", "sympy"])
        return ctx
    return mp.get_context("spawn")


def _run_dask(address, todo, args, finish):
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise DPCheckError("--dask needs the distributed package: pip install 'dask[distributed]'") from None
    try:
        client = address if hasattr(address, "submit") else Client(address, timeout="10s")
    except OSError as e:
        raise DPCheckError(f"cannot reach the Dask scheduler at {clip(address)}: {clip(str(e), 120)}") from None
    futures = {client.submit(_task, *a, pure=False): pair for pair, a in zip(todo, args)}
    for f in dask_completed(list(futures)):
        finish(futures[f], f.result())
    if client is not address:
        client.close()
