/* loom-import-file.c — what a format calls while one file is imported: reading records and
 * writing sessions, messages and events, then recomputing what is derived from them.
 *
 * Everything here runs inside the file's transaction (see loom-import.c), and reaches the store
 * through its writer (loom-store-writer.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-import-private.h"
#include "loom-json-salvage.h"
#include "loom-naming.h"
#include "loom-time.h"

#define TITLE_PROMPT_LIMIT 60

LoomImportFile *
loom_import_file_new (LoomStoreWriter    *writer,
                      const LoomImporter *importer,
                      LoomImportStats    *stats,
                      const char         *path,
                      gboolean            reset,
                      guint64             offset,
                      guint64             line,
                      JsonObject         *state,
                      GError            **error)
{
  g_autoptr (LoomImportFile) file = g_new0 (LoomImportFile, 1);

  file->writer = writer;
  file->importer = importer;
  file->stats = stats;
  file->path = g_strdup (path);
  file->reset = reset;
  file->start = reset ? 0 : offset;
  file->state = state != NULL ? json_object_ref (state) : json_object_new ();
  file->ids_checked = json_object_has_member (file->state, LOOM_IMPORT_STATE_IDS);
  file->sessions = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  file->next_seq = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  file->tokens = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  file->models = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                        (GDestroyNotify)g_strfreev);

  if (!importer->whole_document && !g_str_has_suffix (path, ".json"))
    {
      file->reader = loom_jsonl_reader_new (path, offset, line, error);
      if (file->reader == NULL)
        return NULL;
    }
  return g_steal_pointer (&file);
}

void
loom_import_file_free (LoomImportFile *file)
{
  if (file == NULL)
    return;
  g_clear_pointer (&file->path, g_free);
  g_clear_pointer (&file->state, json_object_unref);
  g_clear_pointer (&file->reader, loom_jsonl_reader_free);
  g_clear_pointer (&file->sessions, g_hash_table_unref);
  g_clear_pointer (&file->next_seq, g_hash_table_unref);
  g_clear_pointer (&file->tokens, g_hash_table_unref);
  g_clear_pointer (&file->models, g_hash_table_unref);
  g_clear_pointer (&file->document, loom_json_doc_free);
  g_free (file);
}

const char *
loom_import_file_get_path (LoomImportFile *file)
{
  return file->path;
}

gboolean
loom_import_file_is_reset (LoomImportFile *file)
{
  return file->reset;
}

gboolean
loom_import_file_ids_checked (LoomImportFile *file)
{
  return file->ids_checked;
}

JsonObject *
loom_import_file_get_state (LoomImportFile *file)
{
  return file->state;
}

guint64
loom_import_file_get_line (LoomImportFile *file)
{
  return file->reader != NULL ? loom_jsonl_reader_get_line (file->reader) : 0;
}

void
loom_import_file_warn (LoomImportFile *file,
                       const char     *format,
                       ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (file->reader != NULL && loom_import_file_get_line (file) > 0)
    g_ptr_array_add (file->stats->warnings,
                     g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": %s", file->path,
                                      loom_import_file_get_line (file), message));
  else
    g_ptr_array_add (file->stats->warnings, g_strdup_printf ("%s: %s", file->path, message));
}

/* Whether `"@name" :` ends just before @at, whitespace allowed around the colon. */
static gboolean
names_member (const char *start,
              const char *at,
              const char *name)
{
  gsize       length = strlen (name);
  const char *p = at;

  while (p > start && g_ascii_isspace (p[-1]))
    p--;
  if (p == start || *--p != ':')
    return FALSE;
  while (p > start && g_ascii_isspace (p[-1]))
    p--;
  return (gsize)(p - start) >= length + 2 && p[-1] == '"' && p[-length - 2] == '"' &&
         memcmp (p - length - 1, name, length) == 0;
}

/* Whether member @name with the string @value occurs in the file's first @limit bytes. The
 * value is searched for, quoted, and then its member's name before it. */
static gboolean
mentions_within (const char *path,
                 guint64     limit,
                 const char *name,
                 const char *value)
{
  g_autoptr (GMappedFile) mapped = NULL;
  g_autofree char *needle = NULL;
  const char      *contents, *p, *end;
  gsize            needle_length;

  if (limit == 0 || *value == '\0' || !(mapped = g_mapped_file_new (path, FALSE, NULL)) ||
      !(contents = g_mapped_file_get_contents (mapped)))
    return FALSE;

  needle = g_strdup_printf ("\"%s\"", value);
  needle_length = strlen (needle);
  end = contents + MIN ((guint64)g_mapped_file_get_length (mapped), limit);
  for (p = contents; (gsize)(end - p) >= needle_length; p++)
    {
      if (!(p = memchr (p, '"', (gsize)(end - p) - needle_length + 1)))
        return FALSE;
      if (memcmp (p, needle, needle_length) == 0 && names_member (contents, p, name))
        return TRUE;
    }
  return FALSE;
}

gboolean
loom_import_file_read_before (LoomImportFile *file,
                              const char     *name,
                              const char     *value)
{
  g_return_val_if_fail (name != NULL && value != NULL, FALSE);

  /* The bytes up to where this pass began, as the cursor's hash vouched for them. */
  return mentions_within (file->path, file->start, name, value);
}

gboolean
loom_import_file_mentions (LoomImportFile *file,
                           const char     *name,
                           const char     *value)
{
  g_return_val_if_fail (name != NULL && value != NULL, FALSE);

  return mentions_within (file->path, G_MAXUINT64, name, value);
}

char *
loom_import_file_find_first (LoomImportFile      *file,
                             LoomImportRecordFunc func,
                             gpointer             data)
{
  g_autoptr (LoomJsonlReader) reader = NULL;
  const LoomJson *record = NULL;

  /* A reader of its own: the file's may be past the record sought, and must stay where it is.
   * What it cannot read is the file's reader's to report. */
  if (!(reader = loom_jsonl_reader_new (file->path, 0, 0, NULL)))
    return NULL;
  for (;;)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *problem = NULL;
      LoomJsonlResult  result = loom_jsonl_reader_next (reader, &record, &problem, &error);
      char            *found;

      if (result == LOOM_JSONL_BAD)
        continue;
      if (result != LOOM_JSONL_RECORD)
        return NULL;
      if ((found = func (record, data)) != NULL)
        return found;
    }
}

/* The warning just added only says that the file is still being written: nothing is lost, and
 * the next pass reads the rest (LoomImportStats.waiting). */
static void
note_last_warning_waiting (LoomImportFile *file)
{
  GPtrArray *warnings = file->stats->warnings;

  g_ptr_array_add (file->stats->waiting,
                   g_strdup (g_ptr_array_index (warnings, warnings->len - 1)));
}

gboolean
loom_import_file_next_record (LoomImportFile  *file,
                              const LoomJson **record)
{
  g_return_val_if_fail (file->reader != NULL, FALSE);

  for (;;)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *problem = NULL;
      LoomJsonlResult  result;

      result = loom_jsonl_reader_next (file->reader, record, &problem, &error);
      switch (result)
        {
        case LOOM_JSONL_RECORD:
          file->stats->records++;
          return TRUE;

        case LOOM_JSONL_BAD:
          loom_import_file_warn (file, "%s", problem);
          continue;

        case LOOM_JSONL_ERROR:
          loom_import_file_warn (file, "%s", error->message);
          file->failed_to_read = TRUE;
          return FALSE;

        case LOOM_JSONL_END:
        default:
          if (loom_jsonl_reader_has_pending_tail (file->reader))
            {
              g_ptr_array_add (file->stats->warnings,
                               g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": the last line is "
                                                "incomplete; it is read again when the file "
                                                "grows",
                                                file->path,
                                                loom_jsonl_reader_get_line (file->reader) + 1));
              note_last_warning_waiting (file);
            }
          return FALSE;
        }
    }
}

/* The 1-based line of @offset in @text. */
static guint64
line_of_offset (const char *text,
                gsize       offset)
{
  guint64 line = 1;

  for (const char *p = text, *end = text + offset;
       p < end && (p = memchr (p, '\n', (gsize)(end - p))) != NULL; p++)
    line++;
  return line;
}

/* A warning about one line of a whole document, formatted as loom_import_file_warn () formats
 * those of a JSON Lines file. */
static void
warn_at_line (LoomImportFile *file,
              guint64         line,
              const char     *message)
{
  g_ptr_array_add (file->stats->warnings,
                   g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": %s", file->path, line, message));
}

/* Rebuilds the document from the parts of it that parse (loom-json-salvage.c) and reports each
 * part left out. NULL when nothing can be salvaged: the root is not an object. */
static const LoomJson *
salvage_document (LoomImportFile *file,
                  const char     *contents,
                  gsize           length)
{
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (loom_json_problem_free);
  g_autofree char *salvaged = NULL;

  salvaged = loom_json_salvage (contents, length, LOOM_JSON_MAX_DEPTH, problems);
  if (salvaged == NULL)
    return NULL;
  for (guint i = 0; i < problems->len; i++)
    {
      LoomJsonProblem *problem = g_ptr_array_index (problems, i);

      warn_at_line (file, problem->line, problem->message);
      if (problem->truncated)
        note_last_warning_waiting (file);
    }
  return loom_json_doc_parse (file->document, salvaged, strlen (salvaged), NULL);
}

const LoomJson *
loom_import_file_read_document (LoomImportFile *file,
                                GError        **error)
{
  g_autoptr (GMappedFile) mapped = NULL;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *repaired = NULL;
  const LoomJson  *root;
  const char      *contents;
  const char      *invalid;
  gsize            length;
  gsize            first_surrogate = 0;

  mapped = g_mapped_file_new (file->path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  contents = g_mapped_file_get_contents (mapped);
  length = g_mapped_file_get_length (mapped);

  /* An agent that rewrites a file may empty it first: like a damaged one, an empty document
   * takes nothing away, and there is nothing in it to fail on. */
  if (contents == NULL || length == 0)
    {
      loom_import_file_warn (file, "the file is empty; it is read again when it is written");
      note_last_warning_waiting (file);
      if (file->document == NULL)
        file->document = loom_json_doc_new ();
      return loom_json_doc_parse (file->document, "{}", 2, error);
    }

  /* Mapped, the file costs no memory yet; its copy below would cost all of it, and its parse
   * as much again. Like an empty one, it takes nothing away. */
  if (length > loom_max_record_bytes ())
    {
      g_autofree char *message = loom_record_too_large_message ("document", length);

      warn_at_line (file, 1, message);
      if (file->document == NULL)
        file->document = loom_json_doc_new ();
      return loom_json_doc_parse (file->document, "{}", 2, error);
    }

  /* No depth check of its own: the parser stops at LOOM_JSON_MAX_DEPTH without recursing, and
   * salvage leaves out only the record that nests too deep. */
  if (!g_utf8_validate_len (contents, length, &invalid))
    {
      warn_at_line (file, line_of_offset (contents, (gsize)(invalid - contents)),
                    "invalid UTF-8 was replaced by U+FFFD");
      repaired = g_utf8_make_valid (contents, (gssize)length);
      length = strlen (repaired);
    }
  else
    repaired = g_strndup (contents, length);
  contents = repaired;
  /* Replacing keeps every newline where it was, so lines counted here are the file's. */
  if (loom_jsonl_fix_surrogates_full (repaired, length, &first_surrogate) > 0)
    warn_at_line (file, line_of_offset (contents, first_surrogate),
                  "unpaired surrogate escapes were replaced by U+FFFD");

  if (file->document == NULL)
    file->document = loom_json_doc_new ();
  root = loom_json_doc_parse (file->document, contents, length, &local_error);
  if (root == NULL)
    {
      /* Half-written, or one record the parser refuses: what reads is imported, and nothing
       * is cleared. A damaged document only adds what it can read and never takes away what
       * an intact version gave before — an agent that crashed mid-write must not cost the
       * messages already imported. Messages and events are inserted with ON CONFLICT DO
       * NOTHING on their source ids, so what was there already is not added twice; the next
       * change to the file reads it again from its start. */
      root = salvage_document (file, contents, length);
      if (root == NULL)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_PARSE, "“%s” is not valid JSON: %s",
                       file->path, local_error->message);
          return NULL;
        }
    }
  else if (file->reset)
    {
      /* Intact and read from its start: it replaces whatever its earlier versions gave. */
      if (!loom_store_writer_clear_file (file->writer, file->path, error))
        return NULL;
    }
  file->stats->records++;
  return root;
}

/* ——— Writing ——— */

gint64
loom_import_file_session (LoomImportFile          *file,
                          const LoomSessionRecord *meta,
                          GError                 **error)
{
  const char *source = meta->source ? meta->source : file->importer->name;
  gint64      id;

  g_return_val_if_fail (meta->source_session_id != NULL, 0);

  id = loom_store_writer_upsert_session (file->writer, meta, source, file->path,
                                         &file->stats->sessions_new, error);
  if (id <= 0)
    return 0;

  if (g_hash_table_add (file->sessions, g_memdup2 (&id, sizeof id)))
    file->stats->sessions_touched++;
  return id;
}

gboolean
loom_import_file_rekey (LoomImportFile *file,
                        const char     *source,
                        const char     *old_id,
                        const char     *new_id,
                        GError        **error)
{
  return loom_store_writer_rekey_session (file->writer, source, old_id, new_id, file->path, error);
}

/* The place of the session's next message or event in its timeline, -1 on an error. */
static gint64
next_seq (LoomImportFile *file,
          gint64          session_id,
          GError        **error)
{
  gint64 *seq = g_hash_table_lookup (file->next_seq, &session_id);

  if (seq == NULL)
    {
      gint64 last;

      if ((last = loom_store_writer_last_seq (file->writer, session_id, error)) < 0)
        return -1;
      seq = g_new (gint64, 1);
      *seq = last;
      g_hash_table_insert (file->next_seq, g_memdup2 (&session_id, sizeof session_id), seq);
    }
  return ++*seq;
}

gint64
loom_import_file_add_message (LoomImportFile         *file,
                              gint64                  session_id,
                              const LoomMessageDraft *m,
                              GError                **error)
{
  const LoomStoreMessage message = {
    .source_id = m->source_id,
    .role = m->role,
    .text = m->text,
    .flags = m->flags,
    .model = m->model,
    .created_at = m->created_at,
    .input_tokens = m->input_tokens,
    .output_tokens = m->output_tokens,
    .cache_read_tokens = m->cache_read_tokens,
    .cache_creation_tokens = m->cache_creation_tokens,
    .reasoning_tokens = m->reasoning_tokens,
  };
  gint64 seq;

  g_return_val_if_fail (m->role != NULL, 0);

  if ((seq = next_seq (file, session_id, error)) < 0)
    return 0;
  return loom_store_writer_add_message (file->writer, session_id, seq, &message,
                                        &file->stats->messages, error);
}

gint64
loom_import_file_add_event (LoomImportFile       *file,
                            gint64                session_id,
                            const LoomEventDraft *e,
                            GError              **error)
{
  const LoomStoreEvent event = {
    .kind = e->kind,
    .source_id = e->source_id,
    .call_id = e->call_id,
    .tool_name = e->tool_name,
    .is_error = e->is_error,
    .path = e->path,
    .change_kind = e->change_kind,
    .text = e->text,
    .payload = e->payload,
    .created_at = e->created_at,
    .message_id = e->message_id,
  };
  gint64 seq;

  g_return_val_if_fail (e->kind != NULL, 0);

  if ((seq = next_seq (file, session_id, error)) < 0)
    return 0;
  return loom_store_writer_add_event (file->writer, session_id, seq, &event, &file->stats->events,
                                      error);
}

void
loom_import_file_set_tokens (LoomImportFile *file,
                             gint64          session_id,
                             gint64          input,
                             gint64          output,
                             gint64          cache_read,
                             gint64          cache_creation,
                             gint64          reasoning)
{
  LoomTokenTotals *totals = g_new (LoomTokenTotals, 1);

  totals->input = input;
  totals->output = output;
  totals->cache_read = cache_read;
  totals->cache_creation = cache_creation;
  totals->reasoning = reasoning;
  g_hash_table_insert (file->tokens, g_memdup2 (&session_id, sizeof session_id), totals);
}

void
loom_import_file_set_models (LoomImportFile    *file,
                             gint64             session_id,
                             const char *const *models)
{
  g_return_if_fail (models != NULL);

  GPtrArray *bounded = g_ptr_array_new ();
  char      *model;

  for (guint i = 0; models[i] != NULL; i++)
    if ((model = loom_naming_bound_line (models[i], LOOM_STORE_WORD_LIMIT)))
      g_ptr_array_add (bounded, model);
  g_ptr_array_add (bounded, NULL);
  g_hash_table_insert (file->models, g_memdup2 (&session_id, sizeof session_id),
                       g_ptr_array_free (bounded, FALSE));
}

/* ——— After the file ——— */

/* A name for the session from its first real prompt: one line, at most a few words. */
static char *
title_from_prompt (const char *text)
{
  g_autoptr (GString) title = g_string_new (NULL);
  gboolean space = FALSE;
  glong    n = 0;

  for (const char *p = text; *p != '\0' && n < TITLE_PROMPT_LIMIT; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || g_unichar_iscntrl (c))
        {
          space = title->len > 0;
          continue;
        }
      if (space)
        {
          g_string_append_c (title, ' ');
          n++;
        }
      space = FALSE;
      g_string_append_unichar (title, c);
      n++;
    }

  if (n >= TITLE_PROMPT_LIMIT)
    {
      /* Cut at the last word boundary and say that it goes on. */
      const char *last_space = strrchr (title->str, ' ');

      if (last_space != NULL && last_space - title->str > TITLE_PROMPT_LIMIT / 2)
        g_string_truncate (title, (gsize)(last_space - title->str));
      g_string_append (title, "…");
    }
  /* Not in one call: the order in which a call's arguments are read is the compiler's, and
   * clang stole the pointer before reading the length through it. */
  if (title->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&title), FALSE);
}

static gboolean
update_title (LoomImportFile *file,
              gint64          session_id,
              GError        **error)
{
  g_autofree char *agent_title = NULL;
  g_autofree char *first_prompt = NULL;
  g_autofree char *base = NULL;
  g_autofree char *date = NULL;
  g_autofree char *title = NULL;
  gboolean         locked;
  gint64           created_at;

  if (!loom_store_writer_get_title_sources (file->writer, session_id, LOOM_MESSAGE_NOT_A_PROMPT,
                                            &locked, &agent_title, &first_prompt, &created_at,
                                            error))
    return FALSE;
  if (locked)
    return TRUE; /* a person named it */

  if (agent_title != NULL)
    base = title_from_prompt (agent_title);
  if (base == NULL && first_prompt != NULL)
    base = title_from_prompt (first_prompt);
  date = loom_time_to_date (created_at);

  title = g_strdup_printf ("%s - %s", base ? base : "Untitled session", date ? date : "undated");
  return loom_store_writer_set_title (file->writer, session_id, title, error);
}

/* The models an agent reported for its turns (Codex's turn_context), merged with those its
 * messages name: a turn that ended before any reply (interrupted, or all tool calls and
 * reasoning) used its model too, and no message says so. The reported ones come first, in the
 * order of the turns; the model, when no message names one, is the last reported. */
static gboolean
take_reported_models (LoomImportFile    *file,
                      gint64             session_id,
                      const char *const *reported,
                      GError           **error)
{
  g_autoptr (JsonArray) merged = json_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *models_json = NULL;
  g_autofree char *model = NULL;
  g_autofree char *text = NULL;
  JsonArray       *from_messages = NULL;
  guint            n_reported = g_strv_length ((char **)reported);

  if (n_reported == 0)
    return TRUE;
  if (!loom_store_writer_get_models (file->writer, session_id, &models_json, &model, error))
    return FALSE;

  for (guint i = 0; i < n_reported; i++)
    if (g_hash_table_add (seen, (gpointer)reported[i]))
      json_array_add_string_element (merged, reported[i]);
  if (models_json != NULL && json_parser_load_from_data (parser, models_json, -1, NULL) &&
      JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    from_messages = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; from_messages != NULL && i < json_array_get_length (from_messages); i++)
    {
      const char *name = json_array_get_string_element (from_messages, i);

      if (name != NULL && g_hash_table_add (seen, (gpointer)name))
        json_array_add_string_element (merged, name);
    }

  json_node_set_array (root, merged);
  text = loom_json_write (root);
  return loom_store_writer_set_models (
    file->writer, session_id, text,
    model != NULL && *model != '\0' ? model : reported[n_reported - 1], error);
}

gboolean
loom_import_file_finish (LoomImportFile *file,
                         GError        **error)
{
  GHashTableIter iter;
  gpointer       key;

  g_hash_table_iter_init (&iter, file->sessions);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gint64           session_id = *(gint64 *)key;
      LoomTokenTotals *totals = g_hash_table_lookup (file->tokens, &session_id);
      GStrv            models;

      if (!loom_store_writer_recount_session (file->writer, session_id, LOOM_MESSAGE_NOT_A_PROMPT,
                                              LOOM_MESSAGE_API_ERROR, error))
        return FALSE;

      if (totals != NULL && !loom_store_writer_set_tokens (
                              file->writer, session_id, totals->input, totals->output,
                              totals->cache_read, totals->cache_creation, totals->reasoning, error))
        return FALSE;

      if ((models = g_hash_table_lookup (file->models, &session_id)) != NULL &&
          !take_reported_models (file, session_id, (const char *const *)models, error))
        return FALSE;

      if (!update_title (file, session_id, error))
        return FALSE;
    }
  return TRUE;
}
