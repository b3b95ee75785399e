from ..export_command import ExportCommand


class Command(ExportCommand):
    kind = "members"
