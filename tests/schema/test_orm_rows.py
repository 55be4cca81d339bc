"""Column values read straight off loaded rows (`schema.types.orm_rows`) must be the row's current values,
read through SQLAlchemy whenever the row does not hold them all."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from app.db.models import Claim
from app.db.session import SessionFactory
from schema.types.claim_enums import ClaimType
from schema.types.orm_rows import column_values, enum_member
from tests.support.analysed import seed_analysed_report

COLUMNS = frozenset({"text", "claim_type", "reasoning"})


def test_a_row_holding_every_column_is_read_from_its_dictionary() -> None:
    row = Claim(text="Emissions fell.", claim_type="quantitative", reasoning=None)

    values = column_values(row, COLUMNS)

    assert values is row.__dict__
    assert values["text"] == "Emissions fell."
    assert (values["claim_type"], values["reasoning"]) == ("quantitative", None)


def test_a_column_never_set_is_read_through_the_orm() -> None:
    row = Claim(text="Emissions fell.", claim_type="quantitative")

    values = column_values(row, COLUMNS)

    assert values is not row.__dict__
    assert values["reasoning"] is None and values["text"] == "Emissions fell."


async def test_an_expired_row_is_refreshed_from_the_database(
    session_factory: SessionFactory, clean_db: None
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    async with session_factory() as session:
        row = (await session.scalars(select(Claim).where(Claim.id == seeded.claim_ids[0]))).one()
        await session.execute(update(Claim).values(text="Rewritten."))
        session.expire(row)

        values = await session.run_sync(lambda _: dict(column_values(row, COLUMNS)))

    assert values["text"] == "Rewritten."


def test_enum_members_are_those_the_enum_gives() -> None:
    for member in ClaimType:
        assert enum_member(ClaimType, member.value) is ClaimType(member.value)
    with pytest.raises(ValueError, match="not a valid"):
        enum_member(ClaimType, "no such type")
    with pytest.raises(ValueError, match="not a valid"):
        enum_member(ClaimType, ["unhashable"])
