#!/usr/bin/python3
# test-e2e.py — the application driven from outside, through the accessibility tree, as a
# screen reader or an automation tool sees it.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-e2e.py LOOM INTENTLOOM-HISTORY FIXTURES SCHEMA-DIR
#
# Prepares a store with the `loom` CLI (imports the Claude Code fixtures, files one session in
# a folder), starts the real application on it, then through AT-SPI (dogtail): opens the folder
# in the sidebar, opens the session in the list, opens a tool call in the timeline, and reads
# back the text that each step brought on screen. Prints TAP. Runs inside the test harness's
# session (Xvfb, a session bus) with an accessibility bus that run-e2e.sh starts.
#
# Rows are chosen through AT-SPI's Selection interface, which is what a screen reader's "select"
# does: GTK 4.8 offers no click action on list rows, and it reports coordinates relative to the
# window (and warns), so clicking by position is not reliable. Buttons are pressed with their
# "click" action.

import json
import os
import subprocess
import sys
import time

LOOM, APP, FIXTURES, SCHEMA_DIR = sys.argv[1:5]

FOLDER = 'Bug fixes'
TITLE = 'Run the test suite and fix what fails - 2026-03-05'
COMMAND = 'meson test -C build'
RESULT = '# FAIL: expected 3 tool calls, got 2'
TIMEOUT = 60.0  # a guard against a hang, not a limit on how fast

n_tests = 0


def ok(description):
    global n_tests
    n_tests += 1
    print('ok %d - %s' % (n_tests, description), flush=True)


def bail(message):
    print('Bail out! %s' % message, flush=True)
    sys.exit(1)


def wait_for(what, find):
    """Calls find() until it returns something, and returns that; bails out after TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            found = find()
        except Exception:  # a node that went away while being read: try again
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            bail('%s did not appear within %d s' % (what, TIMEOUT))
        time.sleep(0.1)


def loom(*args):
    result = subprocess.run([LOOM, '--db', db] + list(args), check=True,
                            stdout=subprocess.PIPE, text=True)
    return result.stdout


# ——— The store ———

db = os.path.join(os.environ['TMPDIR'], 'e2e-history.db')
loom('import', os.path.join(FIXTURES, 'claude'))
sessions = json.loads(loom('sessions', 'list', '--json'))
uuid = next(s['id'] for s in sessions if s['title'] == TITLE)
loom('folders', 'create', FOLDER)
loom('sessions', 'move', uuid, FOLDER)
ok('prepared a store of %d sessions, one of them in “%s”' % (len(sessions), FOLDER))

# ——— The application ———

env = dict(os.environ)
env.update({
    'LOOM_DB': db,
    'GTK_A11Y': 'atspi',
    'GSK_RENDERER': 'cairo',
    'GSETTINGS_BACKEND': 'memory',
    'GSETTINGS_SCHEMA_DIR': SCHEMA_DIR,
    # GTK warns whenever something asks an accessible for screen coordinates, which it cannot
    # give on X11 without a window manager; criticals still abort.
    'G_DEBUG': 'fatal-criticals',
})
env.pop('NO_AT_BRIDGE', None)
app_process = subprocess.Popen([APP], env=env)

try:
    from dogtail.config import config
    # The harness's session has no GSettings for the desktop's accessibility switch: the bus is
    # there, which is what matters.
    config.checkForA11y = False
    config.logDebugToFile = False
    config.logDebugToStdOut = False
    config.defaultDelay = 0.2
    config.searchCutoffCount = 5
    from dogtail import tree
    from gi.repository import GLib

    app = wait_for('the application on the accessibility bus',
                   lambda: tree.root.application('intentloom-history'))
    frame = wait_for('the main window', lambda: app.child(roleName='frame', retry=False))
    ok('the application is on the accessibility bus with its window “%s”' % frame.name)

    def labels(text):
        return app.findChildren(lambda n: n.roleName == 'label' and n.name == text)

    # The folder, in the sidebar.
    folder_row = wait_for('the folder row',
                          lambda: app.child(name=FOLDER, roleName='list item', retry=False))
    folder_row.select()
    # The session list's header now names the folder: its title, beside the sidebar's row.
    wait_for('the folder as the list title', lambda: len(labels(FOLDER)) >= 2)
    session_list = app.child(name='Sessions', roleName='list')
    rows = wait_for('the folder’s one session',
                    lambda: [r for r in session_list.children if r.roleName == 'list item'])
    if len(rows) != 1:
        bail('the folder lists %d sessions, not 1' % len(rows))
    shown = rows[0].findChildren(lambda n: n.roleName == 'label')
    if TITLE not in [label.name for label in shown]:
        bail('the folder’s session is not “%s”: %r' % (TITLE, [lb.name for lb in shown]))
    ok('selecting the folder “%s” lists its session “%s”' % (FOLDER, TITLE))

    # The session, in the list: its title heads the content pane, its timeline shows.
    rows[0].select()
    wait_for('the session title in the content pane', lambda: len(labels(TITLE)) >= 2)
    prompt = wait_for('the first prompt',
                      lambda: labels('Run the test suite and fix what fails'))
    ok('selecting the session shows its timeline, starting with “%s”' % prompt[0].name)

    # A tool call, in the timeline: opening it shows the command's output.
    # A tool call's row is named after the call ("Tool call Bash: meson test …"); its header is
    # the button that opens it.
    def find_tool_button():
        name = 'Tool call Bash: ' + COMMAND
        for row in app.findChildren(lambda n: (n.name or '').startswith(name)):
            for button in row.findChildren(lambda n: n.roleName in ('push button',
                                                                    'toggle button')):
                if 'click' in button.actions:
                    return button
        return None

    tool_button = wait_for('the tool call “%s”' % COMMAND, find_tool_button)
    tool_button.doActionNamed('click')

    def find_result():
        for node in app.findChildren(lambda n: n.roleName in ('label', 'text')
                                     and RESULT in (n.name or '')):
            return node
        return None

    result = wait_for('the tool result', find_result)
    ok('opening the tool call “%s” shows its result' % COMMAND)
    if RESULT not in result.name:
        bail('the result reads %r' % result.name)
    ok('the result reads back: “%s”' % RESULT.lstrip('# '))

    # Closing the window (Ctrl+W's action, which the window offers on the bus) ends the
    # application. The window's Close buttons are several, one per header bar, and GTK 4.8 does
    # not tell which of them are on screen.
    try:
        frame.doActionNamed('window.close')
    except GLib.GError as error:
        # The application may be gone before its reply: its exit status below says how it went.
        if 'disconnected' not in str(error):
            raise
    app_process.wait(timeout=TIMEOUT)
    if app_process.returncode != 0:
        bail('the application exited with status %d' % app_process.returncode)
    ok('the Close button ends the application')
except Exception:
    # dogtail swallows what goes to standard error on the way out: say it in the TAP stream.
    import traceback
    print('# ' + traceback.format_exc().replace('\n', '\n# '), flush=True)
    bail('the test failed with an exception')
finally:
    if app_process.poll() is None:
        app_process.terminate()
        app_process.wait()

print('1..%d' % n_tests, flush=True)
