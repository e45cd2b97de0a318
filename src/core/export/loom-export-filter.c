/* loom-export-filter.c — what a package shows of a text: the text, or in a redacted package the
 * text with its secrets replaced.
 *
 * One filter serves every file of a package, so that a secret gets the same placeholder in the
 * conversation, its HTML page, the metadata and the artifacts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-export-private.h"
#include "loom-redact.h"

struct _LoomExportFilter
{
  LoomRedactor *redactor; /* NULL: every text is shown as it is */
  guint         n_redactions;
};

LoomExportFilter *
loom_export_filter_new (LoomExportMode mode)
{
  LoomExportFilter *self = g_new0 (LoomExportFilter, 1);

  if (mode == LOOM_EXPORT_MODE_REDACTED)
    self->redactor = loom_redactor_new ();
  return self;
}

void
loom_export_filter_free (LoomExportFilter *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->redactor, loom_redactor_free);
  g_free (self);
}

gboolean
loom_export_filter_redacts (LoomExportFilter *self)
{
  return self != NULL && self->redactor != NULL;
}

char *
loom_export_filter_text (LoomExportFilter *self,
                         const char       *text,
                         gssize            length)
{
  g_autofree char *redacted = NULL;
  guint            n_found = 0;

  if (self == NULL || self->redactor == NULL || text == NULL)
    return NULL;
  redacted = loom_redactor_redact (self->redactor, text, length, &n_found);
  if (n_found == 0)
    return NULL;
  self->n_redactions += n_found;
  return g_steal_pointer (&redacted);
}

const char *
loom_export_filter_apply (LoomExportFilter *self,
                          const char       *text,
                          char            **to_free)
{
  g_assert (to_free != NULL && *to_free == NULL);

  *to_free = loom_export_filter_text (self, text, -1);
  return *to_free != NULL ? *to_free : text;
}

guint
loom_export_filter_get_n_redactions (LoomExportFilter *self)
{
  return self != NULL ? self->n_redactions : 0;
}
