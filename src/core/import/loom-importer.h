/* loom-importer.h — what one agent format implements, and what the import framework gives it.
 *
 * The framework (loom-import.c) finds files, decides per file whether to skip it, read only
 * what was appended, or read it again from the start (a rewrite), hands records to the format's
 * import_file(), writes everything for the file in one transaction, recomputes the sessions'
 * counts, and saves the file's cursor. A format never opens files for writing: the agents' files
 * are read-only to us.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "loom-event-kinds.h"
#include "loom-json-value.h"
#include "loom-json.h"
#include "loom-session-record.h"

G_BEGIN_DECLS

typedef struct _LoomImportFile LoomImportFile;

/* Token counts of -1 mean "not known". */
typedef struct
{
  const char *source_id; /* dedupe key in the session (Claude message.id, a uuid, …) */
  const char *role;      /* "user", "assistant", "system" */
  const char *text;      /* appended to the stored text when source_id is seen again */
  guint       flags;     /* LoomMessageFlags */
  const char *model;
  gint64      created_at; /* Unix ms */
  /* A message's usage is that of one model response, which every record of it repeats or
   * completes (Claude's output grows as it streams; Gemini writes the whole message again): a
   * count >= 0 raises the stored one, and a smaller one (a placeholder's 0, a partial count
   * written before the final one) leaves it. */
  gint64      input_tokens;
  gint64      output_tokens; /* reasoning included */
  gint64      cache_read_tokens;
  gint64      cache_creation_tokens;
  gint64      reasoning_tokens; /* the part of output spent reasoning, when told apart */
} LoomMessageDraft;

#define LOOM_MESSAGE_DRAFT_INIT { NULL, NULL, NULL, 0, NULL, 0, -1, -1, -1, -1, -1 }

typedef struct
{
  const char *kind;      /* LOOM_EVENT_* */
  const char *source_id; /* dedupe key with kind (a call id, a record uuid, …) */
  const char *call_id;   /* pairs a tool result with its call */
  const char *tool_name;
  gboolean    is_error;
  const char *path;        /* the file a file change touched */
  const char *change_kind; /* "edit", "write", "delete", "patch", … for file changes */
  const char *text;        /* what to show and search: the command, the output, … */
  const char *payload;     /* the complete record or input, kept for export */
  gint64      created_at;
  gint64      message_id; /* the message this event belongs to, 0 if none */
} LoomEventDraft;

typedef struct
{
  const char *name;  /* "claude-code", "codex", "gemini" */
  const char *title; /* the name people know the agent by: "Claude Code" */

  /* Folders the agent keeps sessions in, honouring its environment variables. */
  char **(*default_roots) (void);

  /* Adds every session file under @root (a folder) to @files (char * paths). */
  void (*discover) (const char *root,
                    GPtrArray  *files);

  /* Whether discover (@root) would list @path, by the same rules but for that one file: what
   * lets a pass import just the files that changed. A file that is gone is judged by its name
   * and place, as discovery saw it before it was deleted. Both paths are absolute, compared in
   * canonical form. Required with discover. */
  gboolean (*claims) (const char *root,
                      const char *path);

  /* Whether a file looks like this format, from its name and its first bytes. */
  gboolean (*detect) (const char *path,
                      const char *head,
                      gsize       head_len);

  /* Whole-document formats are read again in full whenever they change. */
  gboolean whole_document;

  /* Imports one file. Bad records are warnings, not errors: return FALSE only when nothing
   * of the file can be trusted (the framework then rolls the file back). */
  gboolean (*import_file) (LoomImportFile *file,
                           GError        **error);
} LoomImporter;

const LoomImporter *loom_importer_claude (void);
const LoomImporter *loom_importer_codex (void);
const LoomImporter *loom_importer_gemini (void);

/* Every format, in detection order; NULL-terminated. */
const LoomImporter *const *loom_importers (void);
const LoomImporter        *loom_importer_find (const char *name);

/* ——— What a format calls while finding files ——— */

/* The part of @path below @root ("project/x.jsonl"), both taken in canonical form, or NULL
 * unless @path lies below @root (a '/' boundary). Text only: nothing is looked up on disk. */
char *loom_importer_relative_path (const char *root,
                                   const char *path);

/* For claims(): the names that lead from @root down to @path ("project", "x.jsonl"), or NULL
 * unless @path lies below @root (a '/' boundary, both in canonical form) through folders that
 * discovery enters: plain ones, never links. A folder that is gone passes, as the files
 * deleted with it were there. */
GStrv loom_importer_split_path (const char *root,
                                const char *path);

/* ——— What a format calls while importing one file ——— */

const char *loom_import_file_get_path (LoomImportFile *file);
/* TRUE when the file is read from its start (first import, or a rewrite): the framework has
 * already cleared what this file imported before (a whole document: once it reads intact, see
 * loom_import_file_read_document ()). FALSE: only appended records follow. */
gboolean    loom_import_file_is_reset (LoomImportFile *file);
/* Whether a member @name with the string @value occurs in the bytes earlier passes read of the
 * file, before this one began: for a record that refers back to one of them. It reads the
 * file's start: seldom call it. @value is matched as written, escapes and all. */
gboolean    loom_import_file_read_before (LoomImportFile *file,
                                          const char     *name,
                                          const char     *value);
/* The same in the whole file, whatever this pass reads of it. Reads all of it: seldom call it. */
gboolean    loom_import_file_mentions (LoomImportFile *file,
                                       const char     *name,
                                       const char     *value);
/* Reads the file's records from its start, apart from the pass's own reading, until @func
 * returns a string for one; that string (freed by the caller), or NULL when none does. For an
 * identity the agent wrote in an early record, when this pass starts later in the file. */
typedef char *(*LoomImportRecordFunc) (const LoomJson *record,
                                       gpointer        data);
char       *loom_import_file_find_first (LoomImportFile      *file,
                                         LoomImportRecordFunc func,
                                         gpointer             data);
/* Per-file state kept between passes (a JSON object the format owns), e.g. the current model. */
JsonObject *loom_import_file_get_state (LoomImportFile *file);

/* The next record of a JSON Lines file, or FALSE at the end. A line holding several objects
 * yields them one by one; a malformed, too deep or undecodable record is reported as a warning
 * naming file and line, and skipped. A final line without a newline that does not parse yet is
 * left for the next pass. The value belongs to the file until the next call. */
gboolean        loom_import_file_next_record (LoomImportFile  *file,
                                              const LoomJson **record);
guint64         loom_import_file_get_line (LoomImportFile *file);
/* The whole file as one JSON document (whole-document formats). The value belongs to the file
 * until the next call, or the end of the file's import.
 *
 * A document that does not parse (half-written, or with one record the parser refuses) gives
 * what can be read of it (loom-json-salvage.h), with a warning by line for the rest; an empty
 * one, an empty object. Read again from its start, an intact document first clears what the
 * file gave before; a salvaged or empty one does not, and only adds. NULL with @error when the
 * file cannot be read, or nothing in it can. */
const LoomJson *loom_import_file_read_document (LoomImportFile *file,
                                                GError        **error);
void            loom_import_file_warn (LoomImportFile *file,
                                       const char     *format,
                                       ...) G_GNUC_PRINTF (2,
                                                           3);

/* Finds or creates the session (source + source_session_id) and updates its metadata with the
 * fields of @meta that are set (non-NULL strings, non-zero numbers). @meta->title is the agent's
 * own title for the session, without a date; the framework applies the naming convention.
 * @meta->parent_uuid is the parent's *agent* session id (same source) for a sub-agent session;
 * the parent is created as a placeholder if its own file was not imported yet.
 * Returns the session's row id, or 0 when the person deleted that session for good (then skip
 * its records) — check @error for a real failure. */
gint64   loom_import_file_session (LoomImportFile          *file,
                                   const LoomSessionRecord *meta,
                                   GError                 **error);
/* The session this file made under @old_id (earlier versions keyed some sessions by their
 * file's name), with its children "@old_id/…", now goes by @new_id, the agent's own: the same
 * rows, so its uuid, the person's title, folder and pins stay. A placeholder already under
 * @new_id (a sub-agent's file read first) gives its children to it and goes; tombstones of
 * @old_id hold for @new_id too. FALSE when another file's real session has @new_id: then the
 * file keeps @old_id, and nothing merges. Also FALSE on an error, with @error set. */
gboolean loom_import_file_rekey (LoomImportFile *file,
                                 const char     *source,
                                 const char     *old_id,
                                 const char     *new_id,
                                 GError        **error);
/* Whether the state this pass began with was saved by a version that keys sessions by the
 * agents' own ids. FALSE on a file's first pass too: the format then checks its identity. */
gboolean loom_import_file_ids_checked (LoomImportFile *file);
/* Returns the message row id (the existing one when source_id was seen), or 0 on error. */
gint64   loom_import_file_add_message (LoomImportFile         *file,
                                       gint64                  session_id,
                                       const LoomMessageDraft *message,
                                       GError                **error);
/* Returns the event row id (the existing one when kind + source_id was seen), or 0 on error. */
gint64   loom_import_file_add_event (LoomImportFile       *file,
                                     gint64                session_id,
                                     const LoomEventDraft *event,
                                     GError              **error);
/* Cumulative token totals reported by the agent (Codex). Without it, totals are the sum of the
 * messages' usage (Claude, Gemini). @reasoning < 0: not reported. */
void     loom_import_file_set_tokens (LoomImportFile *file,
                                      gint64          session_id,
                                      gint64          input,
                                      gint64          output,
                                      gint64          cache_read,
                                      gint64          cache_creation,
                                      gint64          reasoning);

/* The models the agent reported for its turns, in order (Codex: turn_context), when its
 * messages do not name them all: they come first in the session's models, and give its model
 * when no message does. */
void loom_import_file_set_models (LoomImportFile    *file,
                                  gint64             session_id,
                                  const char *const *models);

G_END_DECLS
