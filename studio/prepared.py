"""Querysets compiled to SQL once per process and database, then run with new parameter values (issue 18).

Django compiles a queryset to SQL at every evaluation: resolving the lookups, the joins, the ordering and the
selected columns costs 0.2-0.5 ms of CPU for each of a page's small reads, several times what running the query
costs (~0.05 ms). A `PreparedQuery` is an ordinary `values_list()` queryset written with *named parameters*: at its
first use on a database it is built with a marker value for each parameter and compiled; the SQL, the position of
each marker among the query's parameters and the column converters are kept, and every later run only puts the
request's values in those positions. The queryset stays the single source of the SQL (the same on SQLite and
PostgreSQL), and the rows are converted as `values_list()` would convert them.

Parameters are whole numbers ("int" or `int`) or aware datetimes ("datetime" or `datetime`; kept as text, since
freezegun replaces the datetime class), compared with columns of those types: each is adapted for the database as
Django adapts a value of that type. Compiling refuses a query in which a marker is not found among the parameters
(inlined in the SQL, or transformed on the way), so a query this cannot replay is an error at its first run, never
wrong rows.

On PostgreSQL, outside transactions, the SQL is also prepared once per connection and run with EXECUTE
(studio.statements): PostgreSQL then plans it once instead of at every run (the profile's four reads spent ~0.6 ms
of PostgreSQL's CPU a request planning). Inside a transaction (the booking's locked reads) the plain SQL is sent.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

from .statements import Statement

_INT_MARKER = -1_987_654_000
_DATETIME_MARKER = datetime(1901, 2, 3, 4, 5, 6, 700_000, tzinfo=UTC)


def _adapt(connection, kind: str, value):
    if kind == "datetime":
        return connection.ops.adapt_datetimefield_value(value)
    return int(value)


def _kind(kind) -> str:
    """The kind "int" or "datetime", from its name or its class (freezegun's datetime class is another one)."""
    if kind == "int" or kind is int:
        return "int"
    if kind == "datetime" or (isinstance(kind, type) and kind.__name__ in ("datetime", "FakeDatetime")):
        return "datetime"
    raise TypeError(f'a prepared query\'s parameter is "int" or "datetime" (or those classes), not {kind!r}')


def _marker(kind: str, index: int):
    if kind == "int":
        return _INT_MARKER - index
    return _DATETIME_MARKER.replace(microsecond=_DATETIME_MARKER.microsecond + index)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple  # (position in params, parameter name, its kind)
    converters: tuple  # (column, converter functions, expression)
    names: tuple  # the selected columns' names


class PreparedQuery:
    """`PreparedQuery(lambda member_id: Model.objects.filter(member_id=member_id).values_list(...), member_id="int")`;
    `.rows(member_id=12)` runs it: a list of tuples, as `values_list()` gives them."""

    def __init__(self, build: Callable[..., QuerySet], **parameters):
        self._build = build
        self._parameters = {name: _kind(kind) for name, kind in parameters.items()}  # an unknown kind fails at import
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._statements: dict[str, Statement] = {}  # PostgreSQL's SQL text (with its limit) -> its statement

    def _compile(self, connection, alias: str) -> _Compiled:
        markers = {name: _marker(kind, i) for i, (name, kind) in enumerate(self._parameters.items())}
        queryset = self._build(**markers)
        query = queryset.query
        compiler = query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots = []
        for name, kind in self._parameters.items():
            adapted = _adapt(connection, kind, markers[name])
            found = [i for i, p in enumerate(params) if type(p) is type(adapted) and p == adapted]
            if not found:
                raise ValueError(f"parameter {name!r} is not a parameter of the compiled query: {sql}")
            slots.extend((i, name, kind) for i in found)
        if str(-_INT_MARKER)[:7] in sql or _DATETIME_MARKER.date().isoformat() in sql:
            raise ValueError(f"a marker was inlined in the compiled query: {sql}")
        columns = [s[0] for s in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("composite fields are not supported")
        converters = tuple((i, tuple(c), e) for i, (c, e) in compiler.get_converters(columns).items())
        names = tuple(query.selected or (*query.extra_select, *query.values_select, *query.annotation_select))
        compiled = _Compiled(sql, tuple(params), tuple(slots), converters, names)
        self._compiled[(alias, connection.vendor)] = compiled
        return compiled

    def _bind(self, connection, using: str, compiled: _Compiled, values: dict) -> list:
        """The compiled query's parameters with this run's values in their positions."""
        params = list(compiled.params)
        for index, name, kind in compiled.slots:
            params[index] = _adapt(connection, kind, values[name])
        return params

    def _run(self, using: str, limit: int | None, offset: int, values: dict) -> tuple[_Compiled, list]:
        connection = connections[using]
        compiled = self._compiled.get((using, connection.vendor)) or self._compile(connection, using)
        params = self._bind(connection, using, compiled, values)
        sql = compiled.sql
        if limit is not None:
            sql = f"{sql} {connection.ops.limit_offset_sql(offset, offset + limit)}"
        with connection.cursor() as cursor:
            rows = None
            # Prepared only without an offset: a later page's SQL holds its offset, and a statement for every page
            # visited would stay in each connection (and in `_statements`) for as long as they live.
            if connection.vendor == "postgresql" and not offset:
                statement = self._statements.get(sql)
                if statement is None:
                    statement = self._statements.setdefault(sql, Statement(sql, prefix="studio_query"))
                rows = statement.rows(connection, cursor, params)
            if rows is None:
                cursor.execute(sql, params)
                rows = cursor.fetchall()
        if compiled.converters:
            rows = [list(row) for row in rows]
            for row in rows:
                for index, functions, expression in compiled.converters:
                    value = row[index]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[index] = value
        return compiled, rows

    def rows(self, *, using: str = DEFAULT_DB_ALIAS, limit: int | None = None, offset: int = 0, **values) -> list:
        """The rows (tuples or lists, in the selected order), `limit` rows from `offset` if given."""
        return self._run(using, limit, offset, values)[1]

    def dicts(self, *, using: str = DEFAULT_DB_ALIAS, limit: int | None = None, offset: int = 0, **values) -> list:
        """The rows as `values()` gives them: {column name: value}."""
        compiled, rows = self._run(using, limit, offset, values)
        names = compiled.names
        return [dict(zip(names, row, strict=True)) for row in rows]
