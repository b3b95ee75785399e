"""Model instances from prepared queries (studio.prepared): the booking flow's row locks and reads, compiled to SQL
once per process and database instead of at every request (issue 18).

Django compiles a queryset at each evaluation: for the few small reads of a seat hold or a capture (a session locked,
a reservation locked, the seats counted) that cost more CPU than running them. A `PreparedModels` is an ordinary
queryset of one model (its filters, `select_for_update`, ordering and slice written as usual, with named "int" or
"datetime" parameters), read as every concrete column of the model, plus optionally columns of related rows, and
answered as model instances (`Model.from_db`, as the ORM builds them). The SQL is the ORM's own, compiled once.
Parameters may also be text ("str": a payment's order id), compared as they are (`exact`, `in`).
"""

from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model, QuerySet

from studio.prepared import PreparedQuery

_TEXT_MARKER = "~prepared-text-marker~"


class PreparedTextQuery(PreparedQuery):
    """studio.prepared's PreparedQuery whose parameters may also be text ("str" or `str`), bound where the ORM binds
    them: at compilation each is a marker text, whose positions among the compiled query's parameters are kept; a
    marker transformed on the way (`icontains` wraps it in %...%) or missing is refused at the first run."""

    def __init__(self, build: Callable[..., QuerySet], **parameters):
        self._texts = tuple(name for name, kind in parameters.items() if kind == "str" or kind is str)
        super().__init__(build, **{n: k for n, k in parameters.items() if n not in self._texts})
        self._text_slots: dict[tuple[str, str], tuple] = {}

    def _compile(self, connection, alias: str):
        build, markers = self._build, {name: f"{_TEXT_MARKER}{i}~" for i, name in enumerate(self._texts)}
        self._build = lambda **values: build(**values, **markers)
        try:
            compiled = super()._compile(connection, alias)
        finally:
            self._build = build
        slots = []
        for name, marker in markers.items():
            found = [i for i, p in enumerate(compiled.params) if type(p) is str and p == marker]
            if not found:
                raise ValueError(f"parameter {name!r} is not a parameter of the compiled query: {compiled.sql}")
            slots.extend((i, name) for i in found)
        if _TEXT_MARKER in compiled.sql:
            raise ValueError(f"a marker was inlined in the compiled query: {compiled.sql}")
        self._text_slots[(alias, connection.vendor)] = tuple(slots)
        return compiled

    def _bind(self, connection, using: str, compiled, values: dict) -> list:
        """studio.prepared's parameters, with the text parameters put in their positions too."""
        params = super()._bind(connection, using, compiled, values)
        for index, name in self._text_slots[(using, connection.vendor)]:
            params[index] = str(values[name])
        return params


def _fields(model: type[Model], only: tuple[str, ...] | None = None):
    fields = model._meta.concrete_fields
    return [f for f in fields if only is None or f.attname in only or f.name in only]


class PreparedModels:
    """`PreparedModels(Reservation, lambda pk: Reservation.objects.select_for_update().filter(pk=pk), pk="int")`;
    `.first(pk=12)` is the instance or None. `related={"session": None, "session__course": ("id", "title")}` reads
    those related rows in the same query (None: every column; a tuple: those columns, the others deferred) and sets
    them on the instance, as `select_related` would (the path must be a chain of foreign keys). `annotations`: names
    of annotations the queryset adds, read in the same query and set as attributes of the instance."""

    def __init__(
        self,
        model: type[Model],
        build: Callable[..., QuerySet],
        *,
        related: dict[str, tuple[str, ...] | None] | None = None,
        annotations: tuple[str, ...] = (),
        **parameters: str,
    ):
        self.model = model
        self.parts = [("", model, _fields(model))]
        for path, only in (related or {}).items():
            related_model = model
            for name in path.split("__"):
                related_model = related_model._meta.get_field(name).related_model
            self.parts.append((path, related_model, _fields(related_model, only)))
        lookups = [f"{path}__{f.name}" if path else f.name for path, _, fields in self.parts for f in fields]
        self.annotations = annotations
        lookups += annotations
        text = any(kind == "str" or kind is str for kind in parameters.values())
        self.query = (PreparedTextQuery if text else PreparedQuery)(
            lambda **values: build(**values).values_list(*lookups)[:1], **parameters
        )

    def first(self, *, using: str = DEFAULT_DB_ALIAS, **values):
        rows = self.query.rows(using=using, **values)
        if not rows:
            return None
        row, start, instances = rows[0], 0, {}
        for path, model, fields in self.parts:
            names = [f.attname for f in fields]
            part = row[start : start + len(fields)]
            start += len(fields)
            if path and part[[f.primary_key for f in fields].index(True)] is None:
                instances[path] = None  # a nullable relation that is empty
                continue
            instances[path] = model.from_db(using, names, list(part))
        for path in instances:
            if path:
                parent, _, name = path.rpartition("__")
                owner = instances[parent]
                if owner is not None:
                    setattr(owner, name, instances[path])
        for name, value in zip(self.annotations, row[start:], strict=True):
            setattr(instances[""], name, value)
        return instances[""]
