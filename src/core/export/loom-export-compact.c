/* loom-export-compact.c — a session's conversation.md as a text for a language model, under a
 * token budget.
 *
 * The text is a header (the session's objective, the files it touched, its outcome, the token
 * estimate and the budget), then the prompts and replies, each tool call as one line with its
 * output bounded to its first and last lines, each file change as its path and its diff
 * bounded the same way, and each sub-agent as one line; reasoning and notices are left out.
 * An output or a message met before is replaced by a reference to where it was.
 *
 * Tokens are estimated, as written in the header and in README.md, as
 *
 *   ceil (ASCII bytes / 4) + 1 for every other character
 *
 * English and code run at about four bytes a token in the models' tokenizers, and a CJK
 * character or an accented letter is about one token, so the estimate errs on the side of
 * more tokens. It is exact arithmetic on the bytes written: a "quarter token" (q) is 1 for an
 * ASCII byte and 4 for any other character, sums of q add up, and the tokens of a text are its
 * q divided by four, rounded up.
 *
 * A session can hold 100,000 events, so the text is never held whole. A first pass reads the
 * timeline, one item at a time, and keeps of each item only what it costs at each bound
 * (Entry) and a hash of its output; a plan then picks the bounds that fit: tool outputs are
 * tightened first, then the oldest entries after the first prompt are left out (a binary
 * search on how many), then prompts and replies are bounded too; the header, the first prompt
 * and the most recent entries stay. A second pass reads the timeline again and writes what the
 * plan chose, the same bytes the first pass measured. Both passes go through the package's
 * filter (compact packages are redacted): the second finds the placeholders the first
 * numbered, and what the first replaced is taken out of the package's counts, so that the
 * manifest counts the texts the file shows once each (a bounded output's left-out lines
 * included: detection runs on the whole text, before any cut), not those left out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-event-kinds.h"
#include "loom-export-artifacts.h"
#include "loom-export-private.h"
#include "loom-naming.h"
#include "loom-store-timeline-pages.h"
#include "loom-time.h"
#include "loom-timeline-format.h"
#include "loom-timeline-model.h"

/* The bounds of tool outputs and diffs, loosest first: lines kept at the head and the tail,
 * and the longest line kept, in tokens. The last keeps only the count of lines. */
static const struct
{
  guint head, tail, line_tokens;
} tool_levels[] = {
  { 20, 10, 80 },
  { 8, 4, 50 },
  { 3, 2, 30 },
  { 0, 0, 0 },
};

/* The bounds of prompts and replies, used only once tool outputs are at their tightest and the
 * middle of the session is left out: whole first. */
static const struct
{
  guint head, tail, line_tokens;
} message_levels[] = {
  { G_MAXUINT, 0, 0 },
  { 40, 10, 200 },
  { 8, 4, 60 },
  { 2, 1, 40 },
};

#define N_LEVELS G_N_ELEMENTS (tool_levels)
G_STATIC_ASSERT (G_N_ELEMENTS (message_levels) == N_LEVELS)
;

/* The header's texts, in tokens: small enough that the header of any session fits the smallest
 * budget with room for the first prompt. */
#define TITLE_TOKENS     50
#define LINE_TOKENS      30
#define FOLDER_TOKENS    40
#define OBJECTIVE_TOKENS 100
#define OUTCOME_TOKENS   100
#define PATH_TOKENS      25
#define MAX_PATHS        8
/* A tool call's input on its line, and a sub-agent's task and result. */
#define SUMMARY_TOKENS   50
/* Texts shorter than this are not replaced by a reference, which would be as long. */
#define MIN_DEDUP_BYTES  64

typedef enum
{
  ENTRY_PROMPT,
  ENTRY_REPLY,
  ENTRY_CALL,
  ENTRY_CHANGE,
  ENTRY_SUBAGENT,
} EntryKind;

/* One item of the timeline as the plan sees it: what it costs, never its text. */
typedef struct
{
  guint32 position;       /* in the timeline model */
  guint32 turn;           /* how many prompts came before it, itself included */
  guint32 number;         /* calls, changes and sub-agents: #n, from 1 */
  gint32  first_same;     /* the first entry with the same text, -1: none (or too short) */
  gint32  prev_same;      /* the last one before this */
  guint32 fixed;          /* q of what is shown at every level */
  guint32 cost[N_LEVELS]; /* q of the rest at each level */
  guint8  kind;
} Entry;

typedef struct
{
  guint level;   /* into tool_levels */
  guint message; /* into message_levels */
  guint drop_from;
  guint drop_to; /* entries [drop_from, drop_to) are left out */
} Plan;

typedef struct
{
  LoomStore               *store;
  LoomSession             *session;
  const LoomExportOptions *options;
  LoomExportFilter        *filter;
  LoomTimelineModel       *timeline;
  guint                    budget;
  GArray                  *entries;
  GHashTable              *seen;         /* digest -> gint32[2]: first and last entry with it */
  GHashTable              *change_paths; /* paths of the file changes, as recorded */
  GPtrArray               *change_order; /* the same, in the session's order */
  gint                     first_prompt; /* entry index, -1: none */
  gint                     first_prompt_position;
  gint                     last_reply_position;
  guint                    n_numbered;
  /* The header's texts, filtered and bounded. */
  char                    *head; /* title to dates */
  char                    *objective;
  char                    *files;
  char                    *outcome;
} Compact;

/* Measuring */

static guint64
measure (const char *text,
         gsize       length)
{
  guint64 q = 0;

  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar)text[i];

      if (c < 0x80)
        q += 1;
      else if (c >= 0xc0)
        q += 4; /* the first byte of a character; the bytes that follow it count nothing */
    }
  return q;
}

guint
loom_export_estimate_tokens (const char *text,
                             gssize      length)
{
  g_return_val_if_fail (text != NULL || length <= 0, 0);

  if (text == NULL)
    return 0;
  return (guint)((measure (text, length < 0 ? strlen (text) : (gsize)length) + 3) / 4);
}

/* How many bytes of the @length bytes of @text fit in @max_q, cut on a character boundary. */
static gsize
fit (const char *text,
     gsize       length,
     guint64     max_q)
{
  guint64 q = 0;
  gsize   i = 0;

  while (i < length)
    {
      guchar c = (guchar)text[i];
      gsize  n = 1;

      if (c >= 0xc0)
        while (i + n < length && ((guchar)text[i + n] & 0xc0) == 0x80)
          n++;
      if (q + (c < 0x80 ? 1 : 4) > max_q)
        break;
      q += c < 0x80 ? 1 : 4;
      i += n;
    }
  return i;
}

/* @text on one line (white space collapsed) and at most @max_tokens, "…" ending it when cut.
 * NULL for NULL or an empty line. */
static char *
one_line (const char *text,
          guint       max_tokens)
{
  g_autofree char *line = loom_naming_bound_line (text, (glong)max_tokens * 4);
  gsize            length, keep;

  if (line == NULL)
    return NULL;
  length = strlen (line);
  keep = fit (line, length, (guint64)max_tokens * 4 - 4);
  if (measure (line, length) <= (guint64)max_tokens * 4)
    return g_steal_pointer (&line);
  return g_strdup_printf ("%.*s…", (int)keep, line);
}

/* Texts */

/* What the package shows of a text of the session: filtered first (detection works on the
 * whole decoded text), then without terminal escapes, valid UTF-8. */
static char *
clean (Compact    *c,
       const char *text,
       gboolean    untag)
{
  g_autofree char *redacted = NULL;
  g_autofree char *untagged = NULL;
  char            *stripped;

  if (text == NULL)
    return NULL;
  text = loom_export_filter_apply (c->filter, text, &redacted);
  if (untag && (untagged = loom_timeline_format_strip_tags (text)) != NULL)
    text = untagged;
  if ((stripped = loom_timeline_format_strip_controls (text)) == NULL)
    stripped = g_strdup (text);
  if (!g_utf8_validate (stripped, -1, NULL))
    {
      char *valid = g_utf8_make_valid (stripped, -1);

      g_free (stripped);
      stripped = valid;
    }
  return stripped;
}

static char *
read_payload (Compact *c,
              gint64   event_id)
{
  g_autoptr (GError) error = NULL;
  char *payload;

  if (event_id <= 0)
    return NULL;
  if (!(payload = loom_store_get_event_payload (c->store, event_id, &error)) && error != NULL)
    g_debug ("Could not read the payload of event %" G_GINT64_FORMAT ": %s", event_id,
             error->message);
  return payload;
}

static char *shown_path (Compact    *c,
                         const char *path);

/* What an entry shows, read from its item: the same in both passes. */
typedef struct
{
  char    *label; /* the call's line, or NULL for messages */
  char    *body;  /* the message, the output, the diff; may be NULL */
  gboolean is_diff;
} Texts;

static void
texts_clear (Texts *t)
{
  g_clear_pointer (&t->label, g_free);
  g_clear_pointer (&t->body, g_free);
}

static char *
result_output (Compact          *c,
               LoomTimelineItem *result)
{
  const LoomTimelineData *data;
  g_autofree char        *payload = NULL;
  g_autofree char        *output = NULL;

  if (result == NULL)
    return NULL;
  data = loom_timeline_item_get_data (result);
  payload = read_payload (c, data->id);
  output = loom_timeline_format_result_output (payload);
  return clean (c, output != NULL ? output : data->text, FALSE);
}

static void
load_texts (Compact          *c,
            LoomTimelineItem *item,
            EntryKind         kind,
            guint             number,
            Texts            *t)
{
  const LoomTimelineData *data = loom_timeline_item_get_data (item);
  LoomTimelineItem       *result = loom_timeline_model_item_get_result (item);
  g_autofree char        *payload = NULL;
  g_autofree char        *what = NULL;
  g_autofree char        *name = NULL;
  g_autofree char        *summary = NULL;

  switch (kind)
    {
    case ENTRY_PROMPT:
    case ENTRY_REPLY:
      t->body = clean (c, data->text, TRUE);
      return;

    case ENTRY_CALL:
      if (g_strcmp0 (data->kind, LOOM_EVENT_TOOL_RESULT) == 0)
        {
          /* A result whose call is not in the session (cut off by a compaction). */
          result = item;
        }
      else
        {
          g_autofree char *input = NULL;
          g_autofree char *raw = NULL;

          payload = read_payload (c, data->id);
          input = loom_timeline_format_input (payload);
          raw = clean (c, input != NULL ? input : data->text, FALSE);
          summary = one_line (raw, SUMMARY_TOKENS);
        }
      what = clean (c, data->tool_name != NULL ? data->tool_name : "tool", FALSE);
      name = one_line (what, LINE_TOKENS);
      t->label = g_strdup_printf (
        "#%u %s%s%s%s\n", number, name != NULL ? name : "tool",
        result != NULL && loom_timeline_item_get_data (result)->is_error ? " (error)" : "",
        summary != NULL ? ": " : "", summary != NULL ? summary : "");
      t->body = result_output (c, result);
      if (t->body == NULL)
        t->body = g_strdup ("");
      return;

    case ENTRY_CHANGE:
      {
        g_autofree char *result_payload = NULL;
        g_autofree char *diff = NULL;
        g_autofree char *path = data->path != NULL ? shown_path (c, data->path) : NULL;

        payload = read_payload (c, data->id);
        if (result != NULL)
          result_payload = read_payload (c, loom_timeline_item_get_data (result)->id);
        diff = loom_timeline_format_diff (payload, result_payload);
        t->label = g_strdup_printf ("#%u %s %s\n", number,
                                    data->change_kind != NULL ? data->change_kind : "change",
                                    path != NULL ? path : "(a file)");
        t->body = clean (c, diff != NULL ? diff : data->text, FALSE);
        t->is_diff = diff != NULL;
        if (t->body == NULL)
          t->body = g_strdup ("");
        return;
      }

    case ENTRY_SUBAGENT:
      {
        g_autofree char *prompt = NULL;
        g_autofree char *task = NULL;
        g_autofree char *output = result_output (c, result);
        g_autofree char *outcome = one_line (output, SUMMARY_TOKENS);
        const char      *child = loom_timeline_model_item_get_child_uuid (item);

        g_autoptr (LoomSession) session = NULL;

        /* Its session's title is its task in a line (a Codex sub-agent's record holds no
         * prompt: the spawning call before it does); else the prompt its record holds. */
        if (child != NULL)
          session = loom_store_get_session (c->store, child, NULL);
        payload = read_payload (c, data->id);
        prompt = session != NULL ? g_strdup (loom_session_get_title (session))
                                 : loom_timeline_format_subagent_prompt (payload);
        task = clean (c, prompt != NULL ? prompt : data->text, FALSE);
        summary = one_line (task, SUMMARY_TOKENS);
        what = data->tool_name != NULL ? clean (c, data->tool_name, FALSE) : NULL;
        name = what != NULL ? one_line (what, LINE_TOKENS) : NULL;
        /* One line: its own package is not in a compact one. */
        t->label = g_strdup_printf (
          "#%u Sub-agent%s%s%s%s%s%s%s%.8s%s\n\n", number, name != NULL ? " " : "",
          name != NULL ? name : "", summary != NULL ? ": " : "", summary != NULL ? summary : "",
          outcome != NULL ? " → " : "", outcome != NULL ? outcome : "",
          child != NULL ? " (session " : "", child != NULL ? child : "", child != NULL ? ")" : "");
        return;
      }

    default:
      g_assert_not_reached ();
    }
}

/* Rendering */

static guint
count_lines (const char *text,
             gsize       length)
{
  guint n = length > 0 ? 1 : 0;

  for (gsize i = 0; i + 1 < length; i++)
    if (text[i] == '\n')
      n++;
  return n;
}

static void
append_line (GString    *out,
             const char *line,
             gsize       length,
             guint       max_tokens)
{
  gsize keep = max_tokens == 0 ? length : fit (line, length, (guint64)max_tokens * 4);

  g_string_append_len (out, line, (gssize)keep);
  if (keep < length)
    g_string_append (out, "…");
  g_string_append_c (out, '\n');
}

static void
append_left_out (GString *out,
                 guint    n)
{
  if (n == 1)
    g_string_append (out, "[… 1 line left out …]\n");
  else
    g_string_append_printf (out, "[… %u lines left out …]\n", n);
}

/* The lines of @text, or its first @head and last @tail lines around the count of those left
 * out, each at most @max_tokens (0: whole). */
static void
append_bounded (GString    *out,
                const char *text,
                guint       head,
                guint       tail,
                guint       max_tokens)
{
  gsize       length = strlen (text);
  const char *p = text;
  const char *end;
  guint       n;

  if (length > 0 && text[length - 1] == '\n')
    length--;
  end = text + length;
  n = count_lines (text, length);

  if (head == G_MAXUINT || n <= head + tail)
    {
      for (guint i = 0; i < n; i++)
        {
          const char *nl = memchr (p, '\n', (gsize)(end - p));
          const char *line_end = nl != NULL ? nl : end;

          append_line (out, p, (gsize)(line_end - p), max_tokens);
          p = line_end + 1;
        }
      return;
    }

  for (guint i = 0; i < head; i++)
    {
      const char *nl = memchr (p, '\n', (gsize)(end - p));

      append_line (out, p, (gsize)(nl - p), max_tokens);
      p = nl + 1;
    }
  append_left_out (out, n - head - tail);
  if (tail == 0)
    return;
  /* The start of the last @tail lines. */
  p = end;
  for (guint i = 0; i < tail; i++)
    {
      p--;
      while (p > text && p[-1] != '\n')
        p--;
      if (i + 1 < tail)
        p--;
    }
  for (guint i = 0; i < tail; i++)
    {
      const char *nl = memchr (p, '\n', (gsize)(end - p));
      const char *line_end = nl != NULL ? nl : end;

      append_line (out, p, (gsize)(line_end - p), max_tokens);
      p = line_end + 1;
    }
}

static guint
longest_backtick_run (const char *text)
{
  guint longest = 0, run = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }
  return longest;
}

/* What an entry shows beyond its fixed part at @level. */
static void
render_rest (const Texts *t,
             EntryKind    kind,
             guint        level,
             GString     *out)
{
  if (kind == ENTRY_SUBAGENT)
    return;
  if (kind == ENTRY_PROMPT || kind == ENTRY_REPLY)
    {
      append_bounded (out, t->body != NULL ? t->body : "", message_levels[level].head,
                      message_levels[level].tail, message_levels[level].line_tokens);
      g_string_append_c (out, '\n');
      return;
    }
  if (*t->body == '\0')
    {
      g_string_append (out, "(no output)\n\n");
      return;
    }
  if (tool_levels[level].head == 0 && tool_levels[level].tail == 0)
    {
      gsize length = strlen (t->body) - (g_str_has_suffix (t->body, "\n") ? 1 : 0);
      guint n = count_lines (t->body, length);

      /* Only the count, with no fence, which would cost more than it says; a one-line output
       * is that line, which costs about as little as its count. */
      if (n == 1)
        {
          g_string_append (out, "→ ");
          append_line (out, t->body, length, SUMMARY_TOKENS / 2);
        }
      else
        append_left_out (out, n);
      g_string_append_c (out, '\n');
      return;
    }
  {
    g_autofree char *fence = g_strnfill (MAX (3, longest_backtick_run (t->body) + 1), '`');

    g_string_append_printf (out, "%s%s\n", fence, t->is_diff ? "diff" : "");
    append_bounded (out, t->body, tool_levels[level].head, tool_levels[level].tail,
                    tool_levels[level].line_tokens);
    g_string_append_printf (out, "%s\n\n", fence);
  }
}

static void
render_fixed (const Texts *t,
              EntryKind    kind,
              GString     *out)
{
  if (kind == ENTRY_PROMPT)
    g_string_append (out, "## User\n\n");
  else if (kind == ENTRY_REPLY)
    g_string_append (out, "## Assistant\n\n");
  else
    g_string_append (out, t->label);
}

/* A duplicate's reference to the entry @referent, which is shown. */
static void
render_reference (const Compact *c,
                  const Entry   *e,
                  gint           referent,
                  GString       *out)
{
  const Entry *r = &g_array_index (c->entries, Entry, referent);

  if (e->kind == ENTRY_CALL)
    g_string_append_printf (out, "[same output as call #%u]\n\n", r->number);
  else
    g_string_append (out, "[same text as an earlier message]\n\n");
}

/* Pass 1: what each item costs */

static gboolean
entry_kind (Compact                *c,
            const LoomTimelineData *data,
            EntryKind              *kind)
{
  gboolean tools = c->options->detail >= LOOM_EXPORT_DETAIL_TOOLS;

  if (data->is_message)
    {
      if ((data->flags & LOOM_MESSAGE_NOT_A_PROMPT) != 0 || data->text == NULL)
        return FALSE;
      if (g_strcmp0 (data->role, "user") == 0)
        *kind = ENTRY_PROMPT;
      else if (g_strcmp0 (data->role, "assistant") == 0)
        *kind = ENTRY_REPLY;
      else
        return FALSE;
      return TRUE;
    }
  if (!tools)
    return FALSE;
  if (g_strcmp0 (data->kind, LOOM_EVENT_TOOL_CALL) == 0 ||
      g_strcmp0 (data->kind, LOOM_EVENT_TOOL_RESULT) == 0)
    *kind = ENTRY_CALL;
  else if (g_strcmp0 (data->kind, LOOM_EVENT_FILE_CHANGE) == 0)
    *kind = ENTRY_CHANGE;
  else if (g_strcmp0 (data->kind, LOOM_EVENT_SUBAGENT) == 0)
    *kind = ENTRY_SUBAGENT;
  else
    return FALSE; /* reasoning, notices, compactions, errors */
  return TRUE;
}

static guint
digest_hash (gconstpointer key)
{
  guint h;

  memcpy (&h, key, sizeof h);
  return h;
}

static gboolean
digest_equal (gconstpointer a,
              gconstpointer b)
{
  return memcmp (a, b, 16) == 0;
}

/* Remembers the text of entry @index, and says which entries had it before. 128 bits of its
 * SHA-256: two different texts of one session are never taken for one. */
static void
note_text (Compact    *c,
           Entry      *e,
           gint        index,
           const char *text)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8  digest[32];
  gsize   length = sizeof digest;
  guint8  kind = e->kind == ENTRY_CALL ? 0 : e->kind;
  gint32 *where;

  e->first_same = e->prev_same = -1;
  if (text == NULL || strlen (text) < MIN_DEDUP_BYTES)
    return;
  g_checksum_update (checksum, &kind, 1);
  g_checksum_update (checksum, (const guchar *)text, -1);
  g_checksum_get_digest (checksum, digest, &length);
  if ((where = g_hash_table_lookup (c->seen, digest)) != NULL)
    {
      e->first_same = where[0];
      e->prev_same = where[1];
      where[1] = index;
      return;
    }
  where = g_new (gint32, 2);
  where[0] = where[1] = index;
  g_hash_table_insert (c->seen, g_memdup2 (digest, 16), where);
}

static gboolean
measure_items (Compact      *c,
               GCancellable *cancellable,
               GError      **error)
{
  g_autoptr (GString) scratch = g_string_new (NULL);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (c->timeline));
  guint turn = 0;

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (G_LIST_MODEL (c->timeline), i);
      const LoomTimelineData *data = loom_timeline_item_get_data (item);
      Texts                   t = { NULL };
      Entry                   e = { 0 };
      EntryKind               kind;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!entry_kind (c, data, &kind))
        continue;

      if (kind == ENTRY_PROMPT)
        {
          turn++;
          if (c->first_prompt < 0)
            {
              c->first_prompt = (gint)c->entries->len;
              c->first_prompt_position = (gint)i;
            }
        }
      else if (kind == ENTRY_REPLY)
        c->last_reply_position = (gint)i;
      else if (kind == ENTRY_CHANGE && data->path != NULL &&
               !g_hash_table_contains (c->change_paths, data->path))
        {
          char *path = g_strdup (data->path);

          g_hash_table_add (c->change_paths, path);
          g_ptr_array_add (c->change_order, path);
        }

      e.kind = kind;
      e.position = i;
      e.turn = turn;
      if (kind >= ENTRY_CALL)
        e.number = ++c->n_numbered;
      load_texts (c, item, kind, e.number, &t);
      note_text (c, &e, (gint)c->entries->len,
                 kind == ENTRY_CHANGE || kind == ENTRY_SUBAGENT ? NULL : t.body);

      g_string_truncate (scratch, 0);
      render_fixed (&t, kind, scratch);
      e.fixed = (guint32)MIN (measure (scratch->str, scratch->len), G_MAXUINT32);
      for (guint level = 0; level < N_LEVELS; level++)
        {
          g_string_truncate (scratch, 0);
          render_rest (&t, kind, level, scratch);
          e.cost[level] = (guint32)MIN (measure (scratch->str, scratch->len), G_MAXUINT32);
        }
      texts_clear (&t);
      g_array_append_val (c->entries, e);
    }
  return TRUE;
}

/* The header */

static void
append_item (GString    *out,
             const char *label,
             const char *value)
{
  if (value != NULL)
    g_string_append_printf (out, "- %s: %s\n", label, value);
}

/* The bounded one-line text of the item at @position, NULL when there is none. */
static char *
item_line (Compact *c,
           gint     position,
           guint    max_tokens)
{
  g_autoptr (LoomTimelineItem) item = NULL;
  g_autofree char *text = NULL;

  if (position < 0)
    return NULL;
  item = g_list_model_get_item (G_LIST_MODEL (c->timeline), (guint)position);
  text = clean (c, loom_timeline_item_get_data (item)->text, TRUE);
  return one_line (text, max_tokens);
}

static char *
shown_path (Compact    *c,
            const char *path)
{
  const char      *cwd = loom_session_get_record (c->session)->cwd;
  g_autofree char *cleaned = NULL;

  /* Relative to the workspace, where the model reads the folder once in the header. */
  if (cwd != NULL && g_str_has_prefix (path, cwd) && path[strlen (cwd)] == '/')
    path += strlen (cwd) + 1;
  cleaned = clean (c, path, FALSE);
  return one_line (cleaned, PATH_TOKENS);
}

static gboolean
build_header_texts (Compact *c,
                    GError **error)
{
  const LoomSessionRecord *r = loom_session_get_record (c->session);
  g_autoptr (GString) head = g_string_new (NULL);
  g_autoptr (GString) files = g_string_new (NULL);
  g_autoptr (GPtrArray) touched = NULL;
  g_autoptr (GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autofree char *title_shown = loom_export_filter_title (c->filter, r->title);
  g_autofree char *title = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *model = NULL;
  g_autofree char *project = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *created = r->created_at != 0 ? loom_time_to_iso (r->created_at) : NULL;
  g_autofree char *updated = r->updated_at != 0 ? loom_time_to_iso (r->updated_at) : NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;
  g_autofree char *reply = NULL;
  guint            n_shown = 0;

  if (!(touched = loom_export_list_touched_paths (c->store, r->uuid, r->cwd, error)))
    return FALSE;

  text = clean (c, title_shown != NULL ? title_shown : r->title, FALSE);
  title = one_line (text, TITLE_TOKENS);
  g_clear_pointer (&text, g_free);
  g_string_append_printf (head, "# %s\n\n", title != NULL ? title : "Untitled session");
  g_string_append_printf (head, "- Session: %s\n", r->uuid);
  if (r->source != NULL)
    {
      g_autofree char *both = g_strdup_printf ("%s%s%s", r->source,
                                               r->agent_version != NULL ? " " : "",
                                               r->agent_version != NULL ? r->agent_version : "");

      text = clean (c, both, FALSE);
      agent = one_line (text, LINE_TOKENS);
      g_clear_pointer (&text, g_free);
    }
  append_item (head, "Agent", agent);
  text = clean (c, r->model, FALSE);
  model = one_line (text, LINE_TOKENS);
  g_clear_pointer (&text, g_free);
  append_item (head, "Model", model);
  text = clean (c, r->project_name, FALSE);
  project = one_line (text, LINE_TOKENS);
  g_clear_pointer (&text, g_free);
  append_item (head, "Project", project);
  text = clean (c, r->cwd, FALSE);
  folder = one_line (text, FOLDER_TOKENS);
  g_clear_pointer (&text, g_free);
  append_item (head, "Folder", folder);
  if (created != NULL)
    g_string_append_printf (head, "- Dates: %s%s%s\n", created,
                            updated != NULL && g_strcmp0 (updated, created) != 0 ? " to " : "",
                            updated != NULL && g_strcmp0 (updated, created) != 0 ? updated : "");
  c->head = g_string_free (g_steal_pointer (&head), FALSE);

  /* The objective the agent recorded, else what the person first asked. */
  if (r->task_objective != NULL)
    {
      text = clean (c, r->task_objective, FALSE);
      c->objective = one_line (text, OBJECTIVE_TOKENS);
      g_clear_pointer (&text, g_free);
    }
  if (c->objective == NULL)
    c->objective = item_line (c, c->first_prompt_position, OBJECTIVE_TOKENS);

  /* The files it touched, in the order it first did, and those of its file changes. */
  for (guint i = 0; i < touched->len; i++)
    {
      const char *path = ((LoomTouchedPath *)touched->pdata[i])->path;

      if (g_hash_table_add (listed, (gpointer)path))
        g_ptr_array_add (paths, (gpointer)path);
    }
  for (guint i = 0; i < c->change_order->len; i++)
    if (g_hash_table_add (listed, c->change_order->pdata[i]))
      g_ptr_array_add (paths, c->change_order->pdata[i]);
  for (guint i = 0; i < paths->len && n_shown < MAX_PATHS; i++)
    {
      g_autofree char *shown = shown_path (c, paths->pdata[i]);

      if (shown == NULL)
        continue;
      g_string_append_printf (files, "%s%s", n_shown > 0 ? ", " : "", shown);
      n_shown++;
    }
  if (paths->len > 0)
    {
      if (paths->len > n_shown)
        g_string_append_printf (files, " and %u more", paths->len - n_shown);
      c->files = g_strdup_printf ("(%u): %s", paths->len, files->str);
    }

  /* How it ended: its recorded status, and what the agent said last. */
  text = clean (c, r->task_status, FALSE);
  status = one_line (text, LINE_TOKENS);
  reply = item_line (c, c->last_reply_position, OUTCOME_TOKENS);
  if (status != NULL || reply != NULL)
    c->outcome = g_strdup_printf (
      "%s%s%s%s", status != NULL ? status : "", status != NULL && reply != NULL ? "; " : "",
      reply != NULL ? "the last reply: " : "", reply != NULL ? reply : "");
  return TRUE;
}

static guint
n_turns_left_out (const Compact *c,
                  const Plan    *plan)
{
  const Entry *first, *last;

  if (plan->drop_to <= plan->drop_from)
    return 0;
  first = &g_array_index (c->entries, Entry, plan->drop_from);
  last = &g_array_index (c->entries, Entry, plan->drop_to - 1);
  /* A turn counts when any of it is left out; the entries before the first prompt are one. */
  return last->turn - first->turn + 1;
}

static void
render_left_out (const Compact *c,
                 const Plan    *plan,
                 GString       *out)
{
  guint n = plan->drop_to - plan->drop_from;
  guint turns = n_turns_left_out (c, plan);

  g_string_append_printf (out, "[… %u %s of %u %s left out to fit the budget …]\n\n", n,
                          n == 1 ? "entry" : "entries", turns, turns == 1 ? "turn" : "turns");
}

static void
render_header (const Compact *c,
               const Plan    *plan,
               guint          estimate,
               GString       *out)
{
  g_string_append (out, c->head);
  append_item (out, "Objective", c->objective);
  if (c->files != NULL)
    g_string_append_printf (out, "- Files touched %s\n", c->files);
  append_item (out, "Outcome", c->outcome);
  g_string_append_printf (out,
                          "- Tokens: about %u of a budget of %u (ASCII bytes / 4, rounded up, "
                          "+ 1 per other character)\n",
                          estimate, c->budget);
  if (c->options->detail >= LOOM_EXPORT_DETAIL_TOOLS)
    {
      if (tool_levels[plan->level].head == 0)
        g_string_append (out, "- Tool outputs: the count of their lines only\n");
      else
        g_string_append_printf (out, "- Tool outputs: their first %u and last %u lines\n",
                                tool_levels[plan->level].head, tool_levels[plan->level].tail);
    }
  if (plan->message > 0)
    g_string_append_printf (out, "- Messages: their first %u and last %u lines\n",
                            message_levels[plan->message].head, message_levels[plan->message].tail);
  g_string_append (out, "\n---\n\n");
}

/* The plan */

static gboolean
is_dropped (const Plan *plan,
            gint        index)
{
  return index >= (gint)plan->drop_from && index < (gint)plan->drop_to;
}

/* The entry shown before @index with the same text, which @index then refers to; -1: none. */
static gint
shown_original (const Compact *c,
                const Plan    *plan,
                gint           index)
{
  const Entry *e = &g_array_index (c->entries, Entry, index);

  if (e->prev_same < 0)
    return -1;
  /* The first shows the text itself; when it was left out, a later one shows it or refers on. */
  if (!is_dropped (plan, e->first_same))
    return e->first_same;
  return !is_dropped (plan, e->prev_same) ? e->prev_same : -1;
}

static guint
entry_level (const Entry *e,
             const Plan  *plan)
{
  return e->kind == ENTRY_PROMPT || e->kind == ENTRY_REPLY ? plan->message : plan->level;
}

/* The tokens of the whole text under @plan, exactly: the header holds the figure itself, so it
 * is found where it no longer changes (its digits are all that can). */
static guint
plan_tokens (const Compact *c,
             const Plan    *plan)
{
  g_autoptr (GString) scratch = g_string_new (NULL);
  guint64 body = 0;
  guint   estimate = 0;

  for (guint i = 0; i < c->entries->len; i++)
    {
      const Entry *e = &g_array_index (c->entries, Entry, i);
      gint         original;

      if (is_dropped (plan, (gint)i))
        continue;
      body += e->fixed;
      if ((original = shown_original (c, plan, (gint)i)) >= 0)
        {
          g_string_truncate (scratch, 0);
          render_reference (c, e, original, scratch);
          body += measure (scratch->str, scratch->len);
        }
      else
        body += e->cost[entry_level (e, plan)];
    }
  if (plan->drop_to > plan->drop_from)
    {
      g_string_truncate (scratch, 0);
      render_left_out (c, plan, scratch);
      body += measure (scratch->str, scratch->len);
    }

  for (guint attempt = 0; attempt < 24; attempt++)
    {
      guint64 tokens;

      g_string_truncate (scratch, 0);
      render_header (c, plan, estimate, scratch);
      tokens = (measure (scratch->str, scratch->len) + body + 3) / 4;
      if (tokens >= G_MAXUINT)
        return G_MAXUINT;
      if ((guint)tokens == estimate)
        break;
      estimate = (guint)tokens;
    }
  return estimate;
}

static gboolean
fits (const Compact *c,
      const Plan    *plan)
{
  return plan_tokens (c, plan) <= c->budget;
}

/* The fewest oldest entries after the first prompt to leave out for @plan to fit, the last
 * entry kept; FALSE when leaving all of them out is not enough. */
static gboolean
search_drop (const Compact *c,
             Plan          *plan)
{
  guint from = (guint)(c->first_prompt + 1);
  guint lo, hi;

  plan->drop_from = plan->drop_to = from;
  if (fits (c, plan))
    return TRUE;
  if (c->entries->len < from + 2)
    return FALSE;
  /* lo never fits, hi does. */
  lo = 0;
  hi = c->entries->len - from - 1;
  plan->drop_to = from + hi;
  if (!fits (c, plan))
    return FALSE;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      plan->drop_to = from + mid;
      if (fits (c, plan))
        hi = mid;
      else
        lo = mid;
    }
  plan->drop_to = from + hi;
  return TRUE;
}

static void
make_plan (const Compact *c,
           Plan          *plan)
{
  guint from = (guint)(c->first_prompt + 1);

  /* Tighter tool outputs first, the whole session kept. */
  for (guint level = 0; level < N_LEVELS; level++)
    {
      *plan = (Plan){ level, 0, from, from };
      if (fits (c, plan))
        return;
    }
  /* Then the oldest entries after the first prompt, then shorter messages too. */
  for (guint message = 0; message < N_LEVELS; message++)
    {
      *plan = (Plan){ N_LEVELS - 1, message, from, from };
      if (search_drop (c, plan))
        return;
    }
  /* Only the header: it fits every budget allowed. */
  *plan = (Plan){ N_LEVELS - 1, N_LEVELS - 1, 0, c->entries->len };
}

/* Pass 2: writing */

static gboolean
write_string (LoomExportFile *out,
              GString        *text,
              guint64        *q,
              GError        **error)
{
  *q += measure (text->str, text->len);
  return loom_export_file_write (out, text->str, (gssize)text->len, error);
}

static gboolean
write_text (Compact        *c,
            const Plan     *plan,
            guint           estimate,
            LoomExportFile *out,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autoptr (GString) text = g_string_new (NULL);
  guint64 q = 0;

  render_header (c, plan, estimate, text);
  if (!write_string (out, text, &q, error))
    return FALSE;

  for (guint i = 0; i < c->entries->len; i++)
    {
      const Entry *e = &g_array_index (c->entries, Entry, i);
      g_autoptr (LoomTimelineItem) item = NULL;
      Texts t = { NULL };
      gint  original;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_string_truncate (text, 0);
      if (i == plan->drop_from && plan->drop_to > plan->drop_from)
        render_left_out (c, plan, text);
      if (is_dropped (plan, (gint)i))
        {
          if (text->len > 0 && !write_string (out, text, &q, error))
            return FALSE;
          continue;
        }
      item = g_list_model_get_item (G_LIST_MODEL (c->timeline), e->position);
      load_texts (c, item, e->kind, e->number, &t);
      render_fixed (&t, e->kind, text);
      if ((original = shown_original (c, plan, (gint)i)) >= 0)
        render_reference (c, e, original, text);
      else
        render_rest (&t, e->kind, entry_level (e, plan), text);
      texts_clear (&t);
      if (!write_string (out, text, &q, error))
        return FALSE;
    }
  /* What was measured is what was written: the figure in the header is the text's. */
  g_warn_if_fail ((q + 3) / 4 == estimate);
  return TRUE;
}

static void
compact_clear (Compact *c)
{
  g_clear_object (&c->timeline);
  g_clear_pointer (&c->entries, g_array_unref);
  g_clear_pointer (&c->seen, g_hash_table_unref);
  g_clear_pointer (&c->change_order, g_ptr_array_unref);
  g_clear_pointer (&c->change_paths, g_hash_table_unref);
  g_free (c->head);
  g_free (c->objective);
  g_free (c->files);
  g_free (c->outcome);
}

gboolean
loom_export_write_compact (LoomStore               *store,
                           LoomSession             *session,
                           const LoomExportOptions *options,
                           LoomExportFilter        *filter,
                           LoomExportMark          *package_mark,
                           LoomExportFile          *out,
                           guint                   *estimated_tokens,
                           GCancellable            *cancellable,
                           GError                 **error)
{
  g_autoptr (LoomExportMark) measuring = NULL;
  Compact  c = { 0 };
  Plan     plan;
  guint    estimate;
  gboolean ok = FALSE;

  g_assert (LOOM_IS_STORE (store));
  g_assert (LOOM_IS_SESSION (session));

  c.store = store;
  c.session = session;
  c.options = options;
  c.filter = filter;
  c.budget = options->budget != 0 ? options->budget : LOOM_EXPORT_DEFAULT_BUDGET;
  c.entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  c.seen = g_hash_table_new_full (digest_hash, digest_equal, g_free, g_free);
  c.change_paths = g_hash_table_new (g_str_hash, g_str_equal);
  c.change_order = g_ptr_array_new_with_free_func (g_free);
  c.first_prompt = -1;
  c.first_prompt_position = -1;
  c.last_reply_position = -1;

  if (!(c.timeline = loom_timeline_model_new (store, loom_session_get_id (session), error)))
    goto out;

  /* What the measuring pass replaces is replaced again when written: it counts once. */
  measuring = loom_export_filter_mark (filter);
  if (!measure_items (&c, cancellable, error))
    goto out;
  if (package_mark != NULL)
    loom_export_filter_discount (filter, package_mark, measuring);

  if (!build_header_texts (&c, error))
    goto out;
  make_plan (&c, &plan);
  estimate = plan_tokens (&c, &plan);
  if (!write_text (&c, &plan, estimate, out, cancellable, error))
    goto out;
  if (estimated_tokens != NULL)
    *estimated_tokens = estimate;
  ok = TRUE;

out:
  compact_clear (&c);
  return ok;
}
