#!/usr/bin/env bash
# Prints a Python >= 3.12 (Django 6.1 needs it): from PATH first, then pyenv's versions.
set -u
for candidate in python3.13 python3.12 python3 \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3 \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3 \
    /root/.pyenv/versions/3.13*/bin/python3 /root/.pyenv/versions/3.12*/bin/python3; do
  path=$(command -v "$candidate" 2>/dev/null) || continue
  if "$path" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
    echo "$path"
    exit 0
  fi
done
echo "Python 3.12 or newer is required (Django 6.1). Install python3.12 and try again." >&2
exit 1
