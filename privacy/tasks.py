"""Background work of privacy: the deleted account's stored sessions are removed by a worker.

The deletion already ended them (the account is inactive and its password hash changed, so each session fails its
next check); this removes the rows and their cached copies, which only a scan of the live sessions can find."""

from django.tasks import task

from . import services


@task
def account_sessions_delete(user_id: int) -> int:
    return services.account_sessions_delete(user_id=user_id)
