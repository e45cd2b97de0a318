/* loom-search-marks.c — the marks of the snippet maker (loom-search-snippet.h), as offsets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-search-marks.h"
#include "loom-search-snippet.h"
#include "loom-search.h"

struct _LoomSearchMarks
{
  LoomSnippetMaker *maker;
};

LoomSearchMarks *
loom_search_marks_new (const char *const *words,
                       const gboolean    *prefix,
                       guint              n_words,
                       GError           **error)
{
  g_autoptr (LoomSnippetMaker) maker = NULL;
  LoomSearchMarks *self;

  g_return_val_if_fail (words != NULL || n_words == 0, NULL);
  g_return_val_if_fail (prefix != NULL || n_words == 0, NULL);

  if (!(maker = loom_snippet_maker_new (words, prefix, n_words, error)))
    return NULL;
  self = g_new0 (LoomSearchMarks, 1);
  self->maker = g_steal_pointer (&maker);
  return self;
}

void
loom_search_marks_free (LoomSearchMarks *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->maker, loom_snippet_maker_free);
  g_free (self);
}

GArray *
loom_search_marks_find (LoomSearchMarks *self,
                        const char      *text)
{
  GArray          *found;
  g_autofree char *clean = NULL;
  g_autofree char *marked = NULL;
  gsize            length, offset = 0;
  guint            start = 0;
  gboolean         open = FALSE;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  found = g_array_new (FALSE, FALSE, sizeof (guint));
  length = strlen (text);
  if (length == 0 || length >= G_MAXINT / 2)
    return found;

  /* The maker puts its marks into the text; characters of the same value already there would
   * read as marks. A space in their place keeps every offset. */
  clean = g_strdup (text);
  g_strdelimit (clean, LOOM_SEARCH_MARK_START LOOM_SEARCH_MARK_END, ' ');

  /* A window as long as the text is the whole text, with nothing cut and nothing added but
   * the marks. */
  marked = loom_snippet_maker_make (self->maker, clean, (guint)length + 1);
  for (const char *p = marked; *p != '\0'; p++)
    {
      if (*p == LOOM_SEARCH_MARK_START[0])
        {
          start = (guint)offset;
          open = TRUE;
        }
      else if (*p == LOOM_SEARCH_MARK_END[0])
        {
          if (open && offset > start)
            {
              guint end = (guint)offset;

              g_array_append_val (found, start);
              g_array_append_val (found, end);
            }
          open = FALSE;
        }
      else
        offset++;
    }

  /* Should the maker ever add anything else, offsets would point into the wrong words: better
   * no marks than wrong ones. */
  if (offset != length)
    g_array_set_size (found, 0);
  return found;
}
