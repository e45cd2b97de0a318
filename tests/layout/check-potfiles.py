#!/usr/bin/env python3
# check-potfiles.py — every source file with a translatable string is listed in po/POTFILES.in,
# and every file listed there exists.
#
# A file left out is not extracted into the translation template: its strings stay English in
# every language, and nothing else would notice. Exit status 1 when a file is missing or stale.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import sys

# gettext's markers as GLib spells them: _("…"), N_("…"), C_("…", "…"), ngettext (…).
MARKER = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_)\s*\(\s*"|\bngettext\s*\(')


def main(top):
    with open(os.path.join(top, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        listed = {line.strip() for line in f if line.strip() and not line.startswith('#')}

    problems = []
    for folder, _, names in os.walk(os.path.join(top, 'src')):
        for name in sorted(names):
            if not name.endswith('.c'):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, top)
            with open(path, encoding='utf-8') as f:
                if MARKER.search(f.read()) and relative not in listed:
                    problems.append(f'{relative}: has translatable strings but is not in po/POTFILES.in')

    for relative in sorted(listed):
        if not os.path.exists(os.path.join(top, relative)):
            problems.append(f'po/POTFILES.in: lists {relative}, which does not exist')

    for problem in problems:
        print(problem)
    print(f'{len(problems)} problems' if problems else 'every translatable file is listed')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(os.path.dirname(__file__), '..', '..')))
