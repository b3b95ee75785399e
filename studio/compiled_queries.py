"""Staff lists' queries compiled once per shape, then run from the cached SQL (issue 18).

Django compiles a queryset to SQL at every evaluation. For the staff lists (users, orders, passes, sessions) that
compilation cost 0.1-0.5 ms of CPU a query, more than running the query itself. Here a list's count and page are
compiled once per *shape* and then run from the cached SQL text and parameters:

- the caller's `key` must name everything the SQL depends on (its filters, search words, order, slice): the same
  key always builds the same queryset. `build` is a pure function of it (and of the late values below).
- values only known per request (the time, the page's ids) are *late*: `build` receives stand-ins for them, the
  queryset is compiled with two different stand-ins, and the positions where the parameters differ are where the
  real values go. A template is kept only if both compilations give the same SQL text and differ exactly at
  stand-ins; a late value must therefore be used as a query parameter only (never to choose the SQL). Anything
  else (an aggregate count that needs a subquery, an empty `IN`) is marked uncacheable and runs through the ORM as
  before.
- rows come back through the converters the ORM would apply (SQLite's dates, booleans and decimals).

The SQL is exactly the ORM's; query counts and `CaptureQueriesContext` see the same queries (on PostgreSQL, outside
transactions, an `EXECUTE` of the SQL prepared once per connection: studio.statements).

Paged by `CompiledPaginator`, a list asks for its count and the requested page in one query: the page's rows carry
the list's count (`(SELECT COUNT(*) ... same filters)`, which PostgreSQL runs once, as an InitPlan). A page with no
row (past the end, an empty list) cannot carry it: the count then runs alone, as before.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.core.paginator import Paginator
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Func, IntegerField, QuerySet, Subquery
from django.db.models.query import ValuesIterable
from django.db.models.sql.query import Query

from .pagination import offset_fits
from .statements import Statement

MAX_TEMPLATES = 512
_templates: OrderedDict = OrderedDict()
_statements: OrderedDict = OrderedDict()  # SQL text -> its prepared statement (studio.statements)
_lock = threading.Lock()
_UNCACHEABLE = object()


class _Uncacheable(Exception):
    pass


class _Compiled(Exception):
    def __init__(self, sql, params, extra):
        super().__init__()
        self.result = (sql, tuple(params), extra)


class _CountOnly(Query):
    """A query whose count compiles instead of running (get_count -> get_aggregation -> get_compiler): only the
    plain `SELECT COUNT(*) ... WHERE ...`; a count Django wraps in a subquery is left to the ORM."""

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        compiler = super().get_compiler(using, connection, elide_empty)
        if "__count" not in self.annotations:
            raise _Uncacheable
        sql, params = compiler.as_sql()
        converters = compiler.get_converters(list(self.annotation_select.values()))
        raise _Compiled(sql, params, list(converters.items()))


def _compile_count(qs: QuerySet):
    query = qs.query.clone()
    query.__class__ = _CountOnly
    try:
        query.get_count(qs.db)
    except _Compiled as compiled:
        return compiled.result
    raise _Uncacheable  # pragma: no cover (get_count always compiles)


def _compile_rows(qs: QuerySet):
    if qs._iterable_class is not ValuesIterable:
        raise _Uncacheable
    query = qs.query
    compiler = query.get_compiler(qs.db)
    sql, params = compiler.as_sql()
    if not sql:
        raise _Uncacheable
    names = (
        list(query.selected)
        if query.selected
        else [*query.extra_select, *query.values_select, *query.annotation_select]
    )
    fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
    if len(names) != compiler.col_count or compiler.has_extra_select or compiler.has_composite_fields(fields):
        raise _Uncacheable
    return sql, tuple(params), (names, list(compiler.get_converters(fields).items()))


# --- Late values ------------------------------------------------------------------------------------------------


def _stand_ins(late: dict, which: int) -> dict:
    """Stand-ins for the late values: a datetime, or as many distinct ids (within int4) as the list holds."""
    made = {}
    for k, (name, value) in enumerate(late.items()):
        if isinstance(value, datetime):
            made[name] = datetime(1901 + which, 2, 3, 4, 5, 6, 7 + which, tzinfo=UTC) + timedelta(days=k)
        elif isinstance(value, list | tuple):
            made[name] = [-1_000_000_000 - 300_000_000 * which - 1000 * k - i for i in range(len(value))]
        else:
            raise TypeError(f"late value {name!r}: a datetime or a list of ids")
    return made


def _adapt(value, connection):
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return int(value)


def _adapted(stand_ins: dict, connection) -> list:
    """(adapted stand-in, slot) pairs; a slot is (name, index in the list) or (name, None)."""
    pairs = []
    for name, value in stand_ins.items():
        if isinstance(value, list):
            pairs += [(_adapt(v, connection), (name, i)) for i, v in enumerate(value)]
        else:
            pairs.append((_adapt(value, connection), (name, None)))
    if len({(type(adapted), adapted) for adapted, _slot in pairs}) != len(pairs):
        raise _Uncacheable  # each stand-in must say which value it stands for
    return pairs


def _slot_of(param, pairs):
    for adapted, slot in pairs:
        if type(adapted) is type(param) and adapted == param:
            return slot
    return None


def _template(compile_, build, late: dict, using: str):
    connection = connections[using]
    if not late:
        return (*compile_(build()), ())
    a, b = _stand_ins(late, 0), _stand_ins(late, 1)
    sql_a, params_a, extra = compile_(build(**a))
    sql_b, params_b, _extra = compile_(build(**b))
    if sql_a != sql_b or len(params_a) != len(params_b):
        raise _Uncacheable
    pairs_a, pairs_b = _adapted(a, connection), _adapted(b, connection)
    slots = []
    for position, (pa, pb) in enumerate(zip(params_a, params_b, strict=True)):
        slot_a, slot_b = _slot_of(pa, pairs_a), _slot_of(pb, pairs_b)
        if slot_a is None and slot_b is None and type(pa) is type(pb) and pa == pb:
            continue
        if slot_a is None or slot_a != slot_b:
            raise _Uncacheable
        slots.append((position, slot_a))
    return sql_a, params_a, extra, tuple(slots)


def _get(kind: str, key: tuple, compile_, build, late: dict):
    using = DEFAULT_DB_ALIAS
    full_key = (
        kind,
        connections[using].vendor,
        key,
        tuple((k, len(v) if isinstance(v, list | tuple) else None) for k, v in late.items()),
    )
    with _lock:
        template = _templates.get(full_key)
        if template is not None:
            _templates.move_to_end(full_key)
            return template
    try:
        template = _template(compile_, build, late, using)
    except (_Uncacheable, EmptyResultSet, FullResultSet):
        template = _UNCACHEABLE
    with _lock:
        _templates[full_key] = template
        while len(_templates) > MAX_TEMPLATES:
            _templates.popitem(last=False)
    return template


def _execute(template, late: dict, fetch_one: bool, prepared: bool = True):
    sql, params, extra, slots = template
    connection = connections[DEFAULT_DB_ALIAS]
    if slots:
        params = list(params)
        for position, (name, index) in slots:
            value = late[name] if index is None else late[name][index]
            params[position] = _adapt(value, connection)
    with connection.cursor() as cursor:
        if prepared and connection.vendor == "postgresql":
            fetched = _statement(sql).rows(connection, cursor, params)
            if fetched is not None:
                return (fetched[0] if fetched else None) if fetch_one else fetched
        cursor.execute(sql, params)
        return cursor.fetchone() if fetch_one else cursor.fetchall()


def _statement(sql: str) -> Statement:
    """The SQL's statement, prepared once per PostgreSQL connection (studio.statements): PostgreSQL plans a list's
    query once instead of at every request (EXPLAIN's planning time was 0.1-0.2 ms of each list query's 0.3-0.7 ms;
    EXECUTE of the same text cost 0.07-0.26 ms less of its CPU)."""
    with _lock:
        statement = _statements.get(sql)
        if statement is None:
            statement = _statements[sql] = Statement(sql, prefix="studio_list")
            while len(_statements) > MAX_TEMPLATES:
                _statements.popitem(last=False)
        return statement


def _convert(row, converters, connection):
    row = list(row)
    for position, (functions, expression) in converters:
        value = row[position]
        for function in functions:
            value = function(value, expression, connection)
        row[position] = value
    return row


# --- What the lists call ----------------------------------------------------------------------------------------


def count(key: tuple, build: Callable[..., QuerySet], **late) -> int:
    """`build(**late).count()`, compiled once per key."""
    template = _get("count", key, _compile_count, build, late)
    if template is _UNCACHEABLE:
        return build(**late).count()
    row = _execute(template, late, fetch_one=True)
    if row is None:  # pragma: no cover (an aggregate always answers one row)
        return 0
    converters = template[2]
    return _convert(row[:1], converters, connections[DEFAULT_DB_ALIAS])[0] if converters else row[0]


def rows(key: tuple, build: Callable[..., QuerySet], *, prepared: bool = True, **late) -> list[dict]:
    """`list(build(**late))` for a `.values(...)` queryset, compiled once per key (which includes any slice);
    `prepared`: on PostgreSQL, run as a statement prepared once per connection (not for SQL that differs per page)."""
    template = _get("rows", key, _compile_rows, build, late)
    if template is _UNCACHEABLE:
        return list(build(**late))
    fetched = _execute(template, late, fetch_one=False, prepared=prepared)
    names, converters = template[2]
    if converters:
        connection = connections[DEFAULT_DB_ALIAS]
        fetched = [_convert(row, converters, connection) for row in fetched]
    return [dict(zip(names, row, strict=True)) for row in fetched]


TOTAL = "compiled_list_total"  # the column that carries the list's count on a page's rows


def _with_total(page: QuerySet, counted: QuerySet) -> QuerySet:
    """`page` (a `.values()` queryset) with the count of `counted` on each row, or `_Uncacheable` when that count
    would not be a plain `COUNT(*)` over `counted`'s filters (distinct, grouped, sliced or combined querysets)."""
    query = counted.query
    if (
        query.distinct
        or query.group_by is not None
        or query.combinator
        or query.is_sliced
        or any(getattr(a, "contains_aggregate", False) for a in query.annotations.values())
    ):
        raise _Uncacheable
    total = counted.order_by().values(**{TOTAL: Func(template="COUNT(*)", output_field=IntegerField())})
    return page.annotate(**{TOTAL: Subquery(total, output_field=IntegerField())})


class CompiledList:
    """What Django's Paginator (and so DRF's) pages: `count()` and slices, each one compiled query; paged by
    `CompiledPaginator`, the count and the asked page are one query.

    `key` names the list's shape; `build(**late)` gives its ordered `.values(...)` queryset and `count_build(**late)`
    the queryset to count (`build`'s by default: a lighter one may leave out what does not change the count)."""

    ordered = True

    def __init__(self, key: tuple, build: Callable[..., QuerySet], *, count_build=None, late: dict | None = None):
        self.key, self.build, self.count_build, self.late = key, build, count_build or build, late or {}
        self._expected = None  # (start, stop) of the page the paginator will ask for
        self._page = None  # (start, stop, count, rows) fetched with the count

    def expect(self, start: int, stop: int) -> None:
        """The paginator will ask for [start:stop]: `count()` fetches those rows with the count."""
        self._expected = (start, stop)

    def _page_with_total(self, start: int, stop: int, late: dict) -> QuerySet:
        """The rows [start:stop] with the list's count on each. From the second page on, the page's ids are chosen
        first (`pk IN (SELECT ... LIMIT/OFFSET)`): the rows' own subqueries then run for the page's rows only, not
        for every row skipped before it (PostgreSQL computes the select list of the rows an OFFSET skips)."""
        page, size = self.build(**late), stop - start
        if start:
            page = page.filter(pk__in=self.build(**late).values("pk")[start:stop])
        return _with_total(page, self.count_build(**late))[:size]

    def _count_with_page(self) -> int | None:
        start, stop = self._expected
        key = (*self.key, TOTAL, start, stop)
        try:
            # Prepared for the first page only: a statement per page and connection would pile up in PostgreSQL.
            fetched = rows(
                key, lambda **late: self._page_with_total(start, stop, late), prepared=start == 0, **self.late
            )
        except _Uncacheable:
            return None
        if not fetched:
            return None
        total = fetched[0][TOTAL]
        for row in fetched:
            del row[TOTAL]
        self._page = (start, stop, total, fetched)
        return total

    def count(self) -> int:
        if self._expected is not None:
            total = self._count_with_page()
            if total is not None:
                return total
        return count(self.key, self.count_build, **self.late)

    def __getitem__(self, item):
        if not isinstance(item, slice) or item.step is not None:
            raise TypeError("CompiledList takes a slice")
        start, stop = item.start or 0, item.stop
        if stop is not None and stop <= start:
            return []
        if self._page is not None:
            page_start, page_stop, total, fetched = self._page
            # Django's paginator asks for the last page as [start:count]: the same rows.
            if start == page_start and (stop == page_stop or (stop == total and total <= page_stop)):
                return list(fetched)
        return rows(
            (*self.key, start, stop), lambda **late: self.build(**late)[start:stop], prepared=start == 0, **self.late
        )


class CompiledPaginator(Paginator):
    """Django's paginator; on a `CompiledList` the count and the asked page come back in one query."""

    def page(self, number):
        if isinstance(self.object_list, CompiledList):
            try:
                wanted = int(number)
            except (TypeError, ValueError):
                wanted = 0  # Django's own checks answer it
            if wanted >= 1 and offset_fits((wanted - 1) * self.per_page, self.per_page):
                self.object_list.expect((wanted - 1) * self.per_page, wanted * self.per_page)
        return super().page(number)


def paginate(pagination, listed: CompiledList, request, view) -> list:
    """`pagination.paginate_queryset(listed, request, view)` (a DRF page-number pagination) through
    `CompiledPaginator`: one query for the count and the page."""
    pagination.django_paginator_class = CompiledPaginator
    return pagination.paginate_queryset(listed, request, view=view)


def clear() -> None:
    """Forget every template (tests)."""
    with _lock:
        _templates.clear()
        _statements.clear()
