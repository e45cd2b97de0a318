/* loom-export-filter.c — what a package shows of a text: the text, or in a redacted package the
 * text with its secrets replaced.
 *
 * One filter serves every file of a package, so that a secret gets the same placeholder in the
 * conversation, its HTML page, the metadata and the artifacts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-export-private.h"
#include "loom-json-value.h"
#include "loom-naming.h"
#include "loom-redact.h"

struct _LoomExportFilter
{
  LoomRedactor *redactor; /* NULL: every text is shown as it is */
  /* Asked whether a name holds a secret, apart from @redactor so that asking counts nothing
   * in the package's figures; made when first needed. */
  LoomRedactor *probe;
  guint         n_redactions;
};

LoomExportFilter *
loom_export_filter_new (LoomExportMode mode)
{
  LoomExportFilter *self = g_new0 (LoomExportFilter, 1);

  /* A compact package is meant to be pasted into a language model, someone else's service:
   * it is redacted like a redacted one. */
  if (mode == LOOM_EXPORT_MODE_REDACTED || mode == LOOM_EXPORT_MODE_COMPACT)
    self->redactor = loom_redactor_new ();
  return self;
}

void
loom_export_filter_free (LoomExportFilter *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->redactor, loom_redactor_free);
  g_clear_pointer (&self->probe, loom_redactor_free);
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

gboolean
loom_export_filter_finds_secret (LoomExportFilter *self,
                                 const char       *text)
{
  g_autofree char *redacted = NULL;
  guint            n_found = 0;

  if (self == NULL || self->redactor == NULL || text == NULL)
    return FALSE;
  if (self->probe == NULL)
    self->probe = loom_redactor_new ();
  redacted = loom_redactor_redact (self->probe, text, -1, &n_found);
  return n_found > 0;
}

char *
loom_export_filter_bytes (const char *data,
                          gsize       length,
                          gsize      *out_length,
                          gpointer    user_data)
{
  LoomExportFilter *self = user_data;
  g_autoptr (GString) out = NULL;
  gboolean    changed = FALSE;
  const char *end = data + length;

  if (self == NULL || self->redactor == NULL)
    return NULL;
  /* The redactor reads up to a NUL: a text with one further on (past the binary sniff) is
   * redacted a NUL-free run at a time, and the NULs kept where they were. */
  out = g_string_sized_new (length + 1);
  for (const char *p = data; p < end;)
    {
      const char      *nul = memchr (p, '\0', (gsize)(end - p));
      const char      *run_end = nul != NULL ? nul : end;
      g_autofree char *run = g_strndup (p, (gsize)(run_end - p));
      g_autofree char *redacted = loom_export_filter_text (self, run, -1);

      if (redacted != NULL)
        {
          changed = TRUE;
          g_string_append (out, redacted);
        }
      else
        g_string_append_len (out, p, run_end - p);
      if (nul != NULL)
        g_string_append_c (out, '\0');
      p = nul != NULL ? nul + 1 : end;
    }
  if (!changed)
    return NULL;
  *out_length = out->len;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
loom_export_filter_title (LoomExportFilter *self,
                          const char       *title)
{
  g_autofree char *redacted = NULL;
  g_autofree char *name = NULL;
  g_autofree char *date = NULL;
  const char      *shown;
  char            *last_space;

  if (!loom_export_filter_redacts (self) || title == NULL)
    return NULL;
  redacted = loom_export_filter_text (self, title, -1);
  shown = redacted != NULL ? redacted : title;
  loom_naming_split_title (shown, &name, &date);
  /* A title the store cut ends in a fragment of a word, which detection cannot judge: the
   * first 38 characters of a 40-character token are not a token any more, yet they are most
   * of the secret. The fragment goes. */
  if (name == NULL || !g_str_has_suffix (name, "…"))
    return g_steal_pointer (&redacted);
  name[strlen (name) - strlen ("…")] = '\0';
  last_space = strrchr (name, ' ');
  if (last_space != NULL)
    last_space[1] = '\0';
  else
    name[0] = '\0';
  return date != NULL ? g_strdup_printf ("%s… - %s", name, date) : g_strdup_printf ("%s…", name);
}

static gboolean
is_skipped (const char        *member,
            const char *const *skip)
{
  return member != NULL && skip != NULL && g_strv_contains (skip, member);
}

static void filter_node (LoomExportFilter  *self,
                         JsonNode          *node,
                         const char *const *skip);

static void
filter_member (JsonObject *object,
               const char *member,
               JsonNode   *node,
               gpointer    user_data)
{
  gpointer *args = user_data;

  if (is_skipped (member, args[1]))
    return;
  /* A title is one of the session's texts that the store may have cut. */
  if ((g_strcmp0 (member, "title") == 0 || g_strcmp0 (member, "agent_title") == 0) &&
      JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_autofree char *title = loom_export_filter_title (args[0], json_node_get_string (node));

      if (title != NULL)
        json_node_set_string (node, title);
      return;
    }
  filter_node (args[0], node, args[1]);
}

static void
filter_element (JsonArray *array,
                guint      index,
                JsonNode  *node,
                gpointer   user_data)
{
  gpointer *args = user_data;

  filter_node (args[0], node, args[1]);
}

static void
filter_node (LoomExportFilter  *self,
             JsonNode          *node,
             const char *const *skip)
{
  gpointer args[] = { self, (gpointer)skip };

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      json_object_foreach_member (json_node_get_object (node), filter_member, args);
      break;
    case JSON_NODE_ARRAY:
      json_array_foreach_element (json_node_get_array (node), filter_element, args);
      break;
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_autofree char *redacted = loom_export_filter_text (self, json_node_get_string (node),
                                                               -1);

          if (redacted != NULL)
            json_node_set_string (node, redacted);
        }
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
}

void
loom_export_filter_json (LoomExportFilter  *self,
                         JsonNode          *node,
                         const char *const *skip_members)
{
  g_return_if_fail (node != NULL);

  if (loom_export_filter_redacts (self))
    filter_node (self, node, skip_members);
}

struct _LoomExportMark
{
  guint       n_redactions;
  guint       n_secrets;
  GHashTable *counts; /* family -> occurrences */
};

LoomExportMark *
loom_export_filter_mark (LoomExportFilter *self)
{
  LoomExportMark *mark = g_new0 (LoomExportMark, 1);

  if (loom_export_filter_redacts (self))
    {
      mark->n_redactions = self->n_redactions;
      mark->n_secrets = loom_redactor_get_n_secrets (self->redactor);
      mark->counts = loom_redactor_get_counts (self->redactor);
    }
  return mark;
}

void
loom_export_mark_free (LoomExportMark *mark)
{
  if (mark == NULL)
    return;
  g_clear_pointer (&mark->counts, g_hash_table_unref);
  g_free (mark);
}

void
loom_export_filter_discount (LoomExportFilter *self,
                             LoomExportMark   *package,
                             LoomExportMark   *since)
{
  g_autoptr (GHashTable) counts = NULL;
  GHashTableIter iter;
  gpointer       family, n;

  g_return_if_fail (package != NULL && since != NULL);

  if (!loom_export_filter_redacts (self) || package->counts == NULL)
    return;
  package->n_redactions += self->n_redactions - since->n_redactions;
  counts = loom_redactor_get_counts (self->redactor);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &family, &n))
    {
      guint before = GPOINTER_TO_UINT (g_hash_table_lookup (since->counts, family));
      guint counted = GPOINTER_TO_UINT (g_hash_table_lookup (package->counts, family));

      /* The family names are the redactor's static strings. */
      g_hash_table_insert (package->counts, family,
                           GUINT_TO_POINTER (counted + GPOINTER_TO_UINT (n) - before));
    }
}

guint
loom_export_filter_build_manifest (LoomExportFilter *self,
                                   JsonBuilder      *builder,
                                   LoomExportMark   *since)
{
  g_autoptr (GHashTable) counts = NULL;
  const char *const *families = loom_redactor_get_families ();
  guint              total;

  g_return_val_if_fail (JSON_IS_BUILDER (builder), 0);

  json_builder_set_member_name (builder, "redactions");
  if (!loom_export_filter_redacts (self))
    {
      json_builder_add_null_value (builder);
      return 0;
    }
  total = self->n_redactions - (since != NULL ? since->n_redactions : 0);
  counts = loom_redactor_get_counts (self->redactor);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, total);
  /* Distinct secrets first met in this package: one met before keeps its placeholder. */
  json_builder_set_member_name (builder, "secrets");
  json_builder_add_int_value (builder, loom_redactor_get_n_secrets (self->redactor) -
                                         (since != NULL ? since->n_secrets : 0));
  json_builder_set_member_name (builder, "families");
  json_builder_begin_object (builder);
  /* The fixed order of the families, so that two packages of one session read alike. */
  for (guint i = 0; families[i] != NULL; i++)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, families[i]));

      if (since != NULL && since->counts != NULL)
        n -= GPOINTER_TO_UINT (g_hash_table_lookup (since->counts, families[i]));

      if (n > 0)
        {
          json_builder_set_member_name (builder, families[i]);
          json_builder_add_int_value (builder, n);
        }
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return total;
}

char *
loom_export_filter_json_text (LoomExportFilter *self,
                              const char       *text)
{
  g_autoptr (LoomJsonDoc) doc = NULL;
  g_autoptr (JsonNode) node = NULL;
  const LoomJson *value;
  guint           n_before;

  if (!loom_export_filter_redacts (self) || text == NULL)
    return NULL;
  doc = loom_json_doc_new ();
  /* What does not parse (a record the importer salvaged) is searched as the text it is. */
  if (!(value = loom_json_doc_parse (doc, text, strlen (text), NULL)))
    return loom_export_filter_text (self, text, -1);
  node = loom_json_value_to_node (value);
  n_before = self->n_redactions;
  filter_node (self, node, NULL);
  return self->n_redactions != n_before ? loom_json_write (node) : NULL;
}
