"""A run read from the privacy libraries' own descriptions: a dp-accounting ``DpEvent`` (or its named-tuple
JSON), an Opacus-style history of (noise multiplier, sample rate, steps), and autodp's DP-SGD mechanism
parameters (prob, sigma, coeff). None of the libraries is imported here: an event is read by its class name and
fields. A float is read as the decimal it prints (0.01 is 1/100), which is the run the library was asked about.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from symbolic.core.errors import InvalidParameter, clip
from symbolic.derive.accounting.run import Stage, repeated

EVENTS = ("GaussianDpEvent", "LaplaceDpEvent", "PoissonSampledDpEvent", "SampledWithoutReplacementDpEvent",
          "SelfComposedDpEvent", "ComposedDpEvent")
MAX_STEPS = 10 ** 7


def _number(x, what: str) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, (int, float, str, Fraction)):
        raise InvalidParameter(f"{what} {clip(repr(x), 30)}: a number is expected")
    try:
        v = Fraction(str(x)) if not isinstance(x, Fraction) else x
    except (ValueError, ZeroDivisionError):
        raise InvalidParameter(f"{what} {clip(repr(x), 30)}: a number is expected") from None
    return v


def _count(x, what: str) -> int:
    v = _number(x, what)
    if v.denominator != 1 or not 1 <= v <= MAX_STEPS:
        raise InvalidParameter(f"{what} {clip(repr(x), 30)}: a number of steps from 1 to {MAX_STEPS} is expected")
    return int(v)


def _positive(x, what: str) -> Fraction:
    v = _number(x, what)
    if v <= 0:
        raise InvalidParameter(f"{what} {clip(repr(x), 30)}: must be positive")
    return v


def _rate(x, what: str) -> Fraction:
    v = _number(x, what)
    if not 0 < v <= 1:
        raise InvalidParameter(f"{what} {clip(repr(x), 30)}: a sampling probability in (0, 1] is expected")
    return v


def event_document(event) -> dict:
    """A ``DpEvent`` (anything with ``to_named_tuple``) as plain JSON: ``{"class_name": …, field: value, …}``.

    >>> from collections import namedtuple
    >>> Gaussian = namedtuple("Gaussian", "module_name class_name noise_multiplier")
    >>> event_document(Gaussian("dp_accounting.dp_event", "GaussianDpEvent", 1.0))
    {'class_name': 'GaussianDpEvent', 'noise_multiplier': 1.0}
    """
    nt = event.to_named_tuple() if hasattr(event, "to_named_tuple") else event

    def plain(x):
        if hasattr(x, "_asdict"):
            return {k: plain(v) for k, v in x._asdict().items() if k != "module_name"}
        if isinstance(x, (list, tuple)):
            return [plain(v) for v in x]
        return x
    return plain(nt)


def _event_stages(doc, rate: Fraction, depth: int, sampling: str = "poisson") -> tuple:
    if depth > 32:
        raise InvalidParameter("the DpEvent nests more than 32 deep")
    if not isinstance(doc, dict):
        raise InvalidParameter("a DpEvent is a JSON object with a \"class_name\"")
    name = doc.get("class_name")
    if name == "GaussianDpEvent":
        return (Stage("gaussian", _positive(doc.get("noise_multiplier"), "GaussianDpEvent noise_multiplier"), rate, 1,
                      sampling=sampling),)
    if name == "LaplaceDpEvent":
        return (Stage("laplace", _positive(doc.get("noise_multiplier"), "LaplaceDpEvent noise_multiplier"), rate, 1,
                      sampling=sampling),)
    if name in ("PoissonSampledDpEvent", "SampledWithoutReplacementDpEvent") and rate != 1:
        raise InvalidParameter(f"a {name} inside a sampled event is not accounted (sampling twice)")
    if name == "PoissonSampledDpEvent":
        return _event_stages(doc.get("event"), _rate(doc.get("sampling_probability"),
                                                     "PoissonSampledDpEvent sampling_probability"), depth + 1)
    if name == "SampledWithoutReplacementDpEvent":
        n = _count(doc.get("source_dataset_size"), "SampledWithoutReplacementDpEvent source_dataset_size")
        m = _count(doc.get("sample_size"), "SampledWithoutReplacementDpEvent sample_size")
        if m > n:
            raise InvalidParameter(f"SampledWithoutReplacementDpEvent sample_size {m}: more than the "
                                   f"source_dataset_size {n}")
        return _event_stages(doc.get("event"), Fraction(m, n), depth + 1, "without-replacement")
    if name == "SelfComposedDpEvent":
        return repeated(_event_stages(doc.get("event"), rate, depth + 1, sampling),
                        _count(doc.get("count"), "SelfComposedDpEvent count"))
    if name == "ComposedDpEvent":
        events = doc.get("events")
        if not isinstance(events, list) or not 1 <= len(events) <= 1024:
            raise InvalidParameter("a ComposedDpEvent's events must be a list of 1 to 1024 events")
        return tuple(s for e in events for s in _event_stages(e, rate, depth + 1, sampling))
    raise InvalidParameter(f"DpEvent {clip(str(name), 40)}: not accounted; known: {', '.join(EVENTS)}")


def stages_from_dp_event(event) -> tuple:
    """The stages of a dp-accounting ``DpEvent`` or of its JSON (:func:`event_document`).

    >>> doc = {"class_name": "SelfComposedDpEvent", "count": 1000, "event": {"class_name": "PoissonSampledDpEvent",
    ...        "sampling_probability": 0.01, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}}}
    >>> stages_from_dp_event(doc)
    (Stage(noise='gaussian', scale=Fraction(1, 1), rate=Fraction(1, 100), steps=1000, sampling='poisson'),)
    """
    doc = event if isinstance(event, dict) else event_document(event)
    return _merged(_event_stages(doc, Fraction(1), 0))


def stages_from_opacus_history(history) -> tuple:
    """The stages of an Opacus-style history: a list of (noise_multiplier, sample_rate, steps).

    >>> stages_from_opacus_history([(1.0, 0.01, 600), (2.0, 0.02, 400)])[1]
    Stage(noise='gaussian', scale=Fraction(2, 1), rate=Fraction(1, 50), steps=400, sampling='poisson')
    """
    if not isinstance(history, (list, tuple)) or not 1 <= len(history) <= 1024:
        raise InvalidParameter("an Opacus history is a list of 1 to 1024 (noise_multiplier, sample_rate, steps)")
    out = []
    for i, entry in enumerate(history):
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            raise InvalidParameter(f"Opacus history entry {i}: (noise_multiplier, sample_rate, steps) is expected")
        sigma, q, t = entry
        out.append(Stage("gaussian", _positive(sigma, f"history[{i}] noise_multiplier"),
                         _rate(q, f"history[{i}] sample_rate"), _count(t, f"history[{i}] steps")))
    return _merged(tuple(out))


def stages_from_autodp(params) -> tuple:
    """The stages of autodp's DP-SGD mechanism (``NoisySGD_Mechanism(prob, sigma, niter)``: its ``params`` dict,
    or the mechanism itself).

    >>> stages_from_autodp({"prob": 0.01, "sigma": 1.0, "coeff": 1000})
    (Stage(noise='gaussian', scale=Fraction(1, 1), rate=Fraction(1, 100), steps=1000, sampling='poisson'),)
    """
    p = getattr(params, "params", params)
    if not isinstance(p, dict) or not {"prob", "sigma", "coeff"} <= set(p):
        raise InvalidParameter("autodp's DP-SGD parameters are a mapping with prob, sigma and coeff (the steps)")
    return (Stage("gaussian", _positive(p["sigma"], "autodp sigma"), _rate(p["prob"], "autodp prob"),
                  _count(p["coeff"], "autodp coeff")),)


def _merged(stages: tuple) -> tuple:
    """Consecutive stages of the same step run as one."""
    out = []
    for s in stages:
        if out and (out[-1].noise, out[-1].scale, out[-1].rate) == (s.noise, s.scale, s.rate):
            out[-1] = replace(s, steps=out[-1].steps + s.steps)
        else:
            out.append(s)
    return tuple(out)


def stages_from_description(doc) -> tuple:
    """A description file's stages: ``{"dp_event": …}``, ``{"opacus_history": […]}`` or ``{"autodp": {…}}``.

    >>> stages_from_description({"opacus_history": [[1.0, 0.01, 1000]]})
    (Stage(noise='gaussian', scale=Fraction(1, 1), rate=Fraction(1, 100), steps=1000, sampling='poisson'),)
    """
    if not isinstance(doc, dict) or len(doc) != 1:
        raise InvalidParameter('--from reads a JSON object with one key: "dp_event", "opacus_history" or "autodp"')
    (key, value), = doc.items()
    readers = {"dp_event": stages_from_dp_event, "opacus_history": stages_from_opacus_history,
               "autodp": stages_from_autodp}
    if key not in readers:
        raise InvalidParameter(f'--from: unknown description {clip(key, 30)}; known: "dp_event", "opacus_history", '
                               f'"autodp"')
    return readers[key](value)


__all__ = ["event_document", "stages_from_autodp", "stages_from_description", "stages_from_dp_event",
           "stages_from_opacus_history"]
