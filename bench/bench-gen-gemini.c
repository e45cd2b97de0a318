/* bench-gen-gemini.c — Gemini CLI chats: gemini/tmp/<projectHash>/chats/session-….json(l).
 *
 * FORMATS.md §3: the legacy whole document, pretty-printed as JSON.stringify (…, null, 2) writes
 * it, and the JSON Lines form with a metadata first line, message records (a later line with
 * the same id supersedes the earlier one), "$set" updates, a rare "$rewindTo", and sub-agent
 * chats in chats/<parentSessionId>/<sessionId>.jsonl.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "bench-gen.h"

typedef struct
{
  BenchGen   *gen;
  const char *cwd;
  char        hash[65];
  char        session_id[37];
  const char *model;
  gint64      start;
  gint64      now;
} Gemini;

typedef struct
{
  const char *name;
  const char *display;
  const char *arg;
} GeminiTool;

static const GeminiTool tools[] = {
  { "read_file", "ReadFile", "absolute_path" }, { "read_file", "ReadFile", "absolute_path" },
  { "run_shell_command", "Shell", "command" },  { "run_shell_command", "Shell", "command" },
  { "replace", "Edit", "file_path" },           { "write_file", "WriteFile", "file_path" },
  { "glob", "FindFiles", "pattern" },           { "search_file_content", "SearchText", "pattern" },
  { "list_directory", "ReadFolder", "path" },   { "google_web_search", "GoogleSearch", "query" },
};

static const char *const models[] = { "gemini-2.5-pro", "gemini-2.5-flash",
                                      "gemini-3-pro-preview" };

static void
advance (Gemini *g,
         double  median_ms)
{
  g->now += (gint64)bench_rng_lognormal (&g->gen->rng, median_ms, 1.0, 5, 3600 * 1000);
}

static void
put_uuid (Gemini  *g,
          GString *o,
          char     out[37])
{
  bench_uuid (&g->gen->rng, out);
  g_string_append_c (o, '"');
  g_string_append_len (o, out, 36);
  g_string_append_c (o, '"');
}

static void
write_user (Gemini  *g,
            GString *o)
{
  GString *s = g->gen->scratch;
  char     id[37];

  g_string_truncate (s, 0);
  bench_text_prompt (g->gen, s, bench_rng_lognormal (&g->gen->rng, 200, 1.2, 8, 30000));
  BJ_LIT (o, "{\"id\":");
  put_uuid (g, o, id);
  BJ_LIT (o, ",\"timestamp\":");
  bj_ts (o, g->now);
  BJ_LIT (o, ",\"type\":\"user\",\"content\":");
  if (bench_rng_chance (&g->gen->rng, 0.3))
    {
      BJ_LIT (o, "[{\"text\":");
      bj_gstr (o, s);
      BJ_LIT (o, "}]");
    }
  else
    bj_gstr (o, s);
  g_string_append_c (o, '}');
}

static void
write_tool_call (Gemini  *g,
                 GString *o,
                 gsize    big)
{
  BenchGen         *gen = g->gen;
  BenchRng         *rng = &gen->rng;
  const GeminiTool *tool = big > 0 ? &tools[bench_rng_below (rng, 4)] : &BENCH_PICK (rng, tools);
  GString          *arg = gen->scratch, *out = gen->scratch2;
  gboolean          error = big == 0 && bench_rng_chance (rng, 0.05);
  char              id[64], hex[14];

  g_string_truncate (arg, 0);
  g_string_truncate (out, 0);
  if (strcmp (tool->arg, "command") == 0)
    bench_text_command (gen, arg);
  else if (strcmp (tool->arg, "query") == 0 || strcmp (tool->arg, "pattern") == 0)
    bench_text_identifier (gen, arg);
  else
    bench_path (gen, g->cwd, arg);

  if (error)
    g_string_append_printf (out, "Error: %s failed: ENOENT: no such file or directory", tool->name);
  else if (strcmp (tool->name, "read_file") == 0)
    bench_text_code (gen, out, big > 0 ? big : bench_rng_lognormal (rng, 1500, 1.2, 20, 80000));
  else if (strcmp (tool->name, "run_shell_command") == 0)
    bench_text_shell (gen, out, big > 0 ? big : bench_rng_lognormal (rng, 600, 1.3, 0, 60000));
  else if (strcmp (tool->name, "google_web_search") == 0)
    bench_text_markdown (gen, out, bench_rng_lognormal (rng, 1500, 0.8, 100, 20000));
  else
    g_string_append_printf (out, "Successfully modified file: %s (1 replacements).", arg->str);

  bench_random_chars (rng, BENCH_HEX, hex, 13);
  g_snprintf (id, sizeof id, "%s-%" G_GINT64_FORMAT "-%s", tool->name, g->now, hex);

  BJ_LIT (o, "{\"id\":\"");
  g_string_append (o, id);
  BJ_LIT (o, "\",\"name\":\"");
  g_string_append (o, tool->name);
  BJ_LIT (o, "\",\"args\":{\"");
  g_string_append (o, tool->arg);
  BJ_LIT (o, "\":");
  bj_gstr (o, arg);
  if (strcmp (tool->name, "replace") == 0)
    {
      g_autoptr (GString) code = g_string_new (NULL);

      bench_text_code (gen, code, bench_rng_lognormal (rng, 150, 0.8, 10, 4000));
      BJ_LIT (o, ",\"old_string\":");
      bj_gstr (o, code);
      g_string_truncate (code, 0);
      bench_text_code (gen, code, bench_rng_lognormal (rng, 200, 0.8, 10, 4000));
      BJ_LIT (o, ",\"new_string\":");
      bj_gstr (o, code);
    }
  BJ_LIT (o, "},\"result\":[{\"functionResponse\":{\"id\":\"");
  g_string_append (o, id);
  BJ_LIT (o, "\",\"name\":\"");
  g_string_append (o, tool->name);
  BJ_LIT (o, "\",\"response\":{\"");
  g_string_append (o, error ? "error" : "output");
  BJ_LIT (o, "\":");
  bj_gstr (o, out);
  BJ_LIT (o, "}}}],\"status\":\"");
  g_string_append (o, error ? "error" : "success");
  BJ_LIT (o, "\",\"timestamp\":");
  bj_ts (o, g->now);
  BJ_LIT (o, ",\"displayName\":\"");
  g_string_append (o, tool->display);
  BJ_LIT (o, "\",\"description\":\"");
  bench_text_words (gen, o, 6 + bench_rng_below (rng, 10));
  BJ_LIT (o, "\",\"resultDisplay\":");
  if (out->len > 2000 && !error)
    BJ_LIT (o, "\"\"");
  else
    bj_gstr (o, out);
  BJ_LIT (o, ",\"renderOutputAsMarkdown\":");
  bj_bool (o, strcmp (tool->name, "run_shell_command") != 0);
  g_string_append_c (o, '}');
  advance (g, 3000);
}

/* A gemini message without its closing brace: what the CLI records when the model's answer
 * arrives. The tool calls are added to the same record once they ran. */
static void
write_gemini_head (Gemini     *g,
                   GString    *o,
                   const char *id,
                   gboolean    final)
{
  BenchGen *gen = g->gen;
  BenchRng *rng = &gen->rng;
  gint64    in = bench_rng_range (rng, 4000, 120000);
  gint64    out = bench_rng_range (rng, 10, 4000);
  gint64    thoughts = bench_rng_range (rng, 0, 3000);
  g_autoptr (GString) text = g_string_new (NULL);

  if (final || bench_rng_chance (rng, 0.5))
    bench_text_markdown (gen, text, bench_rng_lognormal (rng, final ? 700 : 150, 1.0, 10, 20000));

  BJ_LIT (o, "{\"id\":\"");
  g_string_append (o, id);
  BJ_LIT (o, "\",\"timestamp\":");
  bj_ts (o, g->now);
  BJ_LIT (o, ",\"type\":\"gemini\",\"content\":");
  bj_gstr (o, text);
  BJ_LIT (o, ",\"thoughts\":[");
  for (guint i = 0, n = bench_rng_below (rng, 4); i < n; i++)
    {
      if (i > 0)
        g_string_append_c (o, ',');
      BJ_LIT (o, "{\"subject\":\"");
      bench_text_title (gen, o);
      BJ_LIT (o, "\",\"description\":");
      g_string_truncate (gen->scratch, 0);
      bench_text_prose (gen, gen->scratch, bench_rng_lognormal (rng, 300, 0.8, 30, 5000));
      bj_gstr (o, gen->scratch);
      BJ_LIT (o, ",\"timestamp\":");
      bj_ts (o, g->now);
      g_string_append_c (o, '}');
    }
  BJ_LIT (o, "],\"tokens\":{\"input\":");
  bj_int (o, in);
  BJ_LIT (o, ",\"output\":");
  bj_int (o, out);
  BJ_LIT (o, ",\"cached\":");
  bj_int (o, in / 2);
  BJ_LIT (o, ",\"thoughts\":");
  bj_int (o, thoughts);
  BJ_LIT (o, ",\"tool\":0,\"total\":");
  bj_int (o, in + out + thoughts);
  BJ_LIT (o, "},\"model\":");
  bj_str (o, g->model);
}

/* The rest of a gemini message: its tool calls, if any, and the closing brace. */
static void
write_gemini_tail (Gemini  *g,
                   GString *o,
                   guint    n_tools,
                   gsize    big)
{
  if (n_tools > 0)
    {
      BJ_LIT (o, ",\"toolCalls\":[");
      for (guint i = 0; i < n_tools; i++)
        {
          if (i > 0)
            g_string_append_c (o, ',');
          write_tool_call (g, o, i == 0 ? big : 0);
        }
      g_string_append_c (o, ']');
    }
  g_string_append_c (o, '}');
}

static void
write_notice (Gemini  *g,
              GString *o)
{
  char     id[37];
  gboolean error = bench_rng_chance (&g->gen->rng, 0.4);

  BJ_LIT (o, "{\"id\":");
  put_uuid (g, o, id);
  BJ_LIT (o, ",\"timestamp\":");
  bj_ts (o, g->now);
  if (error)
    BJ_LIT (o, ",\"type\":\"error\",\"content\":\"[API Error: got status: 429 Too Many Requests. "
               "Quota exceeded for quota metric 'Gemini 2.5 Pro Requests']\"}");
  else
    BJ_LIT (o, ",\"type\":\"info\",\"content\":\"Switched to fallback model gemini-2.5-flash\"}");
}

static gsize
take_big (Gemini *g,
          gsize   so_far)
{
  BenchGen *gen = g->gen;

  if (gen->pending_big > 0 &&
      (gen->session_bytes + so_far >= gen->session->budget || bench_rng_chance (&gen->rng, 0.3)))
    {
      gen->pending_big--;
      gen->totals.big_lines++;
      return bench_big_line_size (gen);
    }
  return 0;
}

static guint
pick_tools (Gemini *g,
            gsize   big)
{
  if (big > 0)
    return 1;
  return bench_rng_chance (&g->gen->rng, 0.6) ? 1 + bench_rng_below (&g->gen->rng, 3) : 0;
}

static void
file_name (Gemini     *g,
           GString    *rel,
           const char *ext)
{
  int y, mo, d, h, mi, s;

  bench_civil (g->start, &y, &mo, &d, &h, &mi, &s);
  g_string_append_printf (rel, "session-%04d-%02d-%02dT%02d-%02d-%.8s%s", y, mo, d, h, mi,
                          g->session_id, ext);
}

/* ——— Legacy whole document ——— */

static void
legacy_session (Gemini *g)
{
  BenchGen *gen = g->gen;
  BenchRng *rng = &gen->rng;
  g_autoptr (GString) doc = g_string_sized_new (64 * 1024);
  g_autoptr (GString) rel = g_string_new ("gemini/tmp/");
  g_autoptr (GString) messages = g_string_sized_new (64 * 1024);
  BenchCounts *counts = &gen->totals.by_source[BENCH_SOURCE_GEMINI];
  guint        n_messages = 0;
  BenchFile   *file;

  do
    {
      gsize big = take_big (g, messages->len * 6 / 5);
      guint steps = 1 + (guint)bench_rng_lognormal (rng, 2, 0.9, 0, 30);

      advance (g, 60000);
      if (n_messages > 0)
        g_string_append_c (messages, ',');
      write_user (g, messages);
      n_messages++;
      for (guint i = 0; i < steps; i++)
        {
          char     id[37];
          gboolean final = i + 1 == steps;

          advance (g, 4000);
          bench_uuid (rng, id);
          g_string_append_c (messages, ',');
          if (bench_rng_chance (rng, 0.02))
            {
              write_notice (g, messages);
              g_string_append_c (messages, ',');
              n_messages++;
            }
          write_gemini_head (g, messages, id, final);
          write_gemini_tail (g, messages, final ? 0 : pick_tools (g, big), final ? 0 : big);
          if (!final)
            big = 0;
          n_messages++;
        }
      if (big > 0)
        {
          gen->pending_big++;
          gen->totals.big_lines--;
        }
    }
  while (gen->session_bytes + messages->len * 6 / 5 < gen->session->budget || gen->pending_big > 0);

  BJ_LIT (doc, "{\"sessionId\":\"");
  g_string_append (doc, g->session_id);
  BJ_LIT (doc, "\",\"projectHash\":\"");
  g_string_append (doc, g->hash);
  BJ_LIT (doc, "\",\"startTime\":");
  bj_ts (doc, g->start);
  BJ_LIT (doc, ",\"lastUpdated\":");
  bj_ts (doc, g->now);
  BJ_LIT (doc, ",\"messages\":[");
  g_string_append_len (doc, messages->str, messages->len);
  g_string_append_c (doc, ']');
  if (bench_rng_chance (rng, 0.3))
    {
      BJ_LIT (doc, ",\"summary\":\"");
      bench_text_title (gen, doc);
      g_string_append_c (doc, '"');
    }
  g_string_append_c (doc, '}');

  g_string_append_printf (rel, "%s/chats/", g->hash);
  file_name (g, rel, ".json");
  file = bench_file_open (gen, BENCH_SOURCE_GEMINI, rel->str, FALSE);
  bench_pretty_json (file->buf, doc->str, doc->len);
  counts->documents++;
  counts->document_messages += n_messages;
  bench_file_close (gen, file, FALSE);
}

/* ——— JSON Lines ——— */

static void
jsonl_record (BenchGen  *gen,
              BenchFile *file)
{
  bench_file_end_record (gen, file);
}

static void
jsonl_chat (Gemini     *g,
            BenchFile  *file,
            const char *kind,
            gboolean    main)
{
  BenchGen *gen = g->gen;
  BenchRng *rng = &gen->rng;
  GString  *o = file->buf;
  g_autoptr (GString) head = g_string_new (NULL);
  char last_user[37] = "";

  BJ_LIT (o, "{\"sessionId\":\"");
  g_string_append (o, g->session_id);
  BJ_LIT (o, "\",\"projectHash\":\"");
  g_string_append (o, g->hash);
  BJ_LIT (o, "\",\"startTime\":");
  bj_ts (o, g->start);
  BJ_LIT (o, ",\"lastUpdated\":");
  bj_ts (o, g->now);
  BJ_LIT (o, ",\"kind\":\"");
  g_string_append (o, kind);
  BJ_LIT (o, "\",\"directories\":[");
  bj_str (o, g->cwd);
  BJ_LIT (o, "]}");
  jsonl_record (gen, file);

  do
    {
      gsize big = main ? take_big (g, file->buf->len) : 0;
      guint steps = 1 + (guint)bench_rng_lognormal (rng, 2, 0.9, 0, 30);
      gsize mark;

      advance (g, 60000);
      mark = o->len;
      write_user (g, o);
      memcpy (last_user, o->str + mark + 7, 36);
      last_user[36] = '\0';
      jsonl_record (gen, file);

      for (guint i = 0; i < steps; i++)
        {
          char     id[37];
          gboolean final = i + 1 == steps;
          guint    n_tools = final ? 0 : pick_tools (g, big);

          g_string_truncate (head, 0);
          advance (g, 4000);
          bench_uuid (rng, id);
          write_gemini_head (g, head, id, final);
          if (n_tools > 0 && bench_rng_chance (rng, 0.5))
            {
              /* First recorded before the calls ran; the same record with its calls, below,
               * supersedes it. */
              g_string_append_len (o, head->str, head->len);
              g_string_append_c (o, '}');
              jsonl_record (gen, file);
            }
          g_string_append_len (o, head->str, head->len);
          write_gemini_tail (g, o, n_tools, final ? 0 : big);
          jsonl_record (gen, file);
          if (!final)
            big = 0;
        }
      if (big > 0)
        {
          gen->pending_big++;
          gen->totals.big_lines--;
        }

      BJ_LIT (o, "{\"$set\":{\"lastUpdated\":");
      bj_ts (o, g->now);
      BJ_LIT (o, "}}");
      jsonl_record (gen, file);

      if (main && bench_rng_chance (rng, 0.01))
        {
          BJ_LIT (o, "{\"$rewindTo\":\"");
          g_string_append (o, last_user);
          BJ_LIT (o, "\"}");
          jsonl_record (gen, file);
        }
    }
  while (main ? gen->session_bytes + file->buf->len < gen->session->budget || gen->pending_big > 0
              : bench_rng_chance (rng, 0.3));
}

static void
jsonl_session (Gemini *g)
{
  BenchGen *gen = g->gen;
  g_autoptr (GString) rel = g_string_new ("gemini/tmp/");
  g_autofree char *chats = NULL;
  BenchFile       *file;

  g_string_append_printf (rel, "%s/chats/", g->hash);
  chats = g_strdup (rel->str);
  file_name (g, rel, ".jsonl");
  file = bench_file_open (gen, BENCH_SOURCE_GEMINI, rel->str, TRUE);
  jsonl_chat (g, file, "main", TRUE);
  bench_file_finish_jsonl (gen, file);

  if (bench_rng_chance (&gen->rng, 0.08))
    {
      Gemini           sub = *g;
      g_autofree char *sub_rel = NULL;

      bench_uuid (&gen->rng, sub.session_id);
      sub_rel = g_strdup_printf ("%s%s/%s.jsonl", chats, g->session_id, sub.session_id);
      file = bench_file_open (gen, BENCH_SOURCE_GEMINI, sub_rel, TRUE);
      gen->totals.by_source[BENCH_SOURCE_GEMINI].subagent_files++;
      jsonl_chat (&sub, file, "subagent", FALSE);
      bench_file_close (gen, file, TRUE);
    }
}

void
bench_gemini_session (BenchGen *gen)
{
  Gemini           g = { 0 };
  g_autofree char *hash = NULL;

  g.gen = gen;
  g.start = g.now = gen->session->start_ms;
  g.cwd = bench_pick_cwd (gen);
  g.model = BENCH_PICK (&gen->rng, models);
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, g.cwd, -1);
  g_strlcpy (g.hash, hash, sizeof g.hash);
  bench_uuid (&gen->rng, g.session_id);
  gen->totals.by_source[BENCH_SOURCE_GEMINI].sessions++;

  /* Gemini CLI moved from the whole document to JSON Lines early in 2026. */
  if (g.start < G_GINT64_CONSTANT (1772323200000) || bench_rng_chance (&gen->rng, 0.1))
    legacy_session (&g);
  else
    jsonl_session (&g);
}
