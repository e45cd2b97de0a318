/* loom-import-file.c — what a format calls while one file is imported: reading records and
 * writing sessions, messages and events, then recomputing what is derived from them.
 *
 * Everything here runs inside the file's transaction (see loom-import.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-import-private.h"
#include "loom-json-salvage.h"
#include "loom-naming.h"
#include "loom-time.h"

/* What is shown and searched of an event; the payload keeps everything. */
#define EVENT_TEXT_LIMIT 65536
#define TITLE_PROMPT_LIMIT 60
/* A model's name, a version, a mode, a commit: a word or a few. */
#define METADATA_WORD_LIMIT 200
/* What a task set out to do: a paragraph, shown on a few lines. */
#define TASK_OBJECTIVE_LIMIT 2000

LoomImportFile *
loom_import_file_new (LoomStore          *store,
                      const LoomImporter *importer,
                      LoomImportStats    *stats,
                      const char         *path,
                      gboolean            reset,
                      guint64             offset,
                      guint64             line,
                      JsonObject         *state,
                      GError            **error)
{
  g_autoptr(LoomImportFile) file = g_new0 (LoomImportFile, 1);

  file->store = g_object_ref (store);
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
  g_clear_object (&file->store);
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
  va_list args;

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
  gsize length = strlen (name);
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
  g_autoptr(GMappedFile) mapped = NULL;
  g_autofree char *needle = NULL;
  const char *contents, *p, *end;
  gsize needle_length;

  if (limit == 0 || *value == '\0' ||
      !(mapped = g_mapped_file_new (path, FALSE, NULL)) ||
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
loom_import_file_find_first (LoomImportFile       *file,
                             LoomImportRecordFunc  func,
                             gpointer              data)
{
  g_autoptr(LoomJsonlReader) reader = NULL;
  const LoomJson *record = NULL;

  /* A reader of its own: the file's may be past the record sought, and must stay where it is.
   * What it cannot read is the file's reader's to report. */
  if (!(reader = loom_jsonl_reader_new (file->path, 0, 0, NULL)))
    return NULL;
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *problem = NULL;
      LoomJsonlResult result = loom_jsonl_reader_next (reader, &record, &problem, &error);
      char *found;

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
      g_autoptr(GError) error = NULL;
      g_autofree char *problem = NULL;
      LoomJsonlResult result;

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
                                                "grows", file->path,
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
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (loom_json_problem_free);
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
loom_import_file_read_document (LoomImportFile  *file,
                                GError         **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *repaired = NULL;
  const LoomJson *root;
  const char *contents;
  const char *invalid;
  gsize length;
  gsize first_surrogate = 0;

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
      if (!loom_import_file_clear (file->store, file->path, error))
        return NULL;
    }
  file->stats->records++;
  return root;
}

/* ——— Writing ——— */

static void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *text)
{
  /* Static: every statement here is stepped and reset before its caller's strings go, and a
   * copy of each payload (megabytes, some of them) was a tenth of the writing. */
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, index);
}

/* Metadata is shown on one line (a title, a model, a branch), and the transcript bounds none
 * of it: the store keeps a line of a sane length, valid UTF-8, without control characters
 * (loom_naming_bound_line()). */
static void
bind_line (sqlite3_stmt *stmt,
           int           index,
           const char   *text,
           glong         max_chars)
{
  char *line = loom_naming_bound_line (text, max_chars);

  if (line != NULL)
    sqlite3_bind_text (stmt, index, line, -1, g_free);
  else
    sqlite3_bind_null (stmt, index);
}

/* A path is kept as it is, but valid and no longer than any real one. */
static void
bind_path (sqlite3_stmt *stmt,
           int           index,
           const char   *path)
{
  char *bounded = loom_naming_bound_path (path, LOOM_NAMING_PATH_LIMIT);

  if (bounded != NULL)
    sqlite3_bind_text (stmt, index, bounded, -1, g_free);
  else
    sqlite3_bind_null (stmt, index);
}

static void
bind_count (sqlite3_stmt *stmt,
            int           index,
            gint64        value)
{
  if (value >= 0)
    sqlite3_bind_int64 (stmt, index, value);
  else
    sqlite3_bind_null (stmt, index);
}

/* A link to another row; 0 for none. */
static void
bind_row (sqlite3_stmt *stmt,
          int           index,
          gint64        row)
{
  if (row > 0)
    sqlite3_bind_int64 (stmt, index, row);
  else
    sqlite3_bind_null (stmt, index);
}

gint64
loom_import_step (LoomStore     *store,
                  sqlite3_stmt  *stmt,
                  const char    *doing,
                  GError       **error)
{
  int rc = sqlite3_step (stmt);
  gint64 id = 0;

  if (rc == SQLITE_ROW)
    {
      id = sqlite3_column_int64 (stmt, 0);
      rc = sqlite3_step (stmt);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (store, error, doing);
      sqlite3_reset (stmt);
      return -1;
    }
  sqlite3_reset (stmt);
  return id;
}

/* The row an INSERT … ON CONFLICT DO NOTHING added, 0 when it met a conflict, -1 on an error.
 * Not RETURNING: SQLite gathers returned rows in a temporary table, opened and closed for
 * every statement — per message and event, a twentieth of an import. */
static gint64
step_inserting (LoomStore     *store,
                sqlite3_stmt  *stmt,
                const char    *doing,
                GError       **error)
{
  sqlite3 *db = sqlite3_db_handle (stmt);

  if (loom_import_step (store, stmt, doing, error) < 0)
    return -1;
  return sqlite3_changes (db) > 0 ? sqlite3_last_insert_rowid (db) : 0;
}

static gboolean
is_tombstoned (LoomImportFile  *file,
               const char      *source,
               const char      *source_session_id,
               GError         **error)
{
  static const char sql[] =
    "SELECT 1 FROM tombstones WHERE source = ?1 AND source_session_id = ?2";
  sqlite3_stmt *stmt = loom_store_cached (file->store, sql, error);

  if (stmt == NULL)
    return FALSE;
  bind_text (stmt, 1, source);
  bind_text (stmt, 2, source_session_id);
  return loom_import_step (file->store, stmt, "check deleted sessions", error) > 0;
}

/* The session's row id, 0 when there is none, -1 on an error; and when asked, the project and
 * the parent it links to (0 for none). */
static gint64
find_session (LoomImportFile  *file,
              const char      *source,
              const char      *source_session_id,
              gint64          *project_id,
              gint64          *parent_id,
              GError         **error)
{
  static const char sql[] =
    "SELECT id, ifnull (project_id, 0), ifnull (parent_session_id, 0) FROM sessions"
    " WHERE source = ?1 AND source_session_id = ?2";
  sqlite3_stmt *stmt = loom_store_cached (file->store, sql, error);
  gint64 id = 0;
  int rc;

  if (stmt == NULL)
    return -1;
  bind_text (stmt, 1, source);
  bind_text (stmt, 2, source_session_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      id = sqlite3_column_int64 (stmt, 0);
      if (project_id != NULL)
        *project_id = sqlite3_column_int64 (stmt, 1);
      if (parent_id != NULL)
        *parent_id = sqlite3_column_int64 (stmt, 2);
    }
  else if (rc != SQLITE_DONE)
    {
      loom_store_set_error (file->store, error, "find the session");
      id = -1;
    }
  sqlite3_reset (stmt);
  return id;
}

/* A new session, linked to its project and parent when they are known (> 0): an INSERT of one
 * row sets foreign keys without the statement journal an UPDATE needs for them. */
static gint64
create_session (LoomImportFile  *file,
                const char      *source,
                const char      *source_session_id,
                gint64           project_id,
                gint64           parent_id,
                GError         **error)
{
  static const char sql[] =
    "INSERT INTO sessions (uuid, source, source_session_id, project_id, parent_session_id)"
    " VALUES (?1, ?2, ?3, ?4, ?5)";
  g_autofree char *uuid = g_uuid_string_random ();
  sqlite3_stmt *stmt = loom_store_cached (file->store, sql, error);
  gint64 id;

  if (stmt == NULL)
    return -1;
  bind_text (stmt, 1, uuid);
  bind_text (stmt, 2, source);
  bind_text (stmt, 3, source_session_id);
  bind_row (stmt, 4, project_id);
  bind_row (stmt, 5, parent_id);
  id = step_inserting (file->store, stmt, "add the session", error);
  /* Counted here, so that a placeholder parent (a sub-agent's file read before its parent's)
   * is new once, and not its parent's file, which finds it there. */
  if (id > 0)
    file->stats->sessions_new++;
  return id;
}

static gint64
ensure_project (LoomImportFile  *file,
                const char      *path,
                gint64           created_at,
                GError         **error)
{
  static const char find_sql[] = "SELECT id FROM projects WHERE path = ?1";
  static const char add_sql[] = "INSERT INTO projects (path, name, created_at) VALUES (?1, ?2, ?3)";
  /* A project began with its earliest session, whichever file is read first. */
  static const char earlier_sql[] =
    "UPDATE projects SET created_at = ?2 WHERE id = ?1 AND (created_at = 0 OR ?2 < created_at)";
  g_autofree char *name = NULL;
  sqlite3_stmt *stmt;
  gint64 id;

  if (path == NULL || *path == '\0')
    return 0;
  if (!(stmt = loom_store_cached (file->store, find_sql, error)))
    return -1;
  bind_text (stmt, 1, path);
  if ((id = loom_import_step (file->store, stmt, "find the project", error)) != 0)
    {
      if (id < 0 || created_at <= 0)
        return id;
      if (!(stmt = loom_store_cached (file->store, earlier_sql, error)))
        return -1;
      sqlite3_bind_int64 (stmt, 1, id);
      sqlite3_bind_int64 (stmt, 2, created_at);
      return loom_import_step (file->store, stmt, "date the project", error) < 0 ? -1 : id;
    }
  if (!(stmt = loom_store_cached (file->store, add_sql, error)))
    return -1;
  name = g_path_get_basename (path);
  bind_text (stmt, 1, path);
  bind_text (stmt, 2, name);
  sqlite3_bind_int64 (stmt, 3, created_at);
  return step_inserting (file->store, stmt, "record the project", error);
}

/* The parent's row id (a placeholder until its own file is imported), 0 for none, -1 on an
 * error, -2 when the person deleted the parent for good. */
#define PARENT_DELETED (-2)

static gint64
ensure_parent (LoomImportFile  *file,
               const char      *source,
               const char      *parent_source_id,
               GError         **error)
{
  gint64 parent;

  if (parent_source_id == NULL)
    return 0;
  /* The person deleted the parent for good: its sub-agents must not bring it back. */
  if (is_tombstoned (file, source, parent_source_id, error))
    return PARENT_DELETED;
  parent = find_session (file, source, parent_source_id, NULL, NULL, error);
  if (parent == 0)
    {
      static const char name_sql[] = "UPDATE sessions SET title = ?2 WHERE id = ?1";
      g_autofree char *title = NULL;
      sqlite3_stmt *stmt;

      /* A placeholder until the parent's own file is imported, which names it properly. */
      parent = create_session (file, source, parent_source_id, 0, 0, error);
      if (parent <= 0 || !(stmt = loom_store_cached (file->store, name_sql, error)))
        return -1;
      title = g_strdup_printf ("Session %s (not imported yet)", parent_source_id);
      sqlite3_bind_int64 (stmt, 1, parent);
      bind_text (stmt, 2, title);
      if (loom_import_step (file->store, stmt, "name the parent session", error) < 0)
        return -1;
    }
  return parent;
}

/* The rows of (@source, @old_id) and of its children "@old_id/…" re-keyed to @new_id: see
 * loom_import_file_rekey (). SQL matches a child by its prefix with substr (), not LIKE, whose
 * wildcards an id may hold. */
#define OF_OLD_ID \
  " source = ?1 AND (source_session_id = ?2 OR" \
  "  substr (source_session_id, 1, length (?2) + 1) = ?2 || '/')"
#define NEW_ID "?3 || substr (sessions.source_session_id, length (?2) + 1)"

gboolean
loom_import_file_rekey (LoomImportFile  *file,
                        const char      *source,
                        const char      *old_id,
                        const char      *new_id,
                        GError         **error)
{
  static const char find_sql[] =
    "SELECT id, source_path IS ?4 FROM sessions WHERE source = ?1 AND source_session_id = ?2";
  /* A sub-agent's file read first made its parent a placeholder under the new id: its
   * children go to the real row, which takes the id. */
  static const char adopt_sql[] =
    "UPDATE sessions SET parent_session_id = ?2 WHERE parent_session_id = ?1";
  static const char drop_sql[] = "DELETE FROM sessions WHERE id = ?1";
  static const char rename_sql[] =
    "UPDATE sessions SET source_session_id = " NEW_ID " WHERE" OF_OLD_ID " AND source_path IS ?4"
    "  AND NOT EXISTS (SELECT 1 FROM sessions t WHERE t.source = ?1"
    "                  AND t.source_session_id = " NEW_ID ")";
  /* Deleted for good under the old id is deleted under the new one. */
  static const char tombstones_sql[] =
    "INSERT OR IGNORE INTO tombstones (source, source_session_id, deleted_at)"
    " SELECT source, ?3 || substr (source_session_id, length (?2) + 1), deleted_at"
    " FROM tombstones WHERE" OF_OLD_ID;
  gint64 old_row = 0, new_row = 0;
  gboolean old_ours = FALSE, new_placeholder = FALSE;
  sqlite3_stmt *stmt;

  if (g_strcmp0 (old_id, new_id) == 0)
    return TRUE;

  for (guint i = 0; i < 2; i++)
    {
      if (!(stmt = loom_store_cached (file->store, find_sql, error)))
        return FALSE;
      bind_text (stmt, 1, source);
      bind_text (stmt, 2, i == 0 ? old_id : new_id);
      bind_text (stmt, 4, i == 0 ? file->path : NULL);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          *(i == 0 ? &old_row : &new_row) = sqlite3_column_int64 (stmt, 0);
          *(i == 0 ? &old_ours : &new_placeholder) = sqlite3_column_int (stmt, 1);
        }
      sqlite3_reset (stmt);
    }

  /* Only what this file made is re-keyed: an old id some other file holds stays its. */
  if (old_row > 0 && !old_ours)
    old_row = 0;
  /* Both ids are real sessions: the file keeps the one it had, and nothing merges. */
  if (old_row > 0 && new_row > 0 && !new_placeholder)
    return FALSE;

  if (old_row > 0 && new_row > 0)
    {
      if (!(stmt = loom_store_cached (file->store, adopt_sql, error)))
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, new_row);
      sqlite3_bind_int64 (stmt, 2, old_row);
      if (loom_import_step (file->store, stmt, "adopt a placeholder's sub-agents", error) < 0 ||
          !(stmt = loom_store_cached (file->store, drop_sql, error)))
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, new_row);
      if (loom_import_step (file->store, stmt, "drop a placeholder session", error) < 0)
        return FALSE;
    }

  for (guint i = 0; i < 2; i++)
    {
      if (!(stmt = loom_store_cached (file->store, i == 0 ? rename_sql : tombstones_sql, error)))
        return FALSE;
      bind_text (stmt, 1, source);
      bind_text (stmt, 2, old_id);
      bind_text (stmt, 3, new_id);
      if (i == 0)
        bind_text (stmt, 4, file->path);
      if (loom_import_step (file->store, stmt, "give a session its agent's id", error) < 0)
        return FALSE;
    }
  return TRUE;
}

/* What loom_import_file_session () sets, but for the links to the project and the parent. */
#define SESSION_METADATA                                                                    \
  "UPDATE sessions SET"                                                                     \
  "  source_path = coalesce (?2, source_path), source_missing = 0,"                         \
  "  agent_title = coalesce (?3, agent_title),"                                             \
  "  cwd = coalesce (?5, cwd), git_branch = coalesce (?6, git_branch),"                     \
  "  git_commit = coalesce (?7, git_commit), agent_version = coalesce (?8, agent_version)," \
  "  agent_mode = coalesce (?9, agent_mode),"                                               \
  "  selected_agent_id = coalesce (?10, selected_agent_id),"                                \
  "  session_type = coalesce (?11, session_type),"                                          \
  "  task_objective = coalesce (?13, task_objective),"                                      \
  "  task_status = coalesce (?14, task_status),"                                            \
  "  created_at = CASE WHEN ?15 > 0 AND (created_at = 0 OR ?15 < created_at) THEN ?15"      \
  "               ELSE created_at END,"                                                     \
  "  updated_at = max (updated_at, ?16)"

gint64
loom_import_file_session (LoomImportFile           *file,
                          const LoomSessionRecord  *meta,
                          GError                  **error)
{
  /* The project and the parent are foreign keys, set only when they change: an UPDATE that
   * sets a foreign key may fail after changing the row, so SQLite first copies every page it
   * changes to a statement journal. Most calls bring the links the session already has. */
  static const char sql[] = SESSION_METADATA " WHERE id = ?1";
  static const char linking_sql[] =
    SESSION_METADATA ", project_id = coalesce (?4, project_id),"
    "  parent_session_id = coalesce (?12, parent_session_id)"
    " WHERE id = ?1";
  const char *source = meta->source ? meta->source : file->importer->name;
  g_autofree char *project_path =
    loom_naming_bound_path (meta->project_path ? meta->project_path : meta->cwd,
                            LOOM_NAMING_PATH_LIMIT);
  sqlite3_stmt *stmt;
  gint64 id, project_id, parent_id;
  gint64 linked_project = 0, linked_parent = 0;

  g_return_val_if_fail (meta->source_session_id != NULL, 0);

  if (is_tombstoned (file, source, meta->source_session_id, error))
    return 0;
  if (error != NULL && *error != NULL)
    return 0;

  /* The parent first: a sub-agent of a session deleted for good is not imported either. */
  parent_id = ensure_parent (file, source, meta->parent_uuid, error);
  if (parent_id < 0)  /* an error, or PARENT_DELETED */
    return 0;

  project_id = ensure_project (file, project_path, meta->created_at, error);
  if (project_id < 0)
    return 0;

  id = find_session (file, source, meta->source_session_id, &linked_project, &linked_parent,
                     error);
  if (id == 0)
    {
      id = create_session (file, source, meta->source_session_id, project_id, parent_id, error);
      linked_project = project_id;
      linked_parent = parent_id;
    }
  if (id <= 0)
    return 0;

  stmt = loom_store_cached (file->store,
                            (project_id > 0 && project_id != linked_project) ||
                            (parent_id > 0 && parent_id != linked_parent) ? linking_sql : sql,
                            error);
  if (stmt == NULL)
    return 0;

  sqlite3_bind_int64 (stmt, 1, id);
  bind_text (stmt, 2, meta->source_path ? meta->source_path : file->path);
  bind_line (stmt, 3, meta->title, LOOM_NAMING_TITLE_LIMIT);
  bind_row (stmt, 4, project_id);
  bind_path (stmt, 5, meta->cwd);
  bind_line (stmt, 6, meta->git_branch, LOOM_NAMING_TITLE_LIMIT);
  bind_line (stmt, 7, meta->git_commit, METADATA_WORD_LIMIT);
  bind_line (stmt, 8, meta->agent_version, METADATA_WORD_LIMIT);
  bind_line (stmt, 9, meta->agent_mode, METADATA_WORD_LIMIT);
  bind_line (stmt, 10, meta->selected_agent_id, METADATA_WORD_LIMIT);
  bind_line (stmt, 11, meta->session_type, METADATA_WORD_LIMIT);
  bind_row (stmt, 12, parent_id);
  bind_line (stmt, 13, meta->task_objective, TASK_OBJECTIVE_LIMIT);
  bind_line (stmt, 14, meta->task_status, METADATA_WORD_LIMIT);
  sqlite3_bind_int64 (stmt, 15, meta->created_at);
  sqlite3_bind_int64 (stmt, 16, meta->updated_at);
  if (loom_import_step (file->store, stmt, "update the session", error) < 0)
    return 0;

  if (g_hash_table_add (file->sessions, g_memdup2 (&id, sizeof id)))
    file->stats->sessions_touched++;
  return id;
}

static gint64
next_seq (LoomImportFile  *file,
          gint64           session_id,
          GError         **error)
{
  static const char sql[] =
    "SELECT max (ifnull ((SELECT max (seq) FROM messages WHERE session_id = ?1), 0),"
    "            ifnull ((SELECT max (seq) FROM events WHERE session_id = ?1), 0))";
  gint64 *seq = g_hash_table_lookup (file->next_seq, &session_id);

  if (seq == NULL)
    {
      sqlite3_stmt *stmt = loom_store_cached (file->store, sql, error);
      gint64 last;

      if (stmt == NULL)
        return -1;
      sqlite3_bind_int64 (stmt, 1, session_id);
      if ((last = loom_import_step (file->store, stmt, "order the timeline", error)) < 0)
        return -1;
      seq = g_new (gint64, 1);
      *seq = last;
      g_hash_table_insert (file->next_seq, g_memdup2 (&session_id, sizeof session_id), seq);
    }
  return ++*seq;
}

static gint64
find_message (LoomImportFile  *file,
              gint64           session_id,
              const char      *source_id,
              GError         **error)
{
  static const char sql[] = "SELECT id FROM messages WHERE session_id = ?1 AND source_id = ?2";
  sqlite3_stmt *stmt = loom_store_cached (file->store, sql, error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, session_id);
  bind_text (stmt, 2, source_id);
  return loom_import_step (file->store, stmt, "find the message", error);
}

/* A message seen again (Claude writes one record per content block) grows by its new text.
 * Each count of its usage keeps the largest value a record gave (RAISED): the records repeat
 * one response's usage, which only grows as it streams, so a smaller count is a placeholder (a
 * copy tool's 0, a record written again before the final one) and must not replace the real
 * figure. */
#define RAISED(column, param) \
  "  " column " = max (coalesce (" param ", " column "), coalesce (" column ", " param "))"
static gint64
update_message (LoomImportFile          *file,
                gint64                   id,
                const LoomMessageDraft  *m,
                GError                 **error)
{
  static const char update_sql[] =
    "UPDATE messages SET"
    "  text = CASE WHEN ?2 = '' OR ?2 = text THEN text WHEN text = '' THEN ?2"
    "              ELSE text || char (10) || char (10) || ?2 END,"
    "  flags = flags | ?3, model = coalesce (?4, model),"
    RAISED ("input_tokens", "?5") "," RAISED ("output_tokens", "?6") ","
    RAISED ("cache_read_tokens", "?7") "," RAISED ("cache_creation_tokens", "?8") ","
    RAISED ("reasoning_tokens", "?9")
    " WHERE id = ?1";
  /* The same without text and flags, whose update trigger keeps the search index current. A
   * statement that may fire a trigger is one SQLite must be able to undo halfway, so it copies
   * each page it changes to a statement journal first: most updates (Claude's records of a
   * message's tool calls and thinking) only bring the usage, and need none of that. */
  static const char update_usage_sql[] =
    "UPDATE messages SET"
    "  model = coalesce (?4, model),"
    RAISED ("input_tokens", "?5") "," RAISED ("output_tokens", "?6") ","
    RAISED ("cache_read_tokens", "?7") "," RAISED ("cache_creation_tokens", "?8") ","
    RAISED ("reasoning_tokens", "?9")
    " WHERE id = ?1";
  gboolean has_text = m->text != NULL && *m->text != '\0';
  sqlite3_stmt *stmt;

  /* Nothing to add: spare the write (and the index update it would trigger). */
  if (!has_text && m->flags == 0 && m->model == NULL &&
      m->input_tokens < 0 && m->output_tokens < 0 && m->cache_read_tokens < 0 &&
      m->cache_creation_tokens < 0 && m->reasoning_tokens < 0)
    return id;

  stmt = loom_store_cached (file->store, has_text || m->flags != 0 ? update_sql : update_usage_sql,
                            error);
  if (stmt == NULL)
    return 0;
  sqlite3_bind_int64 (stmt, 1, id);
  bind_text (stmt, 2, m->text ? m->text : "");
  sqlite3_bind_int (stmt, 3, (int)m->flags);
  bind_line (stmt, 4, m->model, METADATA_WORD_LIMIT);
  bind_count (stmt, 5, m->input_tokens);
  bind_count (stmt, 6, m->output_tokens);
  bind_count (stmt, 7, m->cache_read_tokens);
  bind_count (stmt, 8, m->cache_creation_tokens);
  bind_count (stmt, 9, m->reasoning_tokens);
  return loom_import_step (file->store, stmt, "update a message", error) < 0 ? 0 : id;
}

gint64
loom_import_file_add_message (LoomImportFile          *file,
                              gint64                   session_id,
                              const LoomMessageDraft  *m,
                              GError                 **error)
{
  /* Insert first, the common case; a conflict on (session, source_id) means the message was
   * seen before, and it is updated instead. */
  static const char insert_sql[] =
    "INSERT INTO messages (session_id, seq, role, flags, source_id, model, created_at, text,"
    "                      input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,"
    "                      reasoning_tokens)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
    " ON CONFLICT (session_id, source_id) WHERE source_id IS NOT NULL DO NOTHING";
  sqlite3_stmt *stmt;
  gint64 id, seq;

  g_return_val_if_fail (m->role != NULL, 0);

  if ((seq = next_seq (file, session_id, error)) < 0 ||
      !(stmt = loom_store_cached (file->store, insert_sql, error)))
    return 0;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, seq);
  bind_text (stmt, 3, m->role);
  sqlite3_bind_int (stmt, 4, (int)m->flags);
  bind_text (stmt, 5, m->source_id);
  bind_line (stmt, 6, m->model, METADATA_WORD_LIMIT);
  sqlite3_bind_int64 (stmt, 7, m->created_at);
  bind_text (stmt, 8, m->text ? m->text : "");
  bind_count (stmt, 9, m->input_tokens);
  bind_count (stmt, 10, m->output_tokens);
  bind_count (stmt, 11, m->cache_read_tokens);
  bind_count (stmt, 12, m->cache_creation_tokens);
  bind_count (stmt, 13, m->reasoning_tokens);
  id = step_inserting (file->store, stmt, "add a message", error);
  if (id < 0)
    return 0;
  if (id > 0)
    {
      file->stats->messages++;
      return id;
    }

  if ((id = find_message (file, session_id, m->source_id, error)) <= 0)
    return 0;
  return update_message (file, id, m, error);
}

static gint64
find_event (LoomImportFile  *file,
            gint64           session_id,
            const char      *kind,
            const char      *source_id,
            GError         **error)
{
  static const char sql[] =
    "SELECT id FROM events WHERE session_id = ?1 AND kind = ?2 AND source_id = ?3";
  sqlite3_stmt *stmt = loom_store_cached (file->store, sql, error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, session_id);
  bind_text (stmt, 2, kind);
  bind_text (stmt, 3, source_id);
  return loom_import_step (file->store, stmt, "find the event", error);
}

/* Cuts @text to at most @limit bytes on a character boundary. */
static const char *
bounded_text (const char *text,
              gsize       limit,
              char      **owned)
{
  const char *end;
  gsize len;

  *owned = NULL;
  if (text == NULL)
    return "";
  len = strlen (text);
  if (len <= limit)
    return text;
  end = g_utf8_find_prev_char (text, text + limit + 1);
  *owned = g_strndup (text, end != NULL ? (gsize)(end - text) : limit);
  return *owned;
}

gint64
loom_import_file_add_event (LoomImportFile        *file,
                            gint64                 session_id,
                            const LoomEventDraft  *e,
                            GError               **error)
{
  static const char sql[] =
    "INSERT INTO events (session_id, seq, kind, message_id, call_id, tool_name, is_error, path,"
    "                    change_kind, source_id, created_at, text, payload, payload_size)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
    " ON CONFLICT (session_id, kind, source_id) WHERE source_id IS NOT NULL DO NOTHING";
  g_autofree char *owned = NULL;
  sqlite3_stmt *stmt;
  gint64 id, seq;

  g_return_val_if_fail (e->kind != NULL, 0);

  if ((seq = next_seq (file, session_id, error)) < 0 ||
      !(stmt = loom_store_cached (file->store, sql, error)))
    return 0;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, seq);
  bind_text (stmt, 3, e->kind);
  if (e->message_id > 0)
    sqlite3_bind_int64 (stmt, 4, e->message_id);
  bind_text (stmt, 5, e->call_id);
  bind_line (stmt, 6, e->tool_name, METADATA_WORD_LIMIT);
  sqlite3_bind_int (stmt, 7, !!e->is_error);
  bind_path (stmt, 8, e->path);
  bind_line (stmt, 9, e->change_kind, METADATA_WORD_LIMIT);
  bind_text (stmt, 10, e->source_id);
  sqlite3_bind_int64 (stmt, 11, e->created_at);
  bind_text (stmt, 12, bounded_text (e->text, EVENT_TEXT_LIMIT, &owned));
  bind_text (stmt, 13, e->payload);
  sqlite3_bind_int64 (stmt, 14, e->payload ? (gint64)strlen (e->payload) : 0);
  id = step_inserting (file->store, stmt, "add an event", error);
  if (id < 0)
    return 0;
  if (id == 0)  /* seen before: the same kind and source id */
    return MAX (find_event (file, session_id, e->kind, e->source_id, error), 0);
  file->stats->events++;
  return id;
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
loom_import_file_set_models (LoomImportFile     *file,
                             gint64              session_id,
                             const char * const *models)
{
  g_return_if_fail (models != NULL);

  GPtrArray *bounded = g_ptr_array_new ();
  char *model;

  for (guint i = 0; models[i] != NULL; i++)
    if ((model = loom_naming_bound_line (models[i], METADATA_WORD_LIMIT)))
      g_ptr_array_add (bounded, model);
  g_ptr_array_add (bounded, NULL);
  g_hash_table_insert (file->models, g_memdup2 (&session_id, sizeof session_id),
                       g_ptr_array_free (bounded, FALSE));
}

/* ——— After the file ——— */

gboolean
loom_import_file_clear (LoomStore   *store,
                        const char  *path,
                        GError     **error)
{
  /* Rows are indexed at the batch's end if their id is past the last one indexed before it
   * (index_deferred). SQLite gives a new row the highest id plus one: once the file's rows,
   * the newest, are gone, the rows read again would take ids at or below that mark, and never
   * be indexed. The mark comes down to the highest id left, below which every row was indexed
   * before the batch. */
  static const char * const statements[] = {
    "DELETE FROM events WHERE session_id IN (SELECT id FROM sessions WHERE source_path = ?1)",
    "DELETE FROM messages WHERE session_id IN (SELECT id FROM sessions WHERE source_path = ?1)",
    "UPDATE index_deferred SET after_id = min (after_id, (SELECT ifnull (max (id), 0) FROM events))"
    " WHERE base = 'events'",
    "UPDATE index_deferred SET after_id = min (after_id, (SELECT ifnull (max (id), 0) FROM messages))"
    " WHERE base = 'messages'",
  };

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      sqlite3_stmt *stmt = loom_store_cached (store, statements[i], error);

      if (stmt == NULL)
        return FALSE;
      bind_text (stmt, 1, path);
      if (loom_import_step (store, stmt, "clear a re-read file", error) < 0)
        return FALSE;
    }
  return TRUE;
}

/* A session's counts, times and summed tokens from its rows: one pass over its messages and
 * one over its events (the table's rows, through messages_session and events_session), where a
 * subquery per column read them eleven times over. The tokens are summed from the messages
 * only if some message has them; an agent that reports a session's totals overwrites them
 * after (reported_tokens_sql). Reasoning is NULL unless some message tells it apart (Claude's
 * never do: their output holds it unsaid). */
#define SUMMED_TOKENS(column, sum) \
  "  " column " = CASE WHEN m.n_tokens > 0 THEN ifnull (m." sum ", 0) ELSE " column " END,"
static const char recompute_sql[] =
  "UPDATE sessions SET"
  "  n_user_messages = m.n_user, n_assistant_messages = m.n_assistant,"
  "  message_count = m.n_user + m.n_assistant,"
  SUMMED_TOKENS ("tokens_input", "input")
  SUMMED_TOKENS ("tokens_output", "output")
  SUMMED_TOKENS ("tokens_cache_read", "cache_read")
  SUMMED_TOKENS ("tokens_cache_creation", "cache_creation")
  "  tokens_reasoning = CASE WHEN m.n_tokens > 0 THEN m.reasoning ELSE tokens_reasoning END,"
  "  n_tool_calls = e.n_calls, n_tool_results = e.n_results, n_tool_errors = e.n_errors,"
  "  n_reasoning = e.n_reasoning, event_count = e.n,"
  "  tools_used = (SELECT ifnull (json_group_object (tool_name, n), '{}') FROM"
  "                (SELECT tool_name, count(*) AS n FROM events"
  "                 WHERE session_id = ?1 AND kind = 'tool_call' AND tool_name IS NOT NULL"
  "                 GROUP BY tool_name ORDER BY n DESC, tool_name)),"
  "  models = (SELECT ifnull (json_group_array (model), '[]') FROM"
  "            (SELECT model, min (seq) AS first FROM messages"
  "             WHERE session_id = ?1 AND model IS NOT NULL AND model != ''"
  "             GROUP BY model ORDER BY first)),"
  "  model = coalesce ((SELECT model FROM messages"
  "                     WHERE session_id = ?1 AND model IS NOT NULL AND model != ''"
  "                     GROUP BY model ORDER BY count(*) DESC, min (seq) LIMIT 1), model),"
  "  created_at = (SELECT ifnull (min (t), 0) FROM (SELECT nullif (sessions.created_at, 0) AS t"
  "                UNION ALL SELECT m.first UNION ALL SELECT e.first)),"
  "  updated_at = (SELECT ifnull (max (t), 0) FROM (SELECT sessions.updated_at AS t"
  "                UNION ALL SELECT m.last UNION ALL SELECT e.last))"
  " FROM (SELECT count(*) FILTER (WHERE role = 'user' AND flags & ?2 = 0) AS n_user,"
  "              count(*) FILTER (WHERE role = 'assistant' AND flags & ?3 = 0) AS n_assistant,"
  "              min (nullif (created_at, 0)) AS first, max (created_at) AS last,"
  "              sum (input_tokens) AS input, sum (output_tokens) AS output,"
  "              sum (cache_read_tokens) AS cache_read,"
  "              sum (cache_creation_tokens) AS cache_creation,"
  "              sum (reasoning_tokens) AS reasoning,"
  "              count (input_tokens) + count (output_tokens) AS n_tokens"
  "       FROM messages WHERE session_id = ?1) AS m,"
  "      (SELECT count(*) FILTER (WHERE kind = 'tool_call') AS n_calls,"
  "              count(*) FILTER (WHERE kind = 'tool_result') AS n_results,"
  "              count(*) FILTER (WHERE kind = 'tool_result' AND is_error) AS n_errors,"
  "              count(*) FILTER (WHERE kind = 'reasoning') AS n_reasoning,"
  "              count(*) AS n,"
  "              min (nullif (created_at, 0)) AS first, max (created_at) AS last"
  "       FROM events WHERE session_id = ?1) AS e"
  " WHERE sessions.id = ?1";

static const char reported_tokens_sql[] =
  "UPDATE sessions SET tokens_input = ?2, tokens_output = ?3, tokens_cache_read = ?4,"
  "  tokens_cache_creation = ?5, tokens_reasoning = ?6 WHERE id = ?1";

/* A name for the session from its first real prompt: one line, at most a few words. */
static char *
title_from_prompt (const char *text)
{
  g_autoptr(GString) title = g_string_new (NULL);
  gboolean space = FALSE;
  glong n = 0;

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
update_title (LoomImportFile  *file,
              gint64           session_id,
              GError         **error)
{
  static const char read_sql[] =
    "SELECT s.title_locked, s.agent_title, s.created_at,"
    "       (SELECT text FROM messages WHERE session_id = s.id AND role = 'user'"
    "        AND flags & ?2 = 0 AND text != '' ORDER BY seq LIMIT 1)"
    " FROM sessions s WHERE s.id = ?1";
  /* Most passes find the name unchanged: then the row is not written at all. */
  static const char write_sql[] =
    "UPDATE sessions SET title = ?2 WHERE id = ?1 AND title IS NOT ?2";
  g_autofree char *base = NULL;
  g_autofree char *date = NULL;
  g_autofree char *title = NULL;
  sqlite3_stmt *stmt;
  int rc;

  if (!(stmt = loom_store_cached (file->store, read_sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int (stmt, 2, LOOM_MESSAGE_NOT_A_PROMPT);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      loom_store_set_error (file->store, error, "name the session");
      sqlite3_reset (stmt);
      return FALSE;
    }
  if (sqlite3_column_int (stmt, 0))
    {
      sqlite3_reset (stmt);
      return TRUE;  /* a person named it */
    }

  if (sqlite3_column_type (stmt, 1) != SQLITE_NULL)
    base = title_from_prompt ((const char *)sqlite3_column_text (stmt, 1));
  if (base == NULL && sqlite3_column_type (stmt, 3) != SQLITE_NULL)
    base = title_from_prompt ((const char *)sqlite3_column_text (stmt, 3));
  date = loom_time_to_date (sqlite3_column_int64 (stmt, 2));
  sqlite3_reset (stmt);

  title = g_strdup_printf ("%s - %s", base ? base : "Untitled session", date ? date : "undated");
  if (!(stmt = loom_store_cached (file->store, write_sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  bind_text (stmt, 2, title);
  return loom_import_step (file->store, stmt, "name the session", error) >= 0;
}

static gboolean
recount_session (LoomImportFile  *file,
                 gint64           session_id,
                 GError         **error)
{
  sqlite3_stmt *stmt = loom_store_cached (file->store, recompute_sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int (stmt, 2, LOOM_MESSAGE_NOT_A_PROMPT);
  sqlite3_bind_int (stmt, 3, LOOM_MESSAGE_API_ERROR);
  return loom_import_step (file->store, stmt, "count the session", error) >= 0;
}

/* The models an agent reported for its turns (Codex's turn_context), merged with those its
 * messages name: a turn that ended before any reply (interrupted, or all tool calls and
 * reasoning) used its model too, and no message says so. The reported ones come first, in the
 * order of the turns; the model, when no message names one, is the last reported. */
static gboolean
take_reported_models (LoomImportFile      *file,
                      gint64               session_id,
                      const char * const  *reported,
                      GError             **error)
{
  static const char read_sql[] = "SELECT models, model FROM sessions WHERE id = ?1";
  static const char write_sql[] = "UPDATE sessions SET models = ?2, model = ?3 WHERE id = ?1";
  g_autoptr(JsonArray) merged = json_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *models_json = NULL;
  g_autofree char *model = NULL;
  g_autofree char *text = NULL;
  JsonArray *from_messages = NULL;
  sqlite3_stmt *stmt;
  guint n_reported = g_strv_length ((char **)reported);

  if (n_reported == 0)
    return TRUE;
  if (!(stmt = loom_store_cached (file->store, read_sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      models_json = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
      model = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
    }
  sqlite3_reset (stmt);

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
  if (!(stmt = loom_store_cached (file->store, write_sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  bind_text (stmt, 2, text);
  bind_text (stmt, 3, model != NULL && *model != '\0' ? model : reported[n_reported - 1]);
  return loom_import_step (file->store, stmt, "record the models", error) >= 0;
}

gboolean
loom_import_file_finish (LoomImportFile  *file,
                         GError         **error)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, file->sessions);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gint64 session_id = *(gint64 *)key;
      LoomTokenTotals *totals = g_hash_table_lookup (file->tokens, &session_id);
      GStrv models;

      if (!recount_session (file, session_id, error))
        return FALSE;

      if (totals != NULL)
        {
          sqlite3_stmt *stmt = loom_store_cached (file->store, reported_tokens_sql, error);

          if (stmt == NULL)
            return FALSE;
          sqlite3_bind_int64 (stmt, 1, session_id);
          sqlite3_bind_int64 (stmt, 2, MAX (totals->input, 0));
          sqlite3_bind_int64 (stmt, 3, MAX (totals->output, 0));
          sqlite3_bind_int64 (stmt, 4, MAX (totals->cache_read, 0));
          sqlite3_bind_int64 (stmt, 5, MAX (totals->cache_creation, 0));
          bind_count (stmt, 6, totals->reasoning);
          if (loom_import_step (file->store, stmt, "record the tokens", error) < 0)
            return FALSE;
        }

      if ((models = g_hash_table_lookup (file->models, &session_id)) != NULL &&
          !take_reported_models (file, session_id, (const char * const *)models, error))
        return FALSE;

      if (!update_title (file, session_id, error))
        return FALSE;
    }
  return TRUE;
}
