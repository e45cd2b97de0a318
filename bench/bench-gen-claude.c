/* bench-gen-claude.c — Claude Code sessions: claude/projects/<project-dir>/<sessionId>.jsonl.
 *
 * Shapes follow FORMATS.md §1 across four generations of the tool: 1.0.x (inline sidechains),
 * 2.0.x (slug, file-history-snapshot, agent-<hex>.jsonl files), 2.1.7–2.1.81 (progress records,
 * agent_progress mirrors of sub-agents, turn_duration) and 2.1.119+ (attachments, ai-title,
 * last-prompt, duplicate session_id). Assistant messages are streamed one record per content
 * block with the same message.id and a growing usage, as Claude Code writes them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "bench-gen.h"

typedef struct _Claude Claude;

struct _Claude
{
  BenchGen   *gen;
  BenchFile  *file;
  GString    *o;       /* the record being written */
  GString    *capture; /* sub-agent records mirrored into progress records (2.1.x) */
  Claude     *mirror;  /* the main session that wraps captured records */
  char        mirror_tool[40];
  char        mirror_prompt[200];
  char        mirror_agent[24];
  int         era;
  const char *version;
  char        session_id[37];
  const char *cwd;
  const char *branch;
  char        slug[80];
  char        parent[37]; /* "" writes null */
  gboolean    sidechain;
  char        agent_id[24];
  char        prompt_id[37];
  const char *model;
  gint64      now;
  gint64      context; /* tokens in the context window, growing */
  char        last_uuid[37];
};

static const char *const versions[][4] = {
  { "1.0.98", "1.0.102", "1.0.108", "1.0.108" },
  { "2.0.64", "2.0.70", "2.0.74", "2.0.76" },
  { "2.1.7", "2.1.29", "2.1.56", "2.1.81" },
  { "2.1.119", "2.1.150", "2.1.187", "2.1.218" },
};
static const char *const models[][3] = {
  { "claude-sonnet-4-20250514", "claude-opus-4-1-20250805", "claude-sonnet-4-20250514" },
  { "claude-sonnet-4-5-20250929", "claude-opus-4-5-20251101", "claude-haiku-4-5-20251001" },
  { "claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929", "claude-opus-4-6" },
  { "claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-6" },
};

/* ——— Records ——— */

static void
advance (Claude *c,
         double  median_ms)
{
  c->now += (gint64)bench_rng_lognormal (&c->gen->rng, median_ms, 1.0, 5, 3600 * 1000);
}

static void
put_parent (Claude  *c,
            GString *o)
{
  if (c->parent[0] == '\0')
    BJ_LIT (o, "null");
  else
    {
      g_string_append_c (o, '"');
      g_string_append_len (o, c->parent, 36);
      g_string_append_c (o, '"');
    }
}

/* Writes the shared envelope up to and including "type". */
static GString *
rec_begin (Claude     *c,
           const char *type)
{
  GString *o;

  if (c->capture != NULL)
    {
      g_string_truncate (c->capture, 0);
      o = c->o = c->capture;
    }
  else
    o = c->o = c->file->buf;

  BJ_LIT (o, "{\"parentUuid\":");
  put_parent (c, o);
  BJ_LIT (o, ",\"isSidechain\":");
  bj_bool (o, c->sidechain);
  BJ_LIT (o, ",\"userType\":\"external\",\"cwd\":");
  bj_str (o, c->cwd);
  BJ_LIT (o, ",\"sessionId\":\"");
  g_string_append (o, c->session_id);
  BJ_LIT (o, "\",\"version\":");
  bj_str (o, c->version);
  BJ_LIT (o, ",\"gitBranch\":");
  bj_str (o, c->branch);
  if (c->agent_id[0] != '\0')
    {
      BJ_LIT (o, ",\"agentId\":\"");
      g_string_append (o, c->agent_id);
      g_string_append_c (o, '"');
    }
  if (c->slug[0] != '\0')
    {
      BJ_LIT (o, ",\"slug\":");
      bj_str (o, c->slug);
    }
  if (c->era >= 3)
    {
      BJ_LIT (o, ",\"session_id\":\"");
      g_string_append (o, c->session_id);
      BJ_LIT (o, "\",\"entrypoint\":\"cli\"");
    }
  BJ_LIT (o, ",\"type\":\"");
  g_string_append (o, type);
  BJ_LIT (o, "\",");
  return o;
}

static void wrap_progress (Claude        *c,
                           const GString *record);

/* Ends the record with its uuid and timestamp, and chains the next record to it. */
static void
rec_end (Claude *c)
{
  GString *o = c->o;
  char     uuid[37];

  bench_uuid (&c->gen->rng, uuid);
  BJ_LIT (o, "\"uuid\":\"");
  g_string_append_len (o, uuid, 36);
  BJ_LIT (o, "\",\"timestamp\":");
  bj_ts (o, c->now);
  g_string_append_c (o, '}');
  memcpy (c->parent, uuid, 37);
  memcpy (c->last_uuid, uuid, 37);

  if (c->capture != NULL)
    wrap_progress (c->mirror, c->capture);
  else
    bench_file_end_record (c->gen, c->file);
}

/* A record outside the envelope (summary, titles, snapshots): begins with "{". */
static GString *
plain_begin (Claude *c)
{
  c->o = c->file->buf;
  g_string_append_c (c->o, '{');
  return c->o;
}

static void
plain_end (Claude *c)
{
  g_string_append_c (c->o, '}');
  bench_file_end_record (c->gen, c->file);
}

static void
put_id (Claude     *c,
        GString    *o,
        const char *prefix,
        gsize       n,
        char       *out)
{
  gsize plen = strlen (prefix);

  memcpy (out, prefix, plen);
  bench_random_chars (&c->gen->rng, BENCH_BASE62, out + plen, n);
  if (o != NULL)
    g_string_append (o, out);
}

static void
put_usage (Claude  *c,
           GString *o,
           gint64   output_tokens,
           gint64   cache_creation)
{
  BJ_LIT (o, "\"usage\":{\"input_tokens\":");
  bj_int (o, bench_rng_range (&c->gen->rng, 1, 12));
  BJ_LIT (o, ",\"cache_creation_input_tokens\":");
  bj_int (o, cache_creation);
  BJ_LIT (o, ",\"cache_read_input_tokens\":");
  bj_int (o, c->context);
  BJ_LIT (o, ",\"cache_creation\":{\"ephemeral_5m_input_tokens\":");
  bj_int (o, cache_creation);
  BJ_LIT (o, ",\"ephemeral_1h_input_tokens\":0},\"output_tokens\":");
  bj_int (o, output_tokens);
  BJ_LIT (o, ",\"service_tier\":\"standard\"");
  if (c->era >= 3)
    BJ_LIT (o, ",\"server_tool_use\":{\"web_search_requests\":0,\"web_fetch_requests\":0},"
               "\"inference_geo\":\"\",\"iterations\":[],\"speed\":\"standard\"");
  g_string_append_c (o, '}');
}

/* ——— Tools ——— */

typedef struct
{
  const char *name;
  GString    *input;      /* JSON object */
  GString    *result;     /* raw text */
  GString    *structured; /* toolUseResult JSON, or empty */
  gboolean    is_error;
  gboolean    is_task;
} Tool;

static void
tool_init (Tool *t)
{
  t->input = g_string_new (NULL);
  t->result = g_string_new (NULL);
  t->structured = g_string_new (NULL);
}

static void
tool_clear (Tool *t)
{
  g_string_free (t->input, TRUE);
  g_string_free (t->result, TRUE);
  g_string_free (t->structured, TRUE);
}

static gsize
result_size (Claude *c)
{
  return bench_rng_lognormal (&c->gen->rng, 160, 1.3, 20, 96 * 1024);
}

/* Fills @t with one tool call and what it returned. @big > 0 asks for an output of that size. */
static void
make_tool (Claude  *c,
           Tool    *t,
           gsize    big,
           gboolean allow_task)
{
  BenchGen *gen = c->gen;
  BenchRng *rng = &gen->rng;
  GString  *in = t->input, *res = t->result, *st = t->structured;
  GString  *s = gen->scratch;
  guint32   r = bench_rng_below (rng, 100);

  g_string_truncate (in, 0);
  g_string_truncate (res, 0);
  g_string_truncate (st, 0);
  g_string_truncate (s, 0);
  t->is_error = FALSE;
  t->is_task = FALSE;

  if (big > 0)
    r = bench_rng_chance (rng, 0.5) ? 0 : 30;
  else if (r >= 96 && !allow_task)
    r = 10;

  if (r < 30)
    {
      t->name = "Bash";
      bench_text_command (gen, s);
      BJ_LIT (in, "{\"command\":");
      bj_gstr (in, s);
      BJ_LIT (in, ",\"description\":\"");
      bench_text_words (gen, in, 3 + bench_rng_below (rng, 4));
      BJ_LIT (in, "\"}");
      bench_text_shell (gen, res, big > 0 ? big : result_size (c));
      t->is_error = big == 0 && bench_rng_chance (rng, 0.06);
      BJ_LIT (st, "{\"stdout\":");
      bj_gstr (st, res);
      BJ_LIT (st, ",\"stderr\":\"\",\"interrupted\":false,\"isImage\":false}");
      if (t->is_error)
        g_string_prepend (res, "Exit code 1\n");
    }
  else if (r < 55)
    {
      t->name = "Read";
      bench_path (gen, c->cwd, s);
      BJ_LIT (in, "{\"file_path\":");
      bj_gstr (in, s);
      g_string_append_c (in, '}');
      bench_text_numbered_code (gen, res, big > 0 ? big : result_size (c), c->era >= 1);
      BJ_LIT (st, "{\"type\":\"text\",\"file\":{\"filePath\":");
      bj_gstr (st, s);
      BJ_LIT (st, ",\"content\":");
      bj_gstr (st, res);
      BJ_LIT (st, ",\"numLines\":");
      bj_int (st, bench_rng_range (rng, 5, 900));
      BJ_LIT (st, ",\"startLine\":1,\"totalLines\":");
      bj_int (st, bench_rng_range (rng, 5, 2000));
      BJ_LIT (st, "}}");
    }
  else if (r < 72)
    {
      GString *old_s = g_string_new (NULL), *new_s = g_string_new (NULL);
      gboolean multi = bench_rng_chance (rng, 0.15);

      t->name = multi ? "MultiEdit" : "Edit";
      bench_path (gen, c->cwd, s);
      bench_text_code (gen, old_s, bench_rng_lognormal (rng, 150, 0.9, 10, 4000));
      bench_text_code (gen, new_s, bench_rng_lognormal (rng, 200, 0.9, 10, 6000));
      BJ_LIT (in, "{\"file_path\":");
      bj_gstr (in, s);
      if (multi)
        {
          BJ_LIT (in, ",\"edits\":[{\"old_string\":");
          bj_gstr (in, old_s);
          BJ_LIT (in, ",\"new_string\":");
          bj_gstr (in, new_s);
          BJ_LIT (in, "}]}");
        }
      else
        {
          BJ_LIT (in, ",\"old_string\":");
          bj_gstr (in, old_s);
          BJ_LIT (in, ",\"new_string\":");
          bj_gstr (in, new_s);
          BJ_LIT (in, ",\"replace_all\":false}");
        }
      t->is_error = bench_rng_chance (rng, 0.05);
      if (t->is_error)
        g_string_append (res,
                         "<tool_use_error>String to replace not found in file.</tool_use_error>");
      else
        {
          g_string_append_printf (res,
                                  "The file %s has been updated. Here's the result of running "
                                  "`cat -n` on a snippet of the edited file:\n",
                                  s->str);
          bench_text_numbered_code (gen, res, new_s->len + 200, c->era >= 1);
          BJ_LIT (st, "{\"filePath\":");
          bj_gstr (st, s);
          BJ_LIT (st, ",\"oldString\":");
          bj_gstr (st, old_s);
          BJ_LIT (st, ",\"newString\":");
          bj_gstr (st, new_s);
          BJ_LIT (st, ",\"originalFile\":");
          g_string_truncate (gen->scratch2, 0);
          bench_text_code (gen, gen->scratch2, bench_rng_lognormal (rng, 600, 1.0, 100, 60000));
          bj_gstr (st, gen->scratch2);
          BJ_LIT (st, ",\"structuredPatch\":[{\"oldStart\":");
          bj_int (st, bench_rng_range (rng, 1, 500));
          BJ_LIT (st, ",\"oldLines\":7,\"newStart\":");
          bj_int (st, bench_rng_range (rng, 1, 500));
          BJ_LIT (st, ",\"newLines\":8,\"lines\":[");
          for (guint i = 0, n = 3 + bench_rng_below (rng, 6); i < n; i++)
            {
              g_string_truncate (gen->scratch2, 0);
              g_string_append_c (gen->scratch2, i % 3 == 0 ? '-' : i % 3 == 1 ? '+' : ' ');
              bench_text_code (gen, gen->scratch2, 1);
              g_string_truncate (gen->scratch2, gen->scratch2->len - 1);
              if (i > 0)
                g_string_append_c (st, ',');
              bj_gstr (st, gen->scratch2);
            }
          BJ_LIT (st, "]}],\"userModified\":false,\"replaceAll\":false}");
        }
      g_string_free (old_s, TRUE);
      g_string_free (new_s, TRUE);
    }
  else if (r < 78)
    {
      t->name = "Write";
      bench_path (gen, c->cwd, s);
      g_string_truncate (gen->scratch2, 0);
      bench_text_code (gen, gen->scratch2, bench_rng_lognormal (rng, 500, 1.0, 50, 40000));
      BJ_LIT (in, "{\"file_path\":");
      bj_gstr (in, s);
      BJ_LIT (in, ",\"content\":");
      bj_gstr (in, gen->scratch2);
      g_string_append_c (in, '}');
      g_string_append_printf (res, "File created successfully at: %s", s->str);
      BJ_LIT (st, "{\"type\":\"create\",\"filePath\":");
      bj_gstr (st, s);
      BJ_LIT (st, ",\"content\":");
      bj_gstr (st, gen->scratch2);
      BJ_LIT (st, ",\"structuredPatch\":[]}");
    }
  else if (r < 86)
    {
      t->name = bench_rng_chance (rng, 0.6) ? "Grep" : "Glob";
      bench_text_identifier (gen, s);
      BJ_LIT (in, "{\"pattern\":");
      bj_gstr (in, s);
      BJ_LIT (in, ",\"path\":");
      bj_str (in, c->cwd);
      BJ_LIT (in, ",\"output_mode\":\"files_with_matches\"}");
      for (guint i = 0, n = 1 + bench_rng_below (rng, 25); i < n; i++)
        {
          bench_path (gen, c->cwd, res);
          g_string_append_c (res, '\n');
        }
      BJ_LIT (st, "{\"mode\":\"files_with_matches\",\"filenames\":[],\"numFiles\":");
      bj_int (st, bench_rng_range (rng, 0, 25));
      g_string_append_c (st, '}');
    }
  else if (r < 92)
    {
      t->name = "TodoWrite";
      BJ_LIT (in, "{\"todos\":[");
      for (guint i = 0, n = 2 + bench_rng_below (rng, 6); i < n; i++)
        {
          if (i > 0)
            g_string_append_c (in, ',');
          BJ_LIT (in, "{\"content\":\"");
          bench_text_words (gen, in, 3 + bench_rng_below (rng, 6));
          BJ_LIT (in, "\",\"status\":\"");
          g_string_append (in, i == 0 ? "in_progress" : "pending");
          BJ_LIT (in, "\",\"activeForm\":\"");
          bench_text_words (gen, in, 3 + bench_rng_below (rng, 4));
          BJ_LIT (in, "\"}");
        }
      BJ_LIT (in, "]}");
      g_string_append (res, "Todos have been modified successfully. Ensure that you continue to "
                            "use the todo list to track your progress. Please proceed with the "
                            "current tasks if applicable");
      BJ_LIT (st, "{\"oldTodos\":[],\"newTodos\":");
      g_string_append_len (st, in->str + 9, in->len - 10);
      g_string_append_c (st, '}');
    }
  else if (r < 96)
    {
      static const char *const web[] = { "WebSearch", "WebFetch", "mcp__github__get_issue" };

      t->name = BENCH_PICK (rng, web);
      BJ_LIT (in, "{\"query\":\"");
      bench_text_words (gen, in, 3 + bench_rng_below (rng, 5));
      BJ_LIT (in, "\"}");
      bench_text_markdown (gen, res, result_size (c));
    }
  else
    {
      t->name = c->era >= 3 && bench_rng_chance (rng, 0.5) ? "Agent" : "Task";
      t->is_task = TRUE;
      bench_text_prompt (gen, s, bench_rng_lognormal (rng, 400, 0.8, 40, 4000));
      BJ_LIT (in, "{\"description\":\"");
      bench_text_words (gen, in, 3 + bench_rng_below (rng, 3));
      BJ_LIT (in, "\",\"prompt\":");
      bj_gstr (in, s);
      BJ_LIT (in, ",\"subagent_type\":\"");
      g_string_append (in, bench_rng_chance (rng, 0.6) ? "general-purpose" : "Explore");
      BJ_LIT (in, "\"}");
    }
}

/* ——— Assistant messages, streamed one record per block ——— */

typedef enum
{
  BLOCK_THINKING,
  BLOCK_TEXT,
  BLOCK_TOOL_USE,
} BlockKind;

typedef struct
{
  char   id[40];
  char   request_id[40];
  gint64 output_tokens;
  gint64 cache_creation;
} ApiMessage;

static void
message_begin (Claude     *c,
               ApiMessage *m)
{
  put_id (c, NULL, "msg_01", 22, m->id);
  put_id (c, NULL, "req_011C", 21, m->request_id);
  m->output_tokens = bench_rng_range (&c->gen->rng, 1, 30);
  m->cache_creation = bench_rng_range (&c->gen->rng, 0, 4000);
  c->context += bench_rng_range (&c->gen->rng, 200, 3000);
}

/* Opens the assistant record of one block; the caller writes the block, then calls
 * block_end(). */
static GString *
block_begin (Claude     *c,
             ApiMessage *m)
{
  GString *o = rec_begin (c, "assistant");

  BJ_LIT (o, "\"message\":{\"model\":");
  bj_str (o, c->model);
  BJ_LIT (o, ",\"id\":\"");
  g_string_append (o, m->id);
  BJ_LIT (o, "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[");
  return o;
}

static void
block_end (Claude     *c,
           ApiMessage *m,
           gsize       block_bytes)
{
  GString *o = c->o;

  m->output_tokens += (gint64)block_bytes / 4 + 1;
  BJ_LIT (o, "],\"stop_reason\":null,\"stop_sequence\":null,");
  put_usage (c, o, m->output_tokens, m->cache_creation);
  BJ_LIT (o, "},\"requestId\":\"");
  g_string_append (o, m->request_id);
  BJ_LIT (o, "\",");
  advance (c, 1500);
  rec_end (c);
}

static void
write_text_block (Claude     *c,
                  ApiMessage *m,
                  gsize       bytes)
{
  GString *text = c->gen->scratch;
  GString *o;

  g_string_truncate (text, 0);
  bench_text_markdown (c->gen, text, bytes);
  o = block_begin (c, m);
  BJ_LIT (o, "{\"type\":\"text\",\"text\":");
  bj_gstr (o, text);
  g_string_append_c (o, '}');
  block_end (c, m, text->len);
}

static void
write_thinking_block (Claude     *c,
                      ApiMessage *m)
{
  GString *text = c->gen->scratch;
  GString *o;
  gboolean redacted = bench_rng_chance (&c->gen->rng, 0.02);

  g_string_truncate (text, 0);
  if (redacted)
    bench_text_base64 (c->gen, text, bench_rng_lognormal (&c->gen->rng, 1200, 0.6, 100, 20000));
  else
    bench_text_prose (c->gen, text, bench_rng_lognormal (&c->gen->rng, 280, 1.0, 40, 30000));
  o = block_begin (c, m);
  if (redacted)
    {
      BJ_LIT (o, "{\"type\":\"redacted_thinking\",\"data\":");
      bj_gstr (o, text);
      g_string_append_c (o, '}');
    }
  else
    {
      BJ_LIT (o, "{\"type\":\"thinking\",\"thinking\":");
      bj_gstr (o, text);
      BJ_LIT (o, ",\"signature\":\"");
      bench_text_base64 (c->gen, o, bench_rng_range (&c->gen->rng, 200, 1000));
      BJ_LIT (o, "\"}");
    }
  block_end (c, m, text->len);
}

static void
write_tool_use_block (Claude     *c,
                      ApiMessage *m,
                      Tool       *t,
                      char        tool_id[40])
{
  GString *o = block_begin (c, m);

  BJ_LIT (o, "{\"type\":\"tool_use\",\"id\":\"");
  put_id (c, o, "toolu_01", 22, tool_id);
  BJ_LIT (o, "\",\"name\":");
  bj_str (o, t->name);
  BJ_LIT (o, ",\"input\":");
  g_string_append_len (o, t->input->str, t->input->len);
  if (c->era >= 2)
    BJ_LIT (o, ",\"caller\":{\"type\":\"direct\"}");
  g_string_append_c (o, '}');
  block_end (c, m, t->input->len);
}

static void
write_tool_result (Claude     *c,
                   Tool       *t,
                   const char *tool_id,
                   const char *assistant_uuid)
{
  GString *o = rec_begin (c, "user");

  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":\"");
  g_string_append (o, tool_id);
  BJ_LIT (o, "\",\"type\":\"tool_result\",\"content\":");
  if (t->is_task)
    {
      BJ_LIT (o, "[{\"type\":\"text\",\"text\":");
      bj_gstr (o, t->result);
      BJ_LIT (o, "}]");
    }
  else
    bj_gstr (o, t->result);
  if (t->is_error)
    BJ_LIT (o, ",\"is_error\":true");
  BJ_LIT (o, "}]},");
  if (t->is_error && bench_rng_chance (&c->gen->rng, 0.5))
    {
      const char *cut = NULL;

      /* A plain string for errors, cut short on a character boundary. */
      g_utf8_validate_len (t->result->str, MIN (t->result->len, 200), &cut);
      BJ_LIT (o, "\"toolUseResult\":\"Error: ");
      bj_escape (o, t->result->str, (gsize)(cut - t->result->str));
      BJ_LIT (o, "\",");
    }
  else if (t->structured->len > 0)
    {
      BJ_LIT (o, "\"toolUseResult\":");
      g_string_append_len (o, t->structured->str, t->structured->len);
      g_string_append_c (o, ',');
    }
  if (c->era >= 2)
    {
      BJ_LIT (o, "\"sourceToolAssistantUUID\":\"");
      g_string_append (o, assistant_uuid);
      BJ_LIT (o, "\",");
    }
  advance (c, 2000);
  rec_end (c);
}

static void
write_bash_progress (Claude     *c,
                     const char *tool_id)
{
  GString *o = rec_begin (c, "progress");
  GString *s = c->gen->scratch2;

  g_string_truncate (s, 0);
  bench_text_shell (c->gen, s, bench_rng_lognormal (&c->gen->rng, 200, 0.8, 10, 4000));
  BJ_LIT (o, "\"data\":{\"type\":\"bash_progress\",\"output\":");
  bj_gstr (o, s);
  BJ_LIT (o, ",\"fullOutput\":");
  bj_gstr (o, s);
  BJ_LIT (o, ",\"elapsedTimeSeconds\":");
  bj_int (o, bench_rng_range (&c->gen->rng, 1, 120));
  BJ_LIT (o, ",\"totalLines\":");
  bj_int (o, bench_rng_range (&c->gen->rng, 1, 400));
  BJ_LIT (o, "},\"toolUseID\":\"bash-progress-0\",\"parentToolUseID\":\"");
  g_string_append (o, tool_id);
  BJ_LIT (o, "\",");
  advance (c, 3000);
  rec_end (c);
}

/* ——— Sub-agents ——— */

static void agent_steps (Claude  *c,
                         guint    steps,
                         gboolean allow_task);

static void
write_prompt_record (Claude        *c,
                     const GString *prompt,
                     gboolean       hazards)
{
  GString *o = rec_begin (c, "user");

  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":");
  if (hazards)
    bench_json_text (c->gen, o, prompt);
  else
    bj_gstr (o, prompt);
  BJ_LIT (o, "},");
  if (c->era >= 1 && !c->sidechain)
    BJ_LIT (o, "\"thinkingMetadata\":{\"level\":\"high\",\"disabled\":false,\"triggers\":[]},"
               "\"todos\":[],");
  if (c->era >= 3)
    {
      BJ_LIT (o, "\"promptId\":\"");
      g_string_append (o, c->prompt_id);
      BJ_LIT (o, "\",\"permissionMode\":\"default\",");
    }
  rec_end (c);
}

static void
wrap_progress (Claude        *c,
               const GString *record)
{
  GString *o = rec_begin (c, "progress");

  BJ_LIT (o, "\"data\":{\"message\":");
  g_string_append_len (o, record->str, record->len);
  BJ_LIT (o, ",\"normalizedMessages\":[],\"type\":\"agent_progress\",\"prompt\":");
  bj_str (o, c->mirror_prompt);
  BJ_LIT (o, ",\"agentId\":\"");
  g_string_append (o, c->mirror_agent);
  BJ_LIT (o, "\"},\"toolUseID\":\"agent_msg_");
  g_string_append (o, c->mirror_tool + 6);
  BJ_LIT (o, "\",\"parentToolUseID\":\"");
  g_string_append (o, c->mirror_tool);
  BJ_LIT (o, "\",");
  rec_end (c);
}

/* Runs a sub-agent for the Task call @tool_id, in the shape of the session's generation, and
 * leaves its final report in t->result. */
static void
run_subagent (Claude     *c,
              Tool       *t,
              const char *tool_id)
{
  BenchGen *gen = c->gen;
  Claude    sub = *c;
  g_autoptr (GString) prompt = g_string_new (NULL);
  guint steps = 1 + bench_rng_below (&gen->rng, 8);

  bench_text_prompt (gen, prompt, bench_rng_lognormal (&gen->rng, 300, 0.8, 40, 3000));
  sub.sidechain = TRUE;
  sub.parent[0] = '\0';

  if (c->era == 0)
    {
      /* 1.0.x: inline in the main file, a chain of its own. */
      write_prompt_record (&sub, prompt, FALSE);
      agent_steps (&sub, steps, FALSE);
      c->now = sub.now;
    }
  else if (c->era == 2)
    {
      /* 2.1.x: the main file mirrors every sub-agent record in a progress record. */
      bench_random_chars (&gen->rng, BENCH_HEX, sub.agent_id, 7);
      sub.capture = g_string_new (NULL);
      sub.mirror = c;
      g_strlcpy (c->mirror_tool, tool_id, sizeof c->mirror_tool);
      bench_utf8_copy (c->mirror_prompt, prompt->str, sizeof c->mirror_prompt);
      memcpy (c->mirror_agent, sub.agent_id, sizeof c->mirror_agent);
      write_prompt_record (&sub, prompt, FALSE);
      agent_steps (&sub, steps, FALSE);
      c->now = sub.now;
      g_string_free (sub.capture, TRUE);
    }
  else
    {
      /* 2.0.x and later builds: a file of its own next to the session. */
      g_autofree char *rel = NULL;
      g_autofree char *dir = NULL;

      bench_random_chars (&gen->rng, BENCH_HEX, sub.agent_id, 8);
      dir = g_path_get_dirname (c->file->path + strlen (gen->out_dir) + 1);
      rel = g_strdup_printf ("%s/agent-%s.jsonl", dir, sub.agent_id);
      sub.file = bench_file_open (gen, BENCH_SOURCE_CLAUDE, rel, TRUE);
      gen->totals.by_source[BENCH_SOURCE_CLAUDE].subagent_files++;
      write_prompt_record (&sub, prompt, FALSE);
      agent_steps (&sub, steps, FALSE);
      bench_file_close (gen, sub.file, TRUE);
      c->now = sub.now;
    }

  g_string_truncate (t->result, 0);
  bench_text_markdown (gen, t->result, bench_rng_lognormal (&gen->rng, 900, 0.8, 80, 12000));
  BJ_LIT (t->structured, "{\"status\":\"completed\",\"prompt\":");
  bj_gstr (t->structured, prompt);
  BJ_LIT (t->structured, ",\"content\":[{\"type\":\"text\",\"text\":");
  bj_gstr (t->structured, t->result);
  BJ_LIT (t->structured, "}],\"totalDurationMs\":");
  bj_int (t->structured, bench_rng_range (&gen->rng, 5000, 600000));
  BJ_LIT (t->structured, ",\"totalTokens\":");
  bj_int (t->structured, bench_rng_range (&gen->rng, 5000, 90000));
  BJ_LIT (t->structured, ",\"totalToolUseCount\":");
  bj_int (t->structured, steps);
  g_string_append_c (t->structured, '}');
}

/* One model round trip: optional thinking and text, some tool calls, then their results. */
static void
agent_step (Claude  *c,
            gboolean last,
            gboolean allow_task,
            gsize    big)
{
  BenchRng  *rng = &c->gen->rng;
  ApiMessage m;
  Tool       tools[3];
  char       tool_ids[3][40];
  char       assistant_uuid[37];
  guint n_tools = last ? 0 : 1 + (bench_rng_chance (rng, 0.2) ? 1 + bench_rng_below (rng, 2) : 0);

  message_begin (c, &m);
  if (bench_rng_chance (rng, c->era == 0 ? 0.2 : 0.45))
    write_thinking_block (c, &m);
  if (last || bench_rng_chance (rng, 0.45))
    write_text_block (c, &m, bench_rng_lognormal (rng, last ? 350 : 100, 1.0, 20, 30000));

  for (guint i = 0; i < n_tools; i++)
    {
      tool_init (&tools[i]);
      make_tool (c, &tools[i], i == 0 ? big : 0, allow_task);
      write_tool_use_block (c, &m, &tools[i], tool_ids[i]);
    }
  memcpy (assistant_uuid, c->last_uuid, 37);

  for (guint i = 0; i < n_tools; i++)
    {
      if (tools[i].is_task)
        run_subagent (c, &tools[i], tool_ids[i]);
      else if (c->era == 2 && strcmp (tools[i].name, "Bash") == 0 && bench_rng_chance (rng, 0.3))
        for (guint k = 0, n = 1 + bench_rng_below (rng, 3); k < n; k++)
          write_bash_progress (c, tool_ids[i]);
      write_tool_result (c, &tools[i], tool_ids[i], assistant_uuid);
      tool_clear (&tools[i]);
    }
}

static void
agent_steps (Claude  *c,
             guint    steps,
             gboolean allow_task)
{
  for (guint i = 0; i < steps; i++)
    agent_step (c, i + 1 == steps, allow_task, 0);
}

/* ——— The main session ——— */

static void
write_snapshot (Claude     *c,
                const char *message_id)
{
  GString *o = plain_begin (c);
  GString *path = c->gen->scratch2;

  BJ_LIT (o, "\"type\":\"file-history-snapshot\",\"messageId\":\"");
  g_string_append (o, message_id);
  BJ_LIT (o, "\",\"snapshot\":{\"messageId\":\"");
  g_string_append (o, message_id);
  BJ_LIT (o, "\",\"trackedFileBackups\":{");
  for (guint i = 0, n = bench_rng_below (&c->gen->rng, 4); i < n; i++)
    {
      char hash[17];

      g_string_truncate (path, 0);
      bench_path (c->gen, NULL, path);
      bench_random_chars (&c->gen->rng, BENCH_HEX, hash, 16);
      if (i > 0)
        g_string_append_c (o, ',');
      bj_gstr (o, path);
      BJ_LIT (o, ":{\"backupFileName\":\"");
      g_string_append (o, hash);
      BJ_LIT (o, "@v2\",\"version\":2,\"backupTime\":");
      bj_ts (o, c->now);
      g_string_append_c (o, '}');
    }
  BJ_LIT (o, "},\"timestamp\":");
  bj_ts (o, c->now);
  BJ_LIT (o, "},\"isSnapshotUpdate\":false");
  plain_end (c);
}

static void
write_user_prompt (Claude *c,
                   gsize   big_image)
{
  BenchGen *gen = c->gen;
  GString  *prompt = gen->scratch;
  GString  *o;

  g_string_truncate (prompt, 0);
  bench_text_prompt (gen, prompt, bench_rng_lognormal (&gen->rng, 220, 1.2, 8, 40000));
  if (big_image == 0 && !bench_rng_chance (&gen->rng, 0.02))
    {
      write_prompt_record (c, prompt, TRUE);
      return;
    }

  /* A pasted screenshot: the content becomes an array of blocks. */
  o = rec_begin (c, "user");
  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":");
  bj_gstr (o, prompt);
  BJ_LIT (o, "},{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\","
             "\"data\":\"");
  bench_text_base64 (
    gen, o, big_image > 0 ? big_image : bench_rng_lognormal (&gen->rng, 40000, 0.7, 4000, 300000));
  BJ_LIT (o, "\"}}]},\"imagePasteIds\":[1],");
  rec_end (c);
}

static void
write_system (Claude     *c,
              const char *subtype)
{
  GString *o = rec_begin (c, "system");

  BJ_LIT (o, "\"subtype\":\"");
  g_string_append (o, subtype);
  BJ_LIT (o, "\",");
  if (strcmp (subtype, "turn_duration") == 0)
    {
      BJ_LIT (o, "\"durationMs\":");
      bj_int (o, bench_rng_range (&c->gen->rng, 2000, 900000));
      BJ_LIT (o, ",\"isMeta\":false,");
    }
  else if (strcmp (subtype, "stop_hook_summary") == 0)
    {
      BJ_LIT (o, "\"hookCount\":1,\"hookInfos\":[{\"command\":\"${CLAUDE_PLUGIN_ROOT}/hooks/"
                 "stop.sh\"}],\"hookErrors\":[],\"preventedContinuation\":false,"
                 "\"stopReason\":\"\",\"hasOutput\":false,\"level\":\"suggestion\","
                 "\"toolUseID\":\"");
      g_string_append (o, c->last_uuid);
      BJ_LIT (o, "\",");
    }
  else if (strcmp (subtype, "api_error") == 0)
    {
      BJ_LIT (o,
              "\"level\":\"error\",\"cause\":{\"code\":\"ECONNRESET\"},\"error\":{\"status\":529,"
              "\"message\":\"Overloaded\"},\"retryInMs\":");
      bj_int (o, bench_rng_range (&c->gen->rng, 500, 30000));
      BJ_LIT (o, ",\"retryAttempt\":1,\"maxRetries\":10,");
    }
  rec_end (c);
}

static void
write_compaction (Claude *c)
{
  GString *o;
  char     logical[37];
  GString *s = c->gen->scratch;

  memcpy (logical, c->parent, 37);
  c->parent[0] = '\0';
  o = rec_begin (c, "system");
  BJ_LIT (o, "\"subtype\":\"compact_boundary\",\"content\":\"Conversation compacted\","
             "\"isMeta\":false,\"level\":\"info\",\"logicalParentUuid\":\"");
  g_string_append (o, logical);
  BJ_LIT (o, "\",\"compactMetadata\":{\"trigger\":\"auto\",\"preTokens\":");
  bj_int (o, c->context);
  BJ_LIT (o, "},");
  rec_end (c);

  g_string_truncate (s, 0);
  g_string_append (s, "This session is being continued from a previous conversation that ran "
                      "out of context. The conversation is summarized below:\n");
  bench_text_markdown (c->gen, s, bench_rng_lognormal (&c->gen->rng, 5000, 0.5, 1000, 30000));
  o = rec_begin (c, "user");
  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":");
  bj_gstr (o, s);
  BJ_LIT (o, "},\"isCompactSummary\":true,\"isVisibleInTranscriptOnly\":true,");
  rec_end (c);
  c->context = bench_rng_range (&c->gen->rng, 15000, 30000);
}

static void
write_api_error (Claude *c)
{
  GString *o = rec_begin (c, "assistant");
  char     id[37];

  bench_uuid (&c->gen->rng, id);
  BJ_LIT (o, "\"message\":{\"id\":\"");
  g_string_append (o, id);
  BJ_LIT (o, "\",\"container\":null,\"model\":\"<synthetic>\",\"role\":\"assistant\","
             "\"stop_reason\":\"stop_sequence\",\"stop_sequence\":\"\",\"type\":\"message\","
             "\"usage\":{\"input_tokens\":0,\"output_tokens\":0,\"cache_creation_input_tokens\":0,"
             "\"cache_read_input_tokens\":0},\"content\":[{\"type\":\"text\",\"text\":\"API Error: "
             "529 {\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"overloaded_error\\\","
             "\\\"message\\\":\\\"Overloaded\\\"}}\"}]},\"isApiErrorMessage\":true,"
             "\"error\":\"rate_limit\",");
  rec_end (c);
}

static void
write_slash_command (Claude *c)
{
  static const char *const commands[] = { "/clear", "/compact", "/init", "/model", "/cost" };
  const char              *command = BENCH_PICK (&c->gen->rng, commands);
  GString                 *o;

  o = rec_begin (c, "user");
  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":\"Caveat: The messages below were "
             "generated by the user while running local commands. DO NOT respond to these "
             "messages or otherwise consider them in your response unless the user explicitly "
             "asks you to.\"},\"isMeta\":true,");
  rec_end (c);
  o = rec_begin (c, "user");
  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":\"<command-name>");
  g_string_append (o, command);
  BJ_LIT (o, "</command-name>\\n            <command-message>");
  g_string_append (o, command + 1);
  BJ_LIT (o, "</command-message>\\n            <command-args></command-args>\"},");
  rec_end (c);
  o = rec_begin (c, "user");
  BJ_LIT (o, "\"message\":{\"role\":\"user\",\"content\":\"<local-command-stdout>");
  bench_text_words (c->gen, o, 4 + bench_rng_below (&c->gen->rng, 20));
  BJ_LIT (o, "</local-command-stdout>\"},");
  rec_end (c);
}

static void
write_queue_operation (Claude *c)
{
  GString *o = plain_begin (c);

  BJ_LIT (o, "\"type\":\"queue-operation\",\"operation\":\"enqueue\",\"timestamp\":");
  bj_ts (o, c->now);
  BJ_LIT (o, ",\"sessionId\":\"");
  g_string_append (o, c->session_id);
  BJ_LIT (o, "\",\"content\":\"");
  bench_text_words (c->gen, o, 3 + bench_rng_below (&c->gen->rng, 12));
  BJ_LIT (o, "\"");
  plain_end (c);
  advance (c, 5000);
  o = plain_begin (c);
  BJ_LIT (o, "\"type\":\"queue-operation\",\"operation\":\"dequeue\",\"timestamp\":");
  bj_ts (o, c->now);
  BJ_LIT (o, ",\"sessionId\":\"");
  g_string_append (o, c->session_id);
  BJ_LIT (o, "\"");
  plain_end (c);
}

static void
write_attachment (Claude *c)
{
  GString *o = rec_begin (c, "attachment");

  BJ_LIT (o, "\"attachment\":{\"type\":\"hook_success\",\"hookName\":\"UserPromptSubmit\","
             "\"hookEvent\":\"UserPromptSubmit\",\"content\":\"\",\"stdout\":\"");
  bench_text_words (c->gen, o, 5 + bench_rng_below (&c->gen->rng, 30));
  BJ_LIT (o, "\",\"stderr\":\"\",\"exitCode\":0},");
  rec_end (c);
}

static void
write_title (Claude     *c,
             const char *type,
             const char *member)
{
  GString *o = plain_begin (c);

  BJ_LIT (o, "\"type\":\"");
  g_string_append (o, type);
  BJ_LIT (o, "\",\"");
  g_string_append (o, member);
  BJ_LIT (o, "\":\"");
  bench_text_title (c->gen, o);
  BJ_LIT (o, "\",\"sessionId\":\"");
  g_string_append (o, c->session_id);
  BJ_LIT (o, "\"");
  plain_end (c);
}

static void
turn (Claude *c)
{
  BenchGen *gen = c->gen;
  BenchRng *rng = &gen->rng;
  char      message_id[37];
  gsize     big = 0;
  gboolean  big_image = FALSE;
  guint     steps;

  advance (c, 60000);
  bench_uuid (rng, c->prompt_id);
  if (gen->pending_big > 0 && (gen->session_bytes + c->file->buf->len >= gen->session->budget ||
                               bench_rng_chance (rng, 0.2)))
    {
      gen->pending_big--;
      gen->totals.big_lines++;
      big = bench_big_line_size (gen);
      big_image = bench_rng_chance (rng, 0.4);
    }

  if (c->era >= 1)
    {
      bench_uuid (rng, message_id);
      write_snapshot (c, message_id);
    }
  if (bench_rng_chance (rng, 0.04))
    write_slash_command (c);
  if (c->era >= 1 && bench_rng_chance (rng, 0.03))
    write_queue_operation (c);

  /* A Read or Bash result of that size is stored twice (content and toolUseResult). */
  write_user_prompt (c, big_image ? big - 2000 : 0);
  if (c->era >= 3 && bench_rng_chance (rng, 0.3))
    write_attachment (c);

  steps = 1 + (guint)bench_rng_lognormal (rng, 3, 1.0, 0, 60);
  for (guint i = 0; i < steps; i++)
    {
      gboolean last = i + 1 == steps;

      if (!last && i > 0 && bench_gen_session_full (gen, c->file) && bench_rng_chance (rng, 0.5))
        last = TRUE;
      if (bench_rng_chance (rng, 0.01))
        {
          if (c->era >= 1)
            write_system (c, "api_error");
          else
            write_api_error (c);
        }
      agent_step (c, last, TRUE, (big > 0 && !big_image && i == 0 && !last) ? big / 2 - 4000 : 0);
      if (last)
        break;
    }
  if (!big_image && big > 0 && steps == 1)
    gen->pending_big++, gen->totals.big_lines--; /* no tool call in this turn: try again */

  if (c->era >= 2)
    {
      write_system (c, "turn_duration");
      if (bench_rng_chance (rng, 0.15))
        write_system (c, "stop_hook_summary");
    }
  if (c->context > 160000 && bench_rng_chance (rng, 0.5))
    write_compaction (c);
}

static void
project_dir (const char *cwd,
             GString    *dst)
{
  for (const char *p = cwd; *p != '\0'; p++)
    g_string_append_c (dst, g_ascii_isalnum (*p) ? *p : '-');
}

void
bench_claude_session (BenchGen *gen)
{
  const BenchSession *session = gen->session;
  BenchRng           *rng = &gen->rng;
  Claude              c = { 0 };
  g_autoptr (GString) rel = g_string_new ("claude/projects/");
  int y, mo, d, h, mi, s;

  c.gen = gen;
  c.now = session->start_ms;
  bench_civil (c.now, &y, &mo, &d, &h, &mi, &s);
  /* The generation follows the date, as the tool's releases did. */
  if (y == 2025 && mo < 10)
    c.era = 0;
  else if (y == 2025)
    c.era = 1;
  else if (mo < 4)
    c.era = 2;
  else
    c.era = 3;
  c.version = versions[c.era][bench_rng_below (rng, 4)];
  c.model = models[c.era][bench_rng_below (rng, 3)];
  c.cwd = bench_pick_cwd (gen);
  c.branch = bench_pick_branch (gen);
  c.context = bench_rng_range (rng, 12000, 25000);
  bench_uuid (rng, c.session_id);
  if (c.era == 1 || c.era == 2)
    {
      g_autoptr (GString) slug = g_string_new (NULL);

      bench_slug (gen, slug);
      g_strlcpy (c.slug, slug->str, sizeof c.slug);
    }

  project_dir (c.cwd, rel);
  g_string_append_printf (rel, "/%s.jsonl", c.session_id);
  c.file = bench_file_open (gen, BENCH_SOURCE_CLAUDE, rel->str, TRUE);
  gen->totals.by_source[BENCH_SOURCE_CLAUDE].sessions++;

  if (c.era <= 1 && bench_rng_chance (rng, 0.25))
    for (guint i = 0, n = 1 + bench_rng_below (rng, 3); i < n; i++)
      {
        GString *o = plain_begin (&c);
        char     leaf[37];

        BJ_LIT (o, "\"type\":\"summary\",\"summary\":\"");
        bench_text_title (gen, o);
        BJ_LIT (o, "\",\"leafUuid\":\"");
        bench_uuid (rng, leaf);
        g_string_append (o, leaf);
        g_string_append_c (o, '"');
        plain_end (&c);
      }

  /* The 2.0.x "Warmup" agent some sessions start with. */
  if (c.era == 1 && bench_rng_chance (rng, 0.2))
    {
      Claude           sub = c;
      g_autofree char *dir = g_path_get_dirname (rel->str);
      g_autofree char *agent_rel = NULL;
      g_autoptr (GString) warmup = g_string_new ("Warmup");

      sub.sidechain = TRUE;
      sub.parent[0] = '\0';
      bench_random_chars (rng, BENCH_HEX, sub.agent_id, 8);
      agent_rel = g_strdup_printf ("%s/agent-%s.jsonl", dir, sub.agent_id);
      sub.file = bench_file_open (gen, BENCH_SOURCE_CLAUDE, agent_rel, TRUE);
      gen->totals.by_source[BENCH_SOURCE_CLAUDE].subagent_files++;
      write_prompt_record (&sub, warmup, FALSE);
      agent_steps (&sub, 1, FALSE);
      bench_file_close (gen, sub.file, TRUE);
    }

  do
    turn (&c);
  while (!bench_gen_session_full (gen, c.file));

  if (c.era >= 2 && bench_rng_chance (rng, 0.12))
    write_title (&c, "custom-title", "customTitle");
  if (c.era >= 3)
    {
      GString *o;

      if (bench_rng_chance (rng, 0.6))
        write_title (&c, "ai-title", "aiTitle");
      o = plain_begin (&c);
      BJ_LIT (o, "\"type\":\"last-prompt\",\"lastPrompt\":\"");
      bench_text_words (gen, o, 6);
      BJ_LIT (o, "\",\"leafUuid\":\"");
      g_string_append (o, c.last_uuid);
      BJ_LIT (o, "\",\"sessionId\":\"");
      g_string_append (o, c.session_id);
      g_string_append_c (o, '"');
      plain_end (&c);
    }

  bench_file_finish_jsonl (gen, c.file);
}
