/* loom-test-timeout.h — how long a test waits for something before it calls it a hang.
 *
 * Tests check what happened, never how long it took: a wait's limit is only a guard against a
 * test that would otherwise hang, so it is far past any time the thing waited for takes, on a
 * machine busy with other work too. The sanitizers make everything some three to ten times
 * slower: their builds wait longer. LOOM_TEST_TIMEOUT_MULTIPLIER (a whole number) overrides
 * the multiplier, for a machine slower still.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* How long a wait may take by default: a minute, before the multiplier. */
#define LOOM_TEST_GUARD_USEC (60 * G_USEC_PER_SEC)

/* GCC says so for AddressSanitizer (the sanitizer build has it with UBSan); clang by
 * __has_feature. */
#if defined(__SANITIZE_ADDRESS__)
#define LOOM_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOM_TEST_SANITIZED 1
#endif
#endif

static inline gint64
loom_test_timeout_multiplier (void)
{
  const char *text = g_getenv ("LOOM_TEST_TIMEOUT_MULTIPLIER");
  gint64      multiplier = text != NULL ? g_ascii_strtoll (text, NULL, 10) : 0;

  if (multiplier > 0)
    return multiplier;
#ifdef LOOM_TEST_SANITIZED
  return 3;
#else
  return 1;
#endif
}

/* @usec, scaled by the multiplier: what a guard against a hang waits. */
static inline gint64
loom_test_guard_usec (gint64 usec)
{
  return usec * loom_test_timeout_multiplier ();
}
