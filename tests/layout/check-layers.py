#!/usr/bin/env python3
# check-layers.py — the layers of src/ as the compiler cannot check them.
#
# The include path already keeps core's private headers out of the app and the CLI. What it
# cannot see, this does, reading every #include of src/:
#   - the app and the CLI include no sqlite3.h (it is a system header, always reachable);
#   - a *-private.h is included only from its own folder;
#   - inside core, a folder includes only from its own layer or the ones below it;
#   - SQL is written in store/ (and in search/, which owns its index tables): no other folder,
#     the app or the CLI calls SQLite.
# Each finding names the file and line. Exit status 1 when there is one.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import sys

# Core's folders by layer, lowest first. A folder may include its own layer and those below;
# folders of one layer do not include each other.
LAYERS = [
    ['model'],
    ['json'],
    ['store', 'format'],
    ['search', 'import'],
    ['export'],
    ['crypto'],
    ['backup'],
]
LAYER_OF = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}

# The folders of core that may call SQLite.
SQL_FOLDERS = {'store', 'search'}
SQLITE_CALL = re.compile(r'\bsqlite3_[a-z_]+\s*\(|\bloom_store_cached\s*\(')

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def sources(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                yield os.path.join(folder, name)


def includes(path):
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if match:
                yield number, match.group(1) == '<', match.group(2)


def main(src):
    core = os.path.join(src, 'core')
    home = {}  # header name -> its core folder
    for path in sources(core):
        if path.endswith('.h'):
            home[os.path.basename(path)] = os.path.basename(os.path.dirname(path))

    problems = []
    for path in sources(src):
        relative = os.path.relpath(path, src)
        part = relative.split(os.sep)[0]
        folder = os.path.basename(os.path.dirname(path))
        if part != 'core' or folder not in SQL_FOLDERS:
            with open(path, encoding='utf-8') as f:
                for number, line in enumerate(f, 1):
                    if SQLITE_CALL.search(line):
                        problems.append(f'src/{relative}:{number}: SQLite called outside store/')
                        break
        for number, system, name in includes(path):
            where = f'src/{relative}:{number}'
            if part != 'core':
                if name == 'sqlite3.h':
                    problems.append(f'{where}: the {part} includes sqlite3.h; ask core instead')
                continue
            if system or name not in home:
                continue
            target = home[name]
            if name.endswith('-private.h') and target != folder:
                problems.append(f'{where}: {name} is private to core/{target}/')
            elif folder in LAYER_OF and target != folder:
                if LAYER_OF[target] >= LAYER_OF[folder]:
                    problems.append(f'{where}: core/{folder}/ includes {name} of core/{target}/, '
                                    f'which is not below it')

    for problem in problems:
        print(problem)
    print(f'{len(problems)} problems' if problems else 'the layers hold')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(os.path.dirname(__file__), '..', '..', 'src')))
