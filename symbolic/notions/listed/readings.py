"""A notion relative to priors, read as a property of one mechanism alone: what ``derive map`` compares.

A level of B "implied by A" is a number attached to a table. For a notion that mentions a prior, belief or
population the table alone does not fix it, so each such notion is read as the property "for every prior"
(the reading the implication graph's claims also make, where a population is universally quantified):

- **every prior, on a finite family.** A notion over all (or all product) populations whose ``sufficient``
  family decides it for a fixed table is the conjunction of its body over that family. Each family carries
  its proof beside it (e.g. :func:`~symbolic.notions.zoo.bayes.two_point_priors`) and a test against the
  solver.
- **a given prior, for every prior.** A notion relative to one given prior (``population="given"``) is read
  through its every-prior form: the same body over every population (``BayesianDP`` → ``BayesianDPAllPriors``),
  or a closed form proved in its docstring (local information privacy → free-lunch privacy, the supremum over
  priors, :data:`~symbolic.notions.zoo.bayes.LocalInformationPrivacyEveryPrior`).
- **beliefs with no finite family.** ε-semantic privacy has none in general (the worst belief can be
  irrational), but at n = 1 and |𝒟| = 2 every belief lies on the two neighbours, and there it equals its
  two-point closed form (Kasiviswanathan, Smith (2014), the step of the proof of Theorem 2.2), so that form is
  its reading at those sizes and no other.

A :class:`Reading` keeps three notions: ``notion`` (population-free, for the numeric search and exact levels
of tables), ``hypothesis`` (what a proof's claim states when the notion is A) and ``conclusion`` (when it is
B). The conclusion keeps the given-prior notion itself where there is one: a claim quantifies its population
universally, so "B holds under every prior" is then proved by the solver without relying on the every-prior
form.
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.errors import InvalidParameter
from symbolic.notions.base import Notion
from symbolic.notions.families import dp as fam_dp
from symbolic.notions.families import pml as fam_pml
from symbolic.notions.families import semantic as fam_semantic
from symbolic.notions.zoo import bayes as zoo_bayes
from symbolic.notions.zoo import membership as zoo_membership

# a given-prior notion's every-prior form (the same body over every population, or a proved closed form)
EVERY_PRIOR = {
    zoo_bayes.BayesianDP.name: zoo_bayes.BayesianDPAllPriors,
    zoo_bayes.InferentialPrivacy.name: zoo_bayes.InferentialPrivacyAllPriors,
    zoo_bayes.LocalInformationPrivacy.name: zoo_bayes.LocalInformationPrivacyEveryPrior,
    zoo_bayes.MaximalLeakageUnder.name: zoo_bayes.MaximalLeakage,
    zoo_bayes.NoiselessPrivacy.name: zoo_bayes.NoiselessPrivacyAllPriors,
    zoo_membership.MembershipPrivacyFor.name: zoo_membership.MembershipPrivacyAllPriors,
    fam_pml.PMLUnder.name: fam_pml.PMLAllPriors,
    fam_dp.StrongAdversaryDPFor.name: fam_dp.StrongAdversaryDP,
    fam_dp.Bayesian0DPFor.name: fam_dp.Bayesian0DP,
    fam_dp.WholeDatabaseInterventionDPFor.name: fam_dp.WholeDatabaseInterventionDP,
    fam_dp.DataPointInterventionDPFor.name: fam_dp.DataPointInterventionDP,
    fam_semantic.SemanticPrivacyFor.name: fam_semantic.SemanticPrivacy,
}

# a notion over beliefs with no finite family, and the sizes (n, |𝒟|) at which a closed form equals it
AT_SIZES = {fam_semantic.SemanticPrivacy.name: ((1, 2), fam_semantic.TwoPointSemanticPrivacy)}


@dataclass(frozen=True)
class Reading:
    """How ``derive map`` reads a notion (see the module text): ``notion`` is population-free, ``hypothesis`` and
    ``conclusion`` are stated in the proof's claim, ``text`` says what was read (None: the notion as listed).

    >>> from symbolic.notions.zoo.bayes import BayesianDP
    >>> r = reading(BayesianDP, 1, 2)
    >>> r.notion.population, r.hypothesis.name, r.conclusion.name
    ('none', 'BayesianDPAllPriors', 'BayesianDP')
    >>> r.text
    'BayesianDP read for every prior (BayesianDPAllPriors, decided on two_point_priors)'
    """

    notion: Notion
    hypothesis: Notion
    conclusion: Notion
    text: str | None = None


_ON_FAMILY: dict = {}


def on_family(notion: Notion) -> Notion:
    """``notion`` (over all or all product populations) as a notion of the table alone: its body for each
    population of its ``sufficient`` family, all of them required. One object per notion, so compiled forms
    of it can be kept.

    >>> from symbolic.notions.families.dp import StrongAdversaryDP
    >>> from symbolic.api import evaluate, randomized_response
    >>> s = on_family(StrongAdversaryDP)
    >>> s.population, evaluate(s, randomized_response(3), E=3), evaluate(s, randomized_response(3), E=2)
    ('none', True, False)
    """
    if notion.sufficient is None:
        raise InvalidParameter(f"{notion.name} has no finite family of populations that decides it for a table")
    if id(notion) not in _ON_FAMILY:
        def body(ops, A, P=None, **values):
            return ops.And([notion.body(ops, A, P=pop.table(), **values) for pop in notion.sufficient(A.n, A.domain)])
        family = notion.sufficient.__name__
        wrapped = Notion(notion.name, notion.params, body, summary=f"{notion.summary} (on {family})")
        _ON_FAMILY[id(notion)] = (notion, wrapped)
    return _ON_FAMILY[id(notion)][1]


def reading(notion: Notion, n: int, domain: int) -> Reading:
    """How ``notion`` is read at ``n`` records over ``domain`` values (see the module text); a notion that has no
    reading there raises :class:`~symbolic.core.errors.InvalidParameter` saying why.

    >>> from symbolic.notions.families.semantic import SemanticPrivacy
    >>> reading(SemanticPrivacy, 1, 2).notion.name
    'TwoPointSemanticPrivacy'
    >>> reading(SemanticPrivacy, 2, 2)
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidParameter: SemanticPrivacy quantifies over beliefs with no finite family that decides it for a table; derive map reads it only at n = 1, |D| = 2 (as TwoPointSemanticPrivacy)
    """
    if notion.population == "none":
        return Reading(notion, notion, notion)
    given = notion if notion.population == "given" else None
    if given is not None:
        if notion.name not in EVERY_PRIOR:
            raise InvalidParameter(f"{notion.name} is relative to one given prior and has no every-prior form; "
                                   f"derive map compares properties of the mechanism alone")
        notion = EVERY_PRIOR[notion.name]
    if notion.population == "none":
        return Reading(notion, notion, given, f"{given.name} read for every prior ({notion.name}, in closed form: "
                                               f"the supremum over priors, proved in its docstring)")
    if notion.sufficient is not None:
        fam = notion.sufficient.__name__.lstrip("_")
        text = (f"{given.name} read for every prior ({notion.name}, decided on {fam})" if given is not None else
                f"{notion.name} decided on its family {fam}")
        return Reading(on_family(notion), notion, given or notion, text)
    if notion.name in AT_SIZES:
        sizes, form = AT_SIZES[notion.name]
        if (n, domain) == sizes:
            return Reading(form, form, form, f"{(given or notion).name} read as {form.name}, equal to it at n = "
                                             f"{sizes[0]}, |D| = {sizes[1]}")
        raise InvalidParameter(f"{notion.name} quantifies over beliefs with no finite family that decides it for a "
                               f"table; derive map reads it only at n = {sizes[0]}, |D| = {sizes[1]} (as {form.name})")
    raise InvalidParameter(f"{notion.name} quantifies over {notion.population} populations with no finite family "
                           f"that decides it for a table; derive map cannot read it as a level of the table")


__all__ = ["EVERY_PRIOR", "Reading", "on_family", "reading"]
