"""studio.valid_queries: a list's query checked once per values, refused every time it is invalid."""

import pytest
from django.http import QueryDict
from rest_framework import serializers

from studio import valid_queries
from studio.apis import PageQuery
from studio.valid_queries import validated_query


class Query(PageQuery):
    search = serializers.CharField(required=False, allow_blank=True, default="", max_length=5)


@pytest.fixture(autouse=True)
def _fresh():
    valid_queries.clear()


def test_a_valid_query_is_checked_once_and_answers_a_copy(monkeypatch):
    runs = []
    original = Query.is_valid
    monkeypatch.setattr(Query, "is_valid", lambda self, **kw: runs.append(1) or original(self, **kw))
    first = validated_query(Query, QueryDict("page=2&search=%20ab%20&other=1"))
    first["page"] = 99
    again = validated_query(Query, QueryDict("page=2&search=%20ab%20&other=2"))  # other parameters: not read
    assert again == {"page": 2, "search": "ab"} and len(runs) == 1
    assert validated_query(Query, QueryDict("page=3")) == {"page": 3, "search": ""} and len(runs) == 2
    assert validated_query(Query, {"page": "2", "search": " ab "}) == {"page": 2, "search": "ab"}


@pytest.mark.parametrize("query", ["page=0", "page=", "page_size=101", "search=abcdefg", "page=x"])
def test_an_invalid_query_is_refused_every_time(query):
    for _ in range(2):
        with pytest.raises(serializers.ValidationError):
            validated_query(Query, QueryDict(query))


def test_every_value_sent_counts():
    assert validated_query(Query, QueryDict("page=1&page=2")) == {"page": 2, "search": ""}
    assert validated_query(Query, QueryDict("page=2&page=1")) == {"page": 1, "search": ""}
