/* loom-bench-watch.h — the window following an agent live: loom-bench-window --watch.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* Runs the application in the environment the parent made, plays Claude Code and prints its
 * figures as key=value lines. Returns the application's exit status. */
int loom_bench_watch_child (void);
