"""A notion read through a closed form equal to it only at some sizes (ε-semantic privacy through its
two-point form, at n = 1 and |𝒟| = 2) is read so at exactly those sizes: at every other (n, |𝒟|) of a grid the
reading is refused, whichever of n and |𝒟| differs, and the given-prior form is read the same way."""
from __future__ import annotations

import pytest

from symbolic.core.errors import InvalidParameter
from symbolic.notions.listed.readings import AT_SIZES, EVERY_PRIOR, reading
from symbolic.notions.listed.catalog import find_notion

GRID = [(n, domain) for n in (1, 2, 3) for domain in (2, 3, 4)]
AT_SIZE_NOTIONS = sorted(AT_SIZES) + sorted(k for k, v in EVERY_PRIOR.items() if v.name in AT_SIZES)


@pytest.mark.parametrize("name", AT_SIZE_NOTIONS)
@pytest.mark.parametrize("n, domain", GRID)
def test_a_closed_form_reading_is_used_only_at_the_sizes_where_it_is_proved(name, n, domain):
    notion = find_notion(name).notion
    every = EVERY_PRIOR.get(name, notion).name
    sizes, form = AT_SIZES[every]
    if (n, domain) == sizes:
        r = reading(notion, n, domain)
        assert r.notion is form and r.hypothesis is form
    else:
        with pytest.raises(InvalidParameter, match=f"only at n = {sizes[0]}, \\|D\\| = {sizes[1]}"):
            reading(notion, n, domain)
