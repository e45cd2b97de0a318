/* loom-import-problems.c — what the imports of this run could not take whole.
 *
 * The importers go on past a bad record and say so in a warning that names the file and the
 * line; the command line prints them, and this keeps them for the window. They come from every
 * background pass and every folder the person imports, so a record that a pass reads again (a
 * rewritten document) must not be listed twice: the list is a set, in the order the problems
 * were first seen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-import-problems.h"

struct _LoomImportProblems
{
  GObject parent_instance;

  GtkStringList *list;   /* the latest import's first */
  GHashTable    *listed; /* the warnings in @list, borrowed from its items */
};

G_DEFINE_FINAL_TYPE (LoomImportProblems, loom_import_problems, G_TYPE_OBJECT)

enum
{
  ADDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
is_waiting (const LoomImportStats *stats,
            const char            *warning)
{
  for (guint i = 0; i < stats->waiting->len; i++)
    if (g_strcmp0 (g_ptr_array_index (stats->waiting, i), warning) == 0)
      return TRUE;
  return FALSE;
}

/* @text with each byte that is not part of valid UTF-8 written as \xNN, as a C string would
 * have it: readable, and as distinct as the bytes were. */
static char *
escape_invalid_utf8 (const char *text)
{
  GString    *escaped = g_string_new (NULL);
  const char *end;

  while (!g_utf8_validate (text, -1, &end))
    {
      g_string_append_len (escaped, text, end - text);
      g_string_append_printf (escaped, "\\x%02x", (guchar)*end);
      text = end + 1;
    }
  g_string_append (escaped, text);
  return g_string_free (escaped, FALSE);
}

/* Rebuilds the set from the list after items came or went: its keys are the items' own
 * strings, a thousand at most. */
static void
note_listed (LoomImportProblems *self)
{
  GListModel *model = G_LIST_MODEL (self->list);
  guint       n_items = g_list_model_get_n_items (model);

  g_hash_table_remove_all (self->listed);
  for (guint i = 0; i < n_items; i++)
    g_hash_table_add (self->listed, (gpointer)gtk_string_list_get_string (self->list, i));
}

guint
loom_import_problems_add (LoomImportProblems    *self,
                          const LoomImportStats *stats)
{
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (GPtrArray) added = NULL;
  guint n_items, n_dropped = 0;

  g_return_val_if_fail (LOOM_IS_IMPORT_PROBLEMS (self), 0);
  g_return_val_if_fail (stats != NULL, 0);

  seen = g_hash_table_new (g_str_hash, g_str_equal);
  added = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < stats->warnings->len && added->len < LOOM_IMPORT_PROBLEMS_MAX; i++)
    {
      const char *warning = g_ptr_array_index (stats->warnings, i);
      /* A file's name need not be UTF-8; a label's text and the clipboard's must, and two
       * names apart only in such bytes must stay apart. */
      char       *shown;

      if (is_waiting (stats, warning))
        continue;
      shown = escape_invalid_utf8 (warning);
      if (g_hash_table_contains (self->listed, shown) || g_hash_table_contains (seen, shown))
        {
          g_free (shown);
          continue;
        }
      g_ptr_array_add (added, shown);
      g_hash_table_add (seen, shown);
    }
  if (added->len == 0)
    return 0;

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  if (n_items + added->len > LOOM_IMPORT_PROBLEMS_MAX)
    n_dropped = n_items + added->len - LOOM_IMPORT_PROBLEMS_MAX;

  /* One insertion for the list, not one per problem: a view shows a thousand coming in at once. */
  g_ptr_array_add (added, NULL);
  gtk_string_list_splice (self->list, 0, 0, (const char *const *)added->pdata);
  if (n_dropped > 0)
    gtk_string_list_splice (self->list, LOOM_IMPORT_PROBLEMS_MAX, n_dropped, NULL);
  note_listed (self);

  g_signal_emit (self, signals[ADDED], 0, added->len - 1);
  return added->len - 1;
}

void
loom_import_problems_clear (LoomImportProblems *self)
{
  g_return_if_fail (LOOM_IS_IMPORT_PROBLEMS (self));

  g_hash_table_remove_all (self->listed);
  gtk_string_list_splice (self->list, 0, g_list_model_get_n_items (G_LIST_MODEL (self->list)),
                          NULL);
}

char *
loom_import_problems_to_text (LoomImportProblems *self)
{
  GString *text = g_string_new (NULL);
  guint    n_items;

  g_return_val_if_fail (LOOM_IS_IMPORT_PROBLEMS (self), NULL);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  for (guint i = 0; i < n_items; i++)
    {
      g_string_append (text, gtk_string_list_get_string (self->list, i));
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}

GListModel *
loom_import_problems_get_model (LoomImportProblems *self)
{
  g_return_val_if_fail (LOOM_IS_IMPORT_PROBLEMS (self), NULL);

  return G_LIST_MODEL (self->list);
}

static void
loom_import_problems_finalize (GObject *object)
{
  LoomImportProblems *self = LOOM_IMPORT_PROBLEMS (object);

  g_clear_pointer (&self->listed, g_hash_table_unref);
  g_clear_object (&self->list);

  G_OBJECT_CLASS (loom_import_problems_parent_class)->finalize (object);
}

static void
loom_import_problems_class_init (LoomImportProblemsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = loom_import_problems_finalize;

  /* New problems were listed: their number. */
  signals[ADDED] = g_signal_new ("added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                 NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
loom_import_problems_init (LoomImportProblems *self)
{
  self->list = gtk_string_list_new (NULL);
  self->listed = g_hash_table_new (g_str_hash, g_str_equal);
}

LoomImportProblems *
loom_import_problems_new (void)
{
  return g_object_new (LOOM_TYPE_IMPORT_PROBLEMS, NULL);
}
