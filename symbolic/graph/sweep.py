"""Run the graph: every ordered pair of the chosen notions, in this process, in local worker
processes (``jobs``) or on a Dask distributed cluster (``dask_address``), with a result cache.

Pairs are independent, so they are plain tasks: each names its two notions by *spec* (a catalogue
ID, or ``file.py:NAME`` for a user's notion) and is resolved where it runs, so a task is a few
strings wherever it is sent. Results come back as JSON documents (the contract's pair objects).
"""
from __future__ import annotations

from collections import Counter

import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

from symbolic.core.errors import DPCheckError, InvalidSize, clip
from symbolic.core.verdicts import Sizes
from symbolic.graph.cache import PairCache, pair_key
from symbolic.graph.hasse import diagram
from symbolic.graph.literature import relations_by_pair
from symbolic.graph.infer import by_composition, by_transitivity, lift_by_chains, separation_upward
from symbolic.graph.late_separations import by_candidate_table, by_sibling_witness, separations_downward, witnesses_of
from symbolic.graph.pair import PairResult, by_derived_map, by_shaped_map, with_literature, decide_pair
from symbolic.graph.user import load_user_notion
from symbolic.graph.user_limits import graph_limit, reached
from symbolic.notions.listed.catalog import find_notion, notion_catalog
from symbolic.solve.backends.effort import units
from symbolic.solve.backends.settings import Settings

MAX_GRAPH_NOTIONS = 80


def resolve(spec: str, settings: Settings | None = None):
    """A NotionInfo from a spec: ``file.py:NAME`` for a user's notion (its code run under the limit of a
    pair at ``settings``, :func:`~symbolic.graph.user_limits.graph_limit`), else a catalogue ID or name."""
    if ":" in spec and spec.rsplit(":", 1)[0].endswith(".py"):
        return load_user_notion(spec, None if settings is None else graph_limit(settings))
    return find_notion(spec)


@dataclass(frozen=True)
class GraphResult:
    """Every ordered pair among ``notions`` decided at ``sizes`` (:class:`PairResult` values), the
    seconds it took and how many pairs came from the cache; ``to_json`` is ``dpcheck graph --json``'s
    document and ``diagram()`` the Hasse diagram.

    >>> g = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 2), settings=graph_settings(3))
    >>> sorted(g.to_json()), len(g.pairs)
    (['cached', 'notions', 'pairs', 'seconds', 'sizes', 'summary'], 2)
    >>> g.summary()["definite"], g.summary()["without_belief"]["definite"]
    (2, 2)
    """

    notions: tuple          # IDs, in the order given
    sizes: Sizes
    pairs: tuple            # PairResult values
    seconds: float
    cached: int = 0
    beliefs: tuple = ()     # the IDs of notions relative to a prior or belief (their population is not "none")

    def to_json(self) -> dict:
        return {"notions": list(self.notions), "sizes": self.sizes.as_dict(),
                "pairs": [p.to_json() for p in self.pairs], "seconds": round(self.seconds, 3),
                "cached": self.cached, "summary": self.summary()}

    def summary(self) -> dict:
        """The counts a reader asks first: pairs by relation, definite ones, implies edges carrying the tight map,
        separations by kind, unknown pairs by reason; the same among the notions not relative to a belief."""
        def counts(pairs):
            rel = Counter(p.relation for p in pairs)
            return {"pairs": len(pairs), "implies": rel["implies"], "not_implies": rel["not-implies"],
                    "unknown": rel["unknown"], "definite": rel["implies"] + rel["not-implies"]}
        out = counts(self.pairs)
        out["tight"] = sum(1 for p in self.pairs if p.relation == "implies" and p.tight)
        out["separations_by_kind"] = dict(Counter(separation_kind(p) for p in self.pairs
                                                  if p.relation == "not-implies"))
        out["unknown_by_reason"] = dict(Counter(unknown_reason(p) for p in self.pairs if p.relation == "unknown"))
        plain = [p for p in self.pairs if p.source not in self.beliefs and p.target not in self.beliefs]
        out["without_belief"] = {**counts(plain), "unknown_by_reason": dict(Counter(
            unknown_reason(p) for p in plain if p.relation == "unknown"))}
        return out

    def diagram(self):
        return diagram(self.notions, self.pairs, str(self.sizes))


def separation_kind(p) -> str:
    """How a not-implies pair was shown: a family of tables, one table with the target at no level, or one with
    the target only at its trivial level."""
    if p.extra.get("separation") == "family":
        return "family of tables"
    return "one table, the target only at its trivial level" if p.extra.get("target_level") == \
        "only the trivial level" else "one table, the target at no level"


def unknown_reason(p) -> str:
    """The reason class of an unknown pair: a map refuted with no separation (trivially, when the map put the
    target at no loss at all), a transcendental notion the solver cannot state, a side condition, no map, an error."""
    reason = p.reason or ""
    if p.extra.get("assuming"):
        return "a side condition"
    if p.extra.get("refuted_maps"):
        return "only a map with no loss refuted" if p.extra.get("trivial") else "maps refuted, no separation"
    if reason.startswith("transcendental"):
        return "a transcendental notion"
    if reason.startswith("no parameter map"):
        return "no parameter map"
    if reason.startswith(("error", "a notion raised")):
        return "an error"
    if "effort limit" in reason:
        return "the effort limit"
    if "not confirmed by exact evaluation" in reason:
        return "a counterexample exact evaluation did not confirm"
    return "other: " + reason.split(":")[0][:60]


def graph_settings(budget: float = 6.0) -> Settings:
    """The graph's default search settings: ``budget`` nominal seconds of effort for a pair's main check
    (``budget`` × 10^6 z3 steps or processor seconds; its extra attempts, coarser maps and a separation search, get half
    each), no second solver, short minimisation; the wall clock only as a safety net (ten times the
    budget, at least a minute). Thousands of pairs make the per-pair effort the run's time.

    >>> s = graph_settings(4)
    >>> s.effort, s.query_effort, s.second_solver
    (4000000, 4000000, False)
    """
    return Settings(effort=units(budget), query_effort=units(budget), second_solver=False,
                    minimise_effort=units(min(5.0, budget / 2)), cheap_effort=units(min(0.5, budget / 10)),
                    budget=max(60.0, 10 * budget), timeout=max(60.0, 10 * budget), level=f"graph {budget:g}")


def _task(spec_a: str, spec_b: str, sizes: tuple, settings: Settings) -> dict:
    """One pair, resolved and decided where it runs (a worker process or a Dask worker)."""
    from symbolic.solve.queries.solver import fresh_context
    fresh_context()
    a, b = resolve(spec_a, settings), resolve(spec_b, settings)
    lit = relations_by_pair().get((a.id, b.id))
    res = decide_pair(a, b, Sizes(*sizes), settings, lit)
    hit = reached(a.notion, b.notion)   # a user's code out of its limit: unknown, even if a step went on without it
    if hit is not None and res.relation != "unknown":
        res = with_literature(PairResult(a.id, b.id, "unknown", reason=f"error: {hit}"), lit, sizes[0])
    return res.to_json()


def run_graph(specs=None, *, sizes: Sizes = Sizes(2, 2, 2), settings: Settings | None = None, jobs: int = 1,
              dask_address: str | None = None, cache_dir=None, progress=None, on_pair=None) -> GraphResult:
    """Decide every ordered pair among ``specs`` (default: every listed notion of one mechanism).
    ``progress(done, total)`` is called as pairs finish, ``on_pair(pair_result)`` with each one (so a
    caller stopped by a signal still has them). However this ends (a signal, an error), no worker
    process is left running.

    >>> g = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 2), settings=graph_settings(3))
    >>> [(p.source, p.target, p.relation) for p in g.pairs]
    [('pure-dp', 'approx-dp', 'implies'), ('approx-dp', 'pure-dp', 'not-implies')]
    """
    t0 = time.monotonic()
    settings = settings or graph_settings()
    specs = list(specs) if specs else [i.id for i in notion_catalog() if i.notion.arity == 1]
    infos = [resolve(s, settings) for s in specs]
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
                if on_pair is not None:
                    on_pair(done[(a.id, b.id)])
            else:
                todo.append((a.id, b.id))
    cached, total = len(done), len(keys)
    if progress:
        progress(len(done), total)

    def finish(pair, doc, store=True):
        res = PairResult.from_json(doc)
        done[pair] = res
        if on_pair is not None:
            on_pair(res)
        if store and cache is not None and not (res.relation == "unknown" and "time" in (res.reason or "")):
            cache.put(keys[pair], doc)
        if progress:
            progress(len(done), total)

    info_of = dict(zip(ids, infos))
    rank = {"polynomial": 0, "forall-prior": 1, "transcendental": 2}
    todo.sort(key=lambda p: max(rank.get(info_of[x].cls, 1) for x in p))  # cheap pairs first, to infer from

    def inferred(pair):
        a, c = pair
        lit_rel = lit.get(pair)
        if lit_rel is not None and lit_rel.assuming:
            return None
        res = by_transitivity(a, c, done, ids) or separation_upward(info_of[a], c, done, ids)
        return None if res is None else with_literature(res, lit_rel, sizes.n)

    def submit_next(submit):
        """Infer what can be inferred; return the next pair to decide, or None."""
        while todo:
            pair = todo.pop(0)
            res = inferred(pair)
            if res is None:
                return pair, submit(pair)
            finish(pair, res.to_json(), store=False)
        return None

    task_args = lambda pair: (spec_of[pair[0]], spec_of[pair[1]], sizes.as_tuple(), settings)
    if dask_address:
        _run_dask(dask_address, submit_next, task_args, finish, jobs)
    elif jobs > 1 and len(todo) > 1:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_worker_context(), initializer=_take_stop_signals)
        try:
            _drive(lambda pair: _submit_whole(pool, _task, *task_args(pair)), submit_next, finish, 2 * jobs,
                   lambda fs: wait(fs, return_when=FIRST_COMPLETED)[0])
        except BaseException:   # a signal (or an error): kill the workers, do not wait for their pairs
            _kill_workers(pool)
            raise
        pool.shutdown(wait=True)
    else:
        while todo:
            nxt = submit_next(lambda pair: pair)
            if nxt is not None:
                finish(nxt[0], _task(*task_args(nxt[0])))
    _settle_open_pairs(done, info_of, lit, sizes, settings, jobs, spec_of)
    lift_by_chains(done)   # a bounded proof whose map a chain of all-size edges also gives holds at every size
    ordered = tuple(done[(a, b)] for a in ids for b in ids if a != b)
    beliefs = tuple(i for i in ids if info_of[i].notion.population != "none")
    return GraphResult(tuple(ids), sizes, ordered, time.monotonic() - t0, cached, beliefs)


def _settle_open_pairs(done: dict, info_of: dict, lit: dict, sizes, settings, jobs: int = 1,
                       spec_of: dict | None = None) -> None:
    """After every pair had its own decision: what the decided pairs and cheaper candidates settle, in ``done``.
    Composed maps first (before a pair keeps only refuted ones), maps of other shapes, separations by tables other
    pairs or a list hold and by A ⇏ B with C ⇒ B, the map derive map fits; then composition and the separations
    again, since the fitted maps are new links."""
    def put(found: dict):
        for pair, res in found.items():
            done[pair] = with_literature(res, lit.get(pair), sizes.n)

    def each(decide):
        put({pair: r for pair, res in list(done.items())
             if (r := decide(info_of[pair[0]], info_of[pair[1]], res, pair)) is not None})

    put(by_composition(done, info_of))
    each(lambda a, b, res, pair: by_shaped_map(a, b, res, sizes, settings, lit.get(pair)))

    witnesses = {}

    def separated(a, b, res, pair):
        if res.relation != "unknown":
            return None
        if pair[0] not in witnesses:
            witnesses[pair[0]] = witnesses_of(pair[0], done)
        sep = by_sibling_witness(a, b, res, witnesses[pair[0]], settings) or \
            by_candidate_table(a, b, res, sizes, settings)
        return sep if sep is not None and sep.relation == "not-implies" else None
    each(separated)
    put(separations_downward(done, info_of, settings))
    put(_derived_maps(done, info_of, sizes, settings, jobs, spec_of or {}))
    put(by_composition(done, info_of))
    put(separations_downward(done, info_of, settings))


def _derived_maps(done: dict, info_of: dict, sizes, settings, jobs: int, spec_of: dict) -> dict:
    """The pairs a fitted map settles (:func:`~symbolic.graph.pair.by_derived_map`), derived in ``jobs`` worker
    processes when more than one: each derivation is seconds of search, fit and proof."""
    from symbolic.graph.constants.proposal import proposable
    todo = [pair for pair, res in sorted(done.items()) if proposable(info_of[pair[0]], info_of[pair[1]], res)]
    args = [(done[p].to_json(), spec_of.get(p[0], p[0]), spec_of.get(p[1], p[1]), sizes.as_tuple(), settings)
            for p in todo]
    found = {}

    def finish(k, doc):
        if doc is not None:
            found[todo[k]] = PairResult.from_json(doc)
    if jobs > 1 and len(args) > 1:
        map_in_processes(_derived_task, args, jobs, finish)
    else:
        for k, a in enumerate(args):
            finish(k, _derived_task(*a))
    return found


def _derived_task(pair_doc: dict, spec_a: str, spec_b: str, sizes: tuple, settings) -> dict | None:
    """One pair's fitted map, where it runs (a worker process, or this one)."""
    from symbolic.solve.queries.solver import fresh_context
    fresh_context()
    a, b = resolve(spec_a, settings), resolve(spec_b, settings)
    got = by_derived_map(a, b, PairResult.from_json(pair_doc), Sizes(*sizes), settings,
                         relations_by_pair().get((a.id, b.id)))
    return None if got is None else got.to_json()


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _submit_whole(pool, fn, *args):
    """``pool.submit`` with SIGINT and SIGTERM held until it returns. A submit may start a worker, and
    a stop raised between the worker's start and the pool's record of it would leave that worker out of
    ``_kill_workers``: half-started when this process removes the pool's queues, it would print the
    start-up's traceback. Held, the signal's handler runs once the worker is recorded."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    except (AttributeError, ValueError, OSError):   # no signal masks here: submit as it is
        return pool.submit(fn, *args)
    try:
        return pool.submit(fn, *args)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _take_stop_signals():
    """In a worker, as it starts: SIGINT and SIGTERM reach it again (it may have inherited the mask that
    ``_submit_whole`` held while its start was requested)."""
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    except (AttributeError, ValueError, OSError):
        pass


def _kill_workers(pool):
    """Kill every worker process of ``pool`` at once and reap them (pairs in flight are lost)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        if p.is_alive():
            p.kill()
    for p in procs:
        p.join(5)
    # taken before shutdown, which drops the pool's references to both
    wakeup = getattr(pool, "_executor_manager_thread_wakeup", None)
    manager = getattr(pool, "_executor_manager_thread", None)
    if wakeup is not None:   # the interpreter's exit hook wakes the pool's manager through this pipe; on a busy
        wakeup.wakeup = _quiet(wakeup.wakeup)   # machine the manager may have closed it already: nothing to wake
    pool.shutdown(wait=False, cancel_futures=True)
    if manager is not None:   # let it close its wake-up pipe before the interpreter's exit hook writes to it
        manager.join(5)


def _quiet(wake):
    """``wake()`` that does nothing when its pipe is already closed (an OSError), instead of a traceback at exit."""
    def call():
        try:
            wake()
        except OSError:
            pass
    return call


def _drive(submit, submit_next, finish, width, wait_some):
    """Keep ``width`` pairs in flight; as each finishes, record it and submit the next (after inference)."""
    running = {}
    while True:
        while len(running) < width:
            nxt = submit_next(submit)
            if nxt is None:
                break
            running[nxt[1]] = nxt[0]
        if not running:
            return
        for f in wait_some(list(running)):
            finish(running.pop(f), f.result())


def map_in_processes(fn, args_list, jobs: int, finish):
    """``fn(*args)`` for each ``args`` of ``args_list`` in ``jobs`` worker processes (the graph's: forked from a
    server, stop signals held around each start); ``finish(index, result)`` as each ends. However this ends,
    no worker is left running."""
    todo = list(enumerate(args_list))

    def submit_next(submit):
        if not todo:
            return None
        i, args = todo.pop(0)
        return i, submit(args)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_worker_context(), initializer=_take_stop_signals)
    try:
        _drive(lambda args: _submit_whole(pool, fn, *args), submit_next, finish, 2 * jobs,
               lambda fs: wait(fs, return_when=FIRST_COMPLETED)[0])
    except BaseException:   # a signal (or an error): kill the workers, do not wait for their tasks
        _kill_workers(pool)
        raise
    pool.shutdown(wait=True)


def _worker_context():
    """Workers forked from a single-threaded server (never from this process, whose pool threads
    could hold a lock at the moment of a fork and leave the child stuck): "forkserver", with the
    engine imported once in the server; "spawn" where there is no forkserver."""
    import multiprocessing as mp
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["symbolic.graph.sweep", "symbolic.solve.run", "z3", "sympy"])
        from multiprocessing import forkserver
        forkserver.ensure_running()   # started here, not inside a submit whose signal mask it would inherit
        return ctx
    return mp.get_context("spawn")


def _run_dask(address, submit_next, task_args, finish, jobs):
    try:
        from distributed import Client, wait as dask_wait
    except ImportError:
        raise DPCheckError("--dask needs the distributed package: pip install 'dask[distributed]'") from None
    try:
        client = address if hasattr(address, "submit") else Client(address, timeout="10s")
    except OSError as e:
        raise DPCheckError(f"cannot reach the Dask scheduler at {clip(address)}: {clip(str(e), 120)}") from None
    try:
        width = max(2 * jobs, 2 * sum(client.nthreads().values()))
        _drive(lambda pair: client.submit(_task, *task_args(pair), pure=False), submit_next, finish, width,
               lambda fs: dask_wait(fs, return_when="FIRST_COMPLETED").done)
    finally:
        if client is not address:
            client.close()
