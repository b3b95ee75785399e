"""Every JSON answer of the API goes through the Output serializer its schema names.

A view that answers `Response({...})` while `@extend_schema(responses=...)` names an Output serializer has a
schema that only describes it: the two drift apart unseen (a key renamed in one place, a date left a Python
object). The house rule is `Response(SomethingOutput(data).data)`; a paginated list answers its page serializer fed
by `StandardPagination.page_body`, not the body `get_paginated_response` builds by hand. This test reads the source
(no request is made) so that a new view cannot slip past it.
"""

import ast
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {"node_modules", "frontend", "static", "templates", "docs", "bench", "scripts", "tests", "migrations"}

# (module, function) -> why it answers something else than an Output serializer's data.
NOT_AN_OUTPUT = {
    ("payments/apis/exports.py", "ExportApi.get"): "a CSV or XLSX file to download, not JSON",
    ("bookings/apis/statements.py", "InstructorStatementApi.get"): (
        "the statement's CSV or PDF file to download (its JSON goes through StatementOutput)"
    ),
    ("privacy/apis.py", "export_response"): "the member's data as a JSON file to download, every table they have",
    ("insights/apis.py", "DashboardStatsApi.get"): "the cached StatsOutput(...).data that _stats builds",
    ("payments/subscriptions/apis/subscriptions.py", "SubscriptionsApi.get"): (
        "the cached StaffSubscriptionOutput(...).data that _staff_list builds"
    ),
    ("studio/api.py", "error_response"): (
        "the error body of every app (ErrorOutput documents it), with keys a refusal adds (resendUrl)"
    ),
    ("studio/api.py", "exception_handler"): "a domain refusal's error body, ApplicationError.body()",
    ("studio/views.py", "page_not_found"): "the JSON 404 of an API path no route matches",
    ("operations/views.py", "healthz"): "a monitor's probe outside the API and its schema: the process answers",
    ("operations/views.py", "readyz"): "a monitor's probe outside the API and its schema: each check's flag and ages",
    ("invoices/accounting_apis.py", "_AccountingFileApi.get"): "the journal (CSV) or the FEC (text) file to download",
    ("studio/pwa.py", "manifest"): "the web app manifest the browser reads, outside the API and its schema",
}


def _modules():
    for folder, dirs, files in os.walk(REPO_ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(f for f in files if f.endswith(".py")):
            path = Path(folder, name)
            yield path.relative_to(REPO_ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _is_output_data(node) -> bool:
    """`SomethingOutput(...).data` (or `...OutputSerializer(...).data`)."""
    if not (isinstance(node, ast.Attribute) and node.attr == "data" and isinstance(node.value, ast.Call)):
        return False
    func = node.value.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name.endswith(("Output", "OutputSerializer"))


class _Answers(ast.NodeVisitor):
    def __init__(self):
        self.scope = []
        self.bodies = []  # (qualname, source of the body) of every Response/JsonResponse given one
        self.paginated = []  # qualname of every get_paginated_response called

    def _scoped(self, node):
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_ClassDef = visit_FunctionDef = visit_AsyncFunctionDef = _scoped

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, ast.Name) and func.id in {"Response", "JsonResponse"}:
            body = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "data"), None)
            if body is not None and not _is_output_data(body):
                self.bodies.append((".".join(self.scope), ast.unparse(body)))
        elif isinstance(func, ast.Attribute) and func.attr == "get_paginated_response":
            self.paginated.append(".".join(self.scope))
        self.generic_visit(node)


def _answers():
    for module, tree in _modules():
        visitor = _Answers()
        visitor.visit(tree)
        yield module, visitor


def test_every_json_answer_goes_through_an_output_serializer():
    by_hand = [
        f"{module}: {qualname} answers {body}"
        for module, visitor in _answers()
        for qualname, body in visitor.bodies
        if (module, qualname) not in NOT_AN_OUTPUT
    ]
    assert not by_hand, "answer through the Output serializer the schema names:\n" + "\n".join(by_hand)


def test_paginated_lists_answer_their_page_serializer():
    by_hand = [f"{module}: {qualname}" for module, visitor in _answers() for qualname in visitor.paginated]
    assert not by_hand, (
        "answer Response(PageOutput(paginator.page_body(results)).data), not get_paginated_response:\n"
        + "\n".join(by_hand)
    )


def test_the_exceptions_are_still_there():
    """An exception listed above whose code went (converted, renamed, moved) is taken off the list."""
    answers = dict(_answers())
    stale = [
        key
        for key in NOT_AN_OUTPUT
        if key[0] not in answers or key[1] not in {qualname for qualname, _ in answers[key[0]].bodies}
    ]
    assert not stale, stale
