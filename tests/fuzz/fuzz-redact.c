/* fuzz-redact.c — the redaction of secrets on any bytes: it ends, it keeps what it does not
 * replace, and what it reports matches what it wrote (loom-redact.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-fuzz.h"
#include "loom-redact.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  g_autofree char *once = NULL;
  g_autofree char *again = NULL;
  guint            n_found = 0;
  guint            n_again = 0;

  once = loom_redactor_redact (redactor, (const char *)data, (gssize)size, &n_found);
  g_assert_nonnull (once);
  g_assert_cmpuint (n_found, ==, loom_redactor_get_total (redactor));
  g_assert_cmpuint (loom_redactor_get_n_secrets (redactor), <=, n_found);
  if (n_found == 0)
    g_assert_true (memcmp (once, data, size) == 0);

  /* The same text through the same redactor: the same placeholders, so the same bytes. */
  again = loom_redactor_redact (redactor, (const char *)data, (gssize)size, &n_again);
  g_assert_cmpuint (n_again, ==, n_found);
  g_assert_true (memcmp (once, again, strlen (once) + 1) == 0);
  return 0;
}
