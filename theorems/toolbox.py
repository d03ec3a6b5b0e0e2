"""The standard toolbox: amplification by subsampling and composition, the constants the field uses.

Beside the sources' claims, each entry states one published constant with engine objects and cites its
paper; the engine decides it as it decides the sources' (a proof within the stated sizes, a verified
counterexample, or a derivation whose checks must pass). Published-style constants with a known error
(q² where q belongs; the √k term of advanced composition halved) are stated as the errors they are and
must be refuted.

- Poisson subsampling at rate q (add/remove one record): ε-DP becomes log(1 + q(e^ε − 1))-DP and (ε, δ)-DP
  becomes (log(1 + q(e^ε − 1)), qδ)-DP (Li, Qardaji, Su 2012; Balle, Barthe, Gaboardi 2018, Thm. 8), tight
  at randomized response.
- Basic composition: ε's and δ's add (Dwork, Kenthapadi, McSherry, Mironov, Naor 2006).
- Sampling m of N without replacement (replace one): log(1 + (m/N)(e^ε − 1)) for mechanisms of a set of records
  (Balle, Barthe, Gaboardi 2018); a mechanism that reads its records' order is outside that hypothesis.
- The optimal composition of k ε-DP mechanisms: δ(ε′) of the k-fold randomized response, which dominates
  every k-fold ε-DP composition (Kairouz, Oh, Viswanath 2015, Thm. 3.3).
- Advanced composition: ε′ = √(2k ln(1/δ′))·ε + kε(e^ε − 1) with δ′ (Dwork, Rothblum, Vadhan 2010, Thm. III.3).
- The Gaussian mechanism composes as μ-GDP with μ√k (Dong, Roth, Su 2022, Cor. 3.3); Rényi divergences add
  (Mironov 2017, Prop. 1); the subsampled Gaussian's Rényi levels (Mironov, Talwar, Zhang 2019).
- The accountants' conversion of (α, ε)-RDP to (ε′, δ)-DP, at α = 2: ε′ = ε + log(1/δ)/(α − 1) (Mironov 2017,
  Prop. 3) and ε′ = ε + log((α − 1)/α) − (log δ + log α)/(α − 1) (Balle, Berrada, Chatzi, Dong, Gastaldi,
  Kacprzyk, Perez-Ortiz, Shen 2020, Thm. 21), i.e. e^ε′ = E/δ and E/(4δ) with E = e^ε.
"""
from __future__ import annotations

import sympy as sp

from fractions import Fraction

from symbolic.core.ops import exact_sign
from symbolic.core.terms import Compose, MechVar, PoissonSubsample, SampleWithoutReplacement
from symbolic.core.verdicts import Derived, Sizes
from symbolic.derive.accounting.conversions import rdp_conversions, zcdp_conversions
from symbolic.derive.accounting.run import Stage, account
from symbolic.derive.level import derive_level
from symbolic.notions.claims import Claim, E, Implies, NotImplies, Param
from symbolic.notions.families.dp import ApproxDP, PureDP
from symbolic.notions.zoo.dp_laws import RenyiDP2

SRC = "B"
Es = E.symbol
Q = Param("q", lower=0, upper=1, lower_strict=True, upper_strict=True)
DELTA = Param("delta", lower=0, upper=1)
q, delta = Q.symbol, DELTA.symbol
A = MechVar("A")
SUBSAMPLED = PoissonSubsample(A, q)
AMPLIFIED = 1 + q * (Es - 1)          # e^ε′ with ε′ = log(1 + q(e^ε − 1))
# parts are pinned: the term is defined for one record over two values (which suffice); a refutation is
# searched at two outputs, where the smallest witness lies, and a proof at three
SIZES, WITNESS_SIZES = Sizes(1, 2, 3), Sizes(1, 2, 2)

RR_E = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"E": "E>1"},
        "rows": {"0": ["E/(1+E)", "1/(1+E)"], "1": ["1/(1+E)", "E/(1+E)"]}}


def _rr(eps) -> dict:
    """Randomized response at ε: the dominating pair of ε-DP (Kairouz, Oh, Viswanath 2015)."""
    hi, lo = f"exp({eps})/(1+exp({eps}))", f"1/(1+exp({eps}))"
    return {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [hi, lo], "1": [lo, hi]}}


def _derive_amplification_tight():
    """The level of randomized response at E, Poisson-subsampled at q, derived by the table engine."""
    doc = {"kind": "subsampled", "of": RR_E, "sampling": "poisson", "rate": "q", "params": {"q": "0<q<1"}}
    d = derive_level("pure-dp", doc)
    E_, q_ = (sp.Symbol(n, positive=True) for n in ("E", "q"))
    stated = sp.log(1 + q_ * (E_ - 1))
    got = d.formula.xreplace({s: {"E": E_, "q": q_}[s.name] for s in d.formula.free_symbols})
    return Derived(got, "randomized response at E > 1 (ε = log E), Poisson-subsampled at 0 < q < 1",
                   (("the maximiser was decided exactly", d.proved),
                    (f"the derived level {got} equals log(1 + q(E − 1))", sp.simplify(got - stated) == 0),
                    ("every check of the derivation passed", d.ok)),
                   {"level_ratio": d.level_ratio})


def _kov_sum(k, eps, eps_prime):
    """δ(ε′) of k-fold ε-randomized response written from Kairouz, Oh, Viswanath (2015), Thm. 3.3: the sum
    over the number i of outputs favouring the second database, of C(k, i)(e^{ε(k−i)} − e^{ε′}e^{εi})/(1+e^ε)^k
    over the i with ε(k − 2i) > ε′."""
    e = sp.exp(eps)
    return sp.Add(*(sp.binomial(k, i) * (e ** (k - i) - sp.exp(eps_prime) * e ** i) / (1 + e) ** k
                    for i in range(k + 1) if exact_sign(eps * (k - 2 * i) - eps_prime) > 0))


def _derive_kov_five():
    k, eps, eps_prime = 5, sp.Rational(1, 2), sp.Integer(1)
    d = derive_level("approx-dp", {"kind": "composition", "of": _rr(eps), "times": k}, params={"eps": "1"})
    want = _kov_sum(k, eps, eps_prime)
    lo, hi = d.enclosure
    return Derived(d.value, f"{k}-fold randomized response at ε = {eps}, δ at ε′ = {eps_prime}",
                   (("the k-fold level's checks passed", d.ok),
                    ("it equals the optimal-composition sum exactly", exact_sign(d.value - want) == 0),
                    ("it is 0.184097926255053 to 1e-12", abs(lo - sp.Rational("0.184097926255053")) < sp.Rational(1, 10 ** 12)
                     and hi - lo < sp.Rational(1, 10 ** 20))),
                   {"enclosure": (lo, hi)})


K_ADV, EPS_ADV, DELTA_ADV = 100, sp.Rational(1, 100), sp.Rational(1, 10 ** 5)


def advanced_epsilon(k, eps, delta_prime, factor=1):
    """Dwork, Rothblum, Vadhan (2010), Thm. III.3: ε′ = √(2k ln(1/δ′))·ε·factor + kε(e^ε − 1)."""
    return sp.sqrt(2 * k * sp.log(1 / delta_prime)) * eps * factor + k * eps * (sp.exp(eps) - 1)


def _delta_at(eps_prime):
    d = derive_level("approx-dp", {"kind": "composition", "of": _rr(EPS_ADV), "times": K_ADV},
                     params={"eps": eps_prime})
    return d, d.enclosure


def _tight_epsilon():
    """The smallest ε′ on a 1e-9 grid whose certified δ(ε′) is ≤ δ′ (δ decreases in ε′): a bisection."""
    lo, hi = sp.Rational(0), sp.Rational(1)
    while hi - lo > sp.Rational(1, 10 ** 9):
        mid = (lo + hi) / 2
        _, (dlo, dhi) = _delta_at(mid)
        if dhi <= DELTA_ADV:
            hi = mid
        elif dlo > DELTA_ADV:
            lo = mid
        else:
            break
    return lo, hi


def _derive_advanced():
    drv = advanced_epsilon(K_ADV, EPS_ADV, DELTA_ADV)
    d, (dlo, dhi) = _delta_at(drv)
    lo, hi = _tight_epsilon()
    return Derived(drv, f"{K_ADV}-fold ε = {EPS_ADV} (the k-fold randomized response dominates), δ′ = {DELTA_ADV}",
                   (("the k-fold level's checks passed", d.ok),
                    (f"δ at the advanced-composition ε′ ≈ {sp.N(drv, 15)} is {sp.Float(dhi, 6)} ≤ δ′ (the bound is "
                     f"valid)", dhi <= DELTA_ADV),
                    (f"the tight ε′ lies in [{sp.Float(lo, 12)}, {sp.Float(hi, 12)}], below the advanced one by "
                     f"{sp.N(drv - hi, 6)}", hi < drv and abs(lo - sp.Rational("0.337173920729573")) < sp.Rational(1, 10 ** 6))),
                   {"tight_epsilon": (lo, hi), "delta_at_bound": (dlo, dhi)})


def _derive_advanced_halved():
    half = advanced_epsilon(K_ADV, EPS_ADV, DELTA_ADV, factor=sp.Rational(1, 2))
    d, (dlo, dhi) = _delta_at(half)
    return Derived(half, f"{K_ADV}-fold randomized response at ε = {EPS_ADV}, at the halved bound ε′ ≈ "
                        f"{sp.N(half, 12)}",
                   (("the k-fold level's checks passed", d.ok),
                    (f"δ(ε′) ≥ {sp.Float(dlo, 6)} > δ′ = {DELTA_ADV}: the halved bound fails (the k-fold randomized "
                     f"response is the witness)", dlo > DELTA_ADV)),
                   {"delta_at_halved": (dlo, dhi)})


GAUSS = {"kind": "density", "outputs": "reals", "domain": [0, 1], "params": {"sigma": "sigma>0"},
         "density": {"0": "exp(-y^2/(2*sigma^2))/sqrt(2*pi*sigma^2)",
                     "1": "exp(-(y-1)^2/(2*sigma^2))/sqrt(2*pi*sigma^2)"}}


def _derive_renyi_adds():
    """Rényi levels of a heterogeneous composition add (Mironov 2017, Prop. 1): the engine's level of the list
    against the sum of the two tables' levels, each derived on its own."""
    half, one = _rr(sp.Rational(1, 2)), _rr(sp.Integer(1))
    both = derive_level("renyi-dp", {"kind": "composition", "of": [half, one]}, params={"alpha": "3"})
    parts = [derive_level("renyi-3", t) for t in (half, one)]
    total = sp.Add(*(p.formula for p in parts))
    return Derived(both.value, "randomized response at ε = 1/2 and at ε = 1, composed; order α = 3",
                   (("the composition's checks passed", both.ok), ("each table's level was derived", all(p.ok for p in parts)),
                    ("the composition's level is the sum of the two", exact_sign(both.value - total) == 0)))


def _derive_gaussian_sixteen():
    comp = {"kind": "composition", "of": GAUSS, "times": 16}
    mu = derive_level("gaussian-dp", comp, params={"sigma": "2"})
    delta = derive_level("approx-dp", comp, params={"sigma": "2", "eps": "1"})
    lo, hi = delta.enclosure
    return Derived(mu.formula, "16 runs of the Gaussian mechanism (sensitivity 1, noise σ), at σ = 2",
                   (("the μ's checks passed", mu.ok), ("μ = √16/σ: μ² adds over the runs (μ = 2 at σ = 2)",
                                                       mu.value == 2 and sp.simplify(mu.formula ** 2 * sp.Symbol(
                                                           "sigma", positive=True) ** 2 - 16) == 0),
                    ("δ(1) = 0.509861660054670 to 1e-12", delta.ok and abs(lo - sp.Rational("0.509861660054670"))
                     < sp.Rational(1, 10 ** 12) and hi - lo < sp.Rational(1, 10 ** 20))),
                   {"delta_at_1": (lo, hi)})


def _derive_sampled_gaussian():
    q = sp.Rational(1, 100)
    sub = {"kind": "subsampled", "of": GAUSS, "sampling": "poisson", "rate": str(q)}
    out, checks = {}, []
    for alpha, published in ((2, "1.718134220745479e-4"), (3, "2.646375745846613e-4"), (8, "8.936439076060318e-4")):
        d = derive_level("renyi-dp", sub, params={"sigma": "1", "alpha": str(alpha)})
        lo, hi = d.enclosure
        out[alpha] = (lo, hi)
        checks.append((f"α = {alpha}: {sp.N(lo, 16)}, as published ({published}), the forward direction the larger",
                       d.ok and abs(lo / sp.Rational(sp.Float(published, 20)) - 1) < sp.Rational(1, 10 ** 12)
                       and "forward" in d.where))
    two = derive_level("renyi-2", sub, params={"sigma": "1"})
    checks.append(("at α = 2 the level is log(1 + q²(e − 1)) exactly",
                   exact_sign(two.value - sp.log(1 + q ** 2 * (sp.E - 1))) == 0))
    return Derived(two.value, "the Gaussian mechanism (σ = 1, sensitivity 1) under Poisson sampling at q = 1/100",
                   tuple(checks), {"enclosures": out})


# δ ≤ 1/4 keeps e^ε′ = E/(4δ) at least E (the conversions are stated for small δ); two outputs decide it, a
# third costs more than the audit's effort
DELTA_SMALL = Param("delta", lower=0, upper=sp.Rational(1, 4), lower_strict=True)
CONVERSION_SIZES = Sizes(1, 2, 2)

def _derive_training_run():
    """A private training run (the Poisson-subsampled Gaussian, q = 1/100, σ = 1, 1000 steps) at δ = 10⁻⁵: its
    tight ε enclosed with proofs on both sides, against dp-accounting's reference numbers for it (pessimistic
    privacy-loss distribution 1.82824, optimistic 1.77824) and the RDP route of Balle et al. (2020)."""
    run, delta = (Stage("gaussian", Fraction(1), Fraction(1, 100), 1000),), Fraction(1, 10 ** 5)
    lo, hi = account(run, delta=delta).epsilon
    balle = dict((n, e) for n, e, _ in rdp_conversions(run, delta, orders=(7, 8, 9)))["Balle et al. 2020, Thm. 21"]
    return Derived(sp.Rational(hi.numerator, hi.denominator),
                   "1000 steps of the Gaussian mechanism (σ = 1) on Poisson samples at q = 1/100, δ = 1e-5",
                   ((f"the certified upper end {float(hi):.7f} is at most 1.8283 (the library's pessimistic 1.82824 "
                     f"rounded up)", hi <= Fraction("1.8283")),
                    (f"the certified lower end {float(lo):.7f} is at least 1.7783 (its optimistic 1.77824)",
                     lo >= Fraction("1.7783")),
                    (f"the enclosure is at most 0.01 wide ({float(hi - lo):.5f})", hi - lo <= Fraction(1, 100)),
                    (f"the RDP route (Balle et al. 2020, Thm. 21) gives {float(balle):.4f}: valid, "
                     f"{float(balle - hi):.3f} above the tight ε", balle >= hi)),
                   {"enclosure": f"[{float(lo):.7f}, {float(hi):.7f}]", "rdp_balle": f"{float(balle):.7f}"})


def _derive_zcdp_conversions():
    """zCDP to (ε, δ): 16 runs of the Gaussian mechanism at σ = 4 (no sampling) are ρ = 1/2-zCDP; Canonne, Kamath
    and Steinke's conversion and Bun and Steinke's, each a valid bound above the run's certified tight ε."""
    run, delta = (Stage("gaussian", Fraction(4), Fraction(1), 16),), Fraction(1, 10 ** 5)
    lo, hi = account(run, delta=delta).epsilon
    got = {name.split(",")[0]: (eps, a) for name, eps, a in zcdp_conversions(run, delta)}
    (cks, alpha), (bs, _) = got["Canonne"], got["Bun"]
    shown = -((-cks * 10 ** 7) // 1)      # rounded up: still a valid ε
    return Derived(sp.Rational(int(shown), 10 ** 7),
                   "16 steps of the Gaussian mechanism (σ = 4) without sampling, ρ = 1/2, δ = 1e-5",
                   ((f"the conversion of Canonne, Kamath, Steinke at α = {alpha} gives {float(cks):.6f}, above the "
                     f"certified tight ε in [{float(lo):.7f}, {float(hi):.7f}] (a valid bound)", cks >= hi),
                    (f"it is below Bun and Steinke's ρ + 2√(ρ log(1/δ)) = {float(bs):.6f}", cks < bs)),
                   {"enclosure": f"[{float(lo):.7f}, {float(hi):.7f}]", "cks": f"{float(cks):.7f}",
                    "bun_steinke": f"{float(bs):.7f}"})


E1, E2 = Param("E1", lower=1), Param("E2", lower=1)
D1, D2 = Param("delta1", lower=0, upper=1), Param("delta2", lower=0, upper=1)
A1, A2 = MechVar("A1"), MechVar("A2")   # run independently (the adaptive form takes 43 s with both solvers)
BOTH_RUNS = (ApproxDP(E1.symbol, D1.symbol).of(A1), ApproxDP(E2.symbol, D2.symbol).of(A2))

CLAIMS = [
    Claim("B-AMP", "⇒", SRC, "Poisson subsampling at rate q (add/remove): ε-DP ⇒ log(1 + q(e^ε − 1))-DP "
          "(Li, Qardaji, Su 2012; Balle, Barthe, Gaboardi 2018, Thm. 8)", "holds",
          (Implies(PureDP(Es).of(A), PureDP(AMPLIFIED).of(SUBSAMPLED), sizes=SIZES),), params=(E, Q), sizes=SIZES),
    Claim("B-AMP.tight", "derived", SRC, "the amplified ε′ = log(1 + q(e^ε − 1)) is attained by randomized "
          "response subsampled at q (the table engine's level, as a formula in E and q)", "holds",
          derive=_derive_amplification_tight),
    Claim("B-AMP.q2", "⇏", SRC, "a published-style error: ε-DP subsampled at q is log(1 + q²(e^ε − 1))-DP "
          "(q² where q belongs)", "fails",
          (NotImplies(PureDP(Es).of(A), PureDP(1 + q ** 2 * (Es - 1)).of(SUBSAMPLED), sizes=WITNESS_SIZES),),
          params=(E, Q), sizes=WITNESS_SIZES),
    Claim("B-AMP.approx", "⇒", SRC, "Poisson subsampling at q: (ε, δ)-DP ⇒ (log(1 + q(e^ε − 1)), qδ)-DP "
          "(Balle, Barthe, Gaboardi 2018, Thm. 8)", "holds",
          (Implies(ApproxDP(Es, delta).of(A), ApproxDP(AMPLIFIED, q * delta).of(SUBSAMPLED), sizes=SIZES),), params=(E, Q, DELTA),
          sizes=SIZES),
    Claim("B-AMP.approx.q2", "⇏", SRC, "a published-style error: (ε, δ)-DP subsampled at q is "
          "(log(1 + q(e^ε − 1)), q²δ)-DP", "fails",
          (NotImplies(ApproxDP(Es, delta).of(A), ApproxDP(AMPLIFIED, q ** 2 * delta).of(SUBSAMPLED), sizes=WITNESS_SIZES),),
          params=(E, Q, DELTA), sizes=WITNESS_SIZES),
    Claim("B-BASIC", "⇒", SRC, "basic composition (Dwork, Kenthapadi, McSherry, Mironov, Naor 2006; Dwork, Roth "
          "2014, Thm. 3.16): an (ε1, δ1)-DP and an (ε2, δ2)-DP mechanism run on one database are (ε1 + ε2, δ1 + δ2)-DP",
          "holds", (Implies(BOTH_RUNS, ApproxDP(E1.symbol * E2.symbol, D1.symbol + D2.symbol).of(Compose(A1, A2))),),
          params=(E1, E2, D1, D2), sizes=Sizes(1, 2, 2)),
    Claim("B-BASIC.delta1", "⇏", SRC, "a published-style error: the δ's do not add, (ε1 + ε2, δ1)-DP", "fails",
          (NotImplies(BOTH_RUNS, ApproxDP(E1.symbol * E2.symbol, D1.symbol).of(Compose(A1, A2))),),
          params=(E1, E2, D1, D2), sizes=Sizes(1, 2, 2)),
    Claim("B-WOR", "⇒", SRC, "sampling one of N = 3 records without replacement (replace one record): ε-DP ⇒ "
          "log(1 + (1/3)(e^ε − 1))-DP (Balle, Barthe, Gaboardi 2018)", "holds",
          (Implies(PureDP(Es).of(A), PureDP(1 + (Es - 1) / 3).of(SampleWithoutReplacement(A, 3)), sizes=WITNESS_SIZES),),
          sizes=WITNESS_SIZES),
    Claim("B-WOR.sq", "⇏", SRC, "a published-style error: sampling one of three is log(1 + (1/3)²(e^ε − 1))-DP",
          "fails", (NotImplies(PureDP(Es).of(A), PureDP(1 + (Es - 1) / 9).of(SampleWithoutReplacement(A, 3)),
                               sizes=WITNESS_SIZES),), sizes=WITNESS_SIZES),
    Claim("B-WOR.order", "⇏", SRC, "outside its hypothesis: sampling two of three records and passing them in their "
          "order to a mechanism that reads the order is not log(1 + (2/3)(e^ε − 1))-DP (the constant is for "
          "mechanisms of a set of records)", "fails",
          (NotImplies(PureDP(Es).of(A), PureDP(1 + 2 * (Es - 1) / 3).of(SampleWithoutReplacement(A, 3)),
                      sizes=Sizes(2, 2, 2)),), sizes=Sizes(2, 2, 2)),
    Claim("B-WOR.set", "⇒", SRC, "sampling two of three records without replacement and passing them as a set "
          "(replace one record; a mechanism blind to their order): ε-DP ⇒ log(1 + (2/3)(e^ε − 1))-DP (Balle, Barthe, "
          "Gaboardi 2018, for mechanisms of a set of records)", "holds",
          (Implies(PureDP(Es).of(A), PureDP(1 + 2 * (Es - 1) / 3).of(SampleWithoutReplacement(A, 3, True)),
                   sizes=Sizes(2, 2, 2)),), sizes=Sizes(2, 2, 2)),
    Claim("B-WOR.set.half", "⇏", SRC, "a published-style error: sampling two of three records as a set is "
          "log(1 + (1/2)(e^ε − 1))-DP (the rate m/N taken as 1/2)", "fails",
          (NotImplies(PureDP(Es).of(A), PureDP(1 + (Es - 1) / 2).of(SampleWithoutReplacement(A, 3, True)),
                      sizes=Sizes(2, 2, 2)),), sizes=Sizes(2, 2, 2)),
    Claim("B-KOV.5", "derived", SRC, "optimal composition (Kairouz, Oh, Viswanath 2015, Thm. 3.3): five runs of "
          "ε = 1/2 randomized response have δ(ε′ = 1) = 0.184097926255053, the optimal-composition sum",
          "holds", derive=_derive_kov_five),
    Claim("B-DRV.100", "derived", SRC, "advanced composition (Dwork, Rothblum, Vadhan 2010, Thm. III.3): 100 runs "
          "of 0.01-DP are (0.489902758302976, 10⁻⁵)-DP; the tight ε′ at δ′ = 10⁻⁵ is 0.337173920729573", "holds",
          derive=_derive_advanced),
    Claim("B-RDP.add", "derived", SRC, "Rényi composition (Mironov 2017, Prop. 1): the Rényi level of two different "
          "mechanisms composed is the sum of their levels, at every order", "holds", derive=_derive_renyi_adds),
    Claim("B-GDP.16", "derived", SRC, "Gaussian composition (Dong, Roth, Su 2022, Cor. 3.3): 16 runs of the Gaussian "
          "mechanism at σ = 2 are μ = 2-GDP, with δ(ε = 1) = 0.509861660054670", "holds", derive=_derive_gaussian_sixteen),
    Claim("B-SGM", "derived", SRC, "the subsampled Gaussian (Mironov, Talwar, Zhang 2019): q = 1/100, σ = 1 has Rényi "
          "levels 1.718134220745479e-4, 2.646375745846613e-4, 8.936439076060318e-4 at α = 2, 3, 8", "holds",
          derive=_derive_sampled_gaussian),
    Claim("B-CONV.mironov", "⇒", SRC, "RDP to DP (Mironov 2017, Prop. 3): (2, ε)-Rényi DP ⇒ (ε + log(1/δ), δ)-DP",
          "holds", (Implies(RenyiDP2(Es), ApproxDP(Es / DELTA_SMALL.symbol, DELTA_SMALL.symbol), sizes=CONVERSION_SIZES),),
          params=(E, DELTA_SMALL), sizes=CONVERSION_SIZES),
    Claim("B-CONV.balle", "⇒", SRC, "RDP to DP (Balle et al. 2020, Thm. 21), at α = 2: (2, ε)-Rényi DP ⇒ "
          "(ε + log(1/(4δ)), δ)-DP, tighter than Mironov's by log 4", "holds",
          (Implies(RenyiDP2(Es), ApproxDP(Es / (4 * DELTA_SMALL.symbol), DELTA_SMALL.symbol), sizes=CONVERSION_SIZES),),
          params=(E, DELTA_SMALL), sizes=CONVERSION_SIZES),
    Claim("B-CONV.alpha", "⇏", SRC, "a published-style error: the log(1/δ) term divided by α instead of α − 1, "
          "(2, ε)-Rényi DP ⇒ (ε + log(1/δ)/2, δ)-DP", "fails",
          (NotImplies(RenyiDP2(Es), ApproxDP(Es / sp.sqrt(DELTA_SMALL.symbol), DELTA_SMALL.symbol),
                      sizes=CONVERSION_SIZES),), params=(E, DELTA_SMALL), sizes=CONVERSION_SIZES),
    Claim("B-CONV.cks", "derived", SRC, "zCDP to DP (Canonne, Kamath, Steinke 2020, Cor. 13): ρ-zCDP is "
          "(αρ + log((α − 1)/α) − (log δ + log α)/(α − 1), δ)-DP for every α > 1; for 16 runs of the Gaussian at "
          "σ = 4 it is valid and below Bun and Steinke's ρ + 2√(ρ log(1/δ))", "holds",
          derive=_derive_zcdp_conversions),
    Claim("B-ACCT.dpsgd", "derived", SRC, "certified accounting of a private training run: 1000 steps of the "
          "Gaussian (σ = 1) on Poisson samples at q = 1/100 are (ε, 1e-5)-DP for ε in a proved interval within "
          "dp-accounting's bounds [1.77824, 1.82824], at most 0.01 wide", "holds", derive=_derive_training_run),
    Claim("B-DRV.half", "derived", SRC, "a published-style error: advanced composition with the √k term halved "
          "fails at 100 runs of 0.01-DP and δ′ = 10⁻⁵ (δ there exceeds δ′)", "fails",
          derive=_derive_advanced_halved),
]
