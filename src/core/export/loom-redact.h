/* loom-redact.h — finds the secrets people paste into agents and replaces them with typed
 * placeholders, for the `redacted` mode of an export.
 *
 * A LoomRedactor works on decoded text (the caller unescapes JSON first) and may be fed every
 * string of one package in turn: the same secret then gets the same placeholder everywhere, so
 * the text still reads ("the key [REDACTED:github-token-1] failed, so I used
 * [REDACTED:github-token-2]").
 *
 * The placeholder is exactly `[REDACTED:FAMILY-N]`: FAMILY is one of the names that
 * loom_redactor_get_families () lists (lowercase ASCII letters, digits and '-'), N counts the
 * distinct secrets of that family the redactor has seen, from 1, in the order it first met them.
 * Two secrets are the same when their bytes are.
 *
 * What is replaced is the secret only: the key of an assignment (`PASSWORD=`), the user and host
 * of a URL, the BEGIN and END lines of a PEM block are kept, so a reader sees what was there.
 *
 * The families, and the rules that keep false positives down, are documented in loom-redact.c
 * (the table of detectors and the comment above it). In short: a provider's token is recognised
 * by its published structure (prefix, length, alphabet), never by a broad pattern; a secret with
 * no structure of its own (an AWS secret key, a Twilio auth token, a `.env` value) only in the
 * context that names it, and `.env`-style values only when their Shannon entropy is at least
 * 3.0 bits a byte (2.5 for a password). The documentation placeholders AWS publishes
 * (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY) and obvious templates
 * (`${VAR}`, `<token>`, `changeme`, `xxxx`) are not secrets and are left as they are.
 *
 * The scan is linear in the length of the text (each byte is looked at a bounded number of
 * times, whatever the text), never fails, and takes any bytes: invalid UTF-8 is copied through.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LoomRedactor LoomRedactor;

LoomRedactor *loom_redactor_new (void);
void          loom_redactor_free (LoomRedactor *self);

/* Returns a copy of the @length bytes of @text (-1: up to the NUL) with every secret replaced
 * by its placeholder; the copy is NUL-terminated. @n_found, when not NULL, receives the number
 * of secrets replaced in this call (each occurrence counts). */
char *loom_redactor_redact (LoomRedactor *self,
                            const char   *text,
                            gssize        length,
                            guint        *n_found);

/* The names of every family, NULL-terminated, in a fixed order. */
const char *const *loom_redactor_get_families (void);

/* Occurrences replaced so far in @family (0 for an unknown name). */
guint loom_redactor_get_count (LoomRedactor *self,
                               const char   *family);

/* Every family with at least one occurrence: family name (static) -> GUINT_TO_POINTER (count).
 * Transfer full: unref the table. */
GHashTable *loom_redactor_get_counts (LoomRedactor *self);

/* Occurrences replaced so far, all families together. */
guint loom_redactor_get_total (LoomRedactor *self);

/* Distinct secrets seen so far, all families together. */
guint loom_redactor_get_n_secrets (LoomRedactor *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomRedactor, loom_redactor_free)

G_END_DECLS
