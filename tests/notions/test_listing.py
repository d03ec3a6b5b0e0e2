"""The listing records of the established families: every record names its notion, and the IDs users
type are unique and found again by the catalogue."""
from symbolic.notions.listed import catalog, listing


def test_every_record_of_the_established_families_is_complete_and_unique():
    ids = [e.id for e in listing.ENTRIES]
    assert len(ids) == len(set(ids)) and "pure-dp" in ids and "approx-dp" in ids
    for e in listing.ENTRIES:
        assert e.notion.name and e.source and e.definition, e.id


def test_the_catalogue_finds_each_record_by_its_id():
    for e in listing.ENTRIES:
        assert catalog.find_notion(e.id).notion is e.notion
