"""Refused fetches never tell how a name resolves inside Sibyl's network.

A tenant who may submit URLs (`sourceUrl`) could otherwise map the internal network one name at a
time: "intranet.corp resolves to 10.0.0.5" answers a DNS query they cannot make themselves.
Defended: a refusal names the kind of address the URL points to (loopback, private, metadata...)
and never an address a resolver answered, in the fetcher's message and in the API's URL_REFUSED.
"""

from __future__ import annotations

import pytest

from app.net.addresses import parse_host_ip, refusal_reason
from app.net.fetch import FetchPolicy, FetchRefused, Resolver, fetch
from tests.support.graphql import GraphQLClient

ADD = """
mutation Add($input: AddEvidenceDocumentInput!) {
  addEvidenceDocument(input: $input) {
    __typename
    ... on AddEvidenceDocumentError { code message field }
  }
}
"""


def _resolving_to(*answers: str) -> Resolver:
    async def resolve(host: str, port: int) -> list[str]:
        return list(answers)

    return resolve


@pytest.mark.parametrize(
    ("answers", "kind"),
    [
        (["10.0.0.5"], "private"),
        (["93.184.216.34", "10.0.0.5"], "private"),
        (["127.0.0.2"], "loopback"),
        (["169.254.169.254"], "metadata"),
        (["::ffff:10.0.0.5"], "private"),
        (["fd12:3456::7"], "private"),
    ],
)
async def test_an_internal_answer_is_refused_by_kind_without_the_address(
    answers: list[str], kind: str
) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch("http://intranet.example/wiki", FetchPolicy(), resolver=_resolving_to(*answers))

    assert refused.value.code == "private_address"
    assert kind in refused.value.message
    for answer in answers:
        assert answer not in str(refused.value)
    assert "10.0.0.5" not in str(refused.value) and "0:a00:5" not in str(refused.value)


async def test_an_unusable_dns_answer_is_not_quoted() -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(
            "http://intranet.example/", FetchPolicy(), resolver=_resolving_to("10.0.0.5", "db-7.corp")
        )

    assert refused.value.code == "dns"
    assert "10.0.0.5" not in str(refused.value) and "db-7.corp" not in str(refused.value)


def test_the_address_policy_names_kinds_not_addresses() -> None:
    for literal in (
        "10.0.0.5",
        "127.0.0.1",
        "169.254.169.254",
        "::ffff:10.0.0.5",
        "2002:a00:5::1",
        "0.0.0.0",
    ):
        address = parse_host_ip(literal)
        assert address is not None
        reason = refusal_reason(address, allow_private=False)
        assert reason is not None and reason.endswith(("address", "(carried in an IPv6 address)"))
        assert literal not in reason and str(address) not in reason


async def test_url_refused_in_the_api_names_no_resolved_address(client: GraphQLClient) -> None:
    result = (await client.data(ADD, input={"sourceUrl": "http://localhost:9/admin"}))["addEvidenceDocument"]

    assert (result["code"], result["field"]) == ("URL_REFUSED", "sourceUrl")
    assert "loopback" in result["message"]
    assert "127.0.0.1" not in result["message"] and "::1" not in result["message"]
