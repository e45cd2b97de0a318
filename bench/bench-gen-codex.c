/* bench-gen-codex.c — Codex CLI rollouts: codex/sessions/YYYY/MM/DD/rollout-…-<uuid7>.jsonl.
 *
 * Every line is the envelope {"timestamp", "type", "payload"} of FORMATS.md §2, in three
 * generations: 0.4x–0.5x (instructions string, `shell` tool with JSON-wrapped output, no turn
 * ids), 0.6x–0.12x (base_instructions, exec_command, apply_patch as a custom tool, phases) and
 * 0.14x (session_id, world_state, item ids with their turn). The double bookkeeping is kept:
 * each prompt, reply and reasoning is written as a response_item and again as an event_msg.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "bench-gen.h"

typedef struct
{
  BenchGen   *gen;
  BenchFile  *file;
  GString    *o;
  int         era;
  const char *version;
  const char *model;
  const char *cwd;
  char        id[37];
  char        turn_id[37];
  gint64      now;
  gint64      total_input;
  gint64      total_cached;
  gint64      total_output;
  gint64      total_reasoning;
} Codex;

static const char *const versions[][3] = {
  { "0.46.0", "0.50.0", "0.58.0" },
  { "0.63.0", "0.98.0", "0.121.0" },
  { "0.141.0", "0.144.1", "0.145.0" },
};
static const char *const models[][3] = {
  { "gpt-5-codex", "gpt-5", "gpt-5-codex" },
  { "gpt-5.1-codex", "gpt-5.2-codex", "gpt-5.1-codex-max" },
  { "gpt-5.5", "gpt-5.3-codex", "gpt-5.5" },
};

static GString *base_instructions[3];

static const GString *
get_base_instructions (Codex *x)
{
  /* The same long system prompt in every session of a release, as Codex writes it. */
  if (base_instructions[x->era] == NULL)
    {
      GString *s = g_string_new ("You are Codex, based on GPT-5. You are running as a coding agent "
                                 "in the Codex CLI on a user's computer.\n\n## General\n\n");
      bench_text_markdown (x->gen, s, 9000 + 2000 * x->era);
      base_instructions[x->era] = s;
    }
  return base_instructions[x->era];
}

static void
advance (Codex *x,
         double median_ms)
{
  x->now += (gint64)bench_rng_lognormal (&x->gen->rng, median_ms, 1.0, 5, 3600 * 1000);
}

static GString *
line_begin (Codex      *x,
            const char *type)
{
  GString *o = x->o = x->file->buf;

  BJ_LIT (o, "{\"timestamp\":");
  bj_ts (o, x->now);
  BJ_LIT (o, ",\"type\":\"");
  g_string_append (o, type);
  BJ_LIT (o, "\",\"payload\":{");
  return o;
}

static void
line_end (Codex *x)
{
  BJ_LIT (x->o, "}}");
  bench_file_end_record (x->gen, x->file);
  advance (x, 400);
}

/* 0.14x: response items carry an id and their turn. */
static void
item_ids (Codex      *x,
          const char *prefix)
{
  GString *o = x->o;
  char     hex[33];

  if (x->era < 2)
    return;
  bench_random_chars (&x->gen->rng, BENCH_HEX, hex, 32);
  BJ_LIT (o, ",\"id\":\"");
  g_string_append (o, prefix);
  g_string_append (o, hex);
  BJ_LIT (o, "\",\"internal_chat_message_metadata_passthrough\":{\"turn_id\":\"");
  g_string_append (o, x->turn_id);
  BJ_LIT (o, "\"}");
}

static void
put_call_id (Codex *x,
             char   call_id[40])
{
  memcpy (call_id, "call_", 5);
  bench_random_chars (&x->gen->rng, BENCH_BASE62, call_id + 5, 24);
  g_string_append_c (x->o, '"');
  g_string_append (x->o, call_id);
  g_string_append_c (x->o, '"');
}

static void
put_call_id_text (Codex   *x,
                  GString *o)
{
  char call_id[40];

  memcpy (call_id, "ws_", 3);
  bench_random_chars (&x->gen->rng, BENCH_BASE62, call_id + 3, 24);
  g_string_append (o, call_id);
  g_string_append_c (o, '"');
}

static void
write_session_meta (Codex *x)
{
  GString *o = line_begin (x, "session_meta");
  char     commit[41];

  BJ_LIT (o, "\"id\":\"");
  g_string_append (o, x->id);
  BJ_LIT (o, "\",");
  if (x->era >= 2)
    {
      BJ_LIT (o, "\"session_id\":\"");
      g_string_append (o, x->id);
      BJ_LIT (o, "\",");
    }
  BJ_LIT (o, "\"timestamp\":");
  bj_ts (o, x->now);
  BJ_LIT (o, ",\"cwd\":");
  bj_str (o, x->cwd);
  BJ_LIT (o, ",\"originator\":\"");
  g_string_append (o, x->era == 0 ? "codex_cli_rs" : x->era == 1 ? "codex-tui" : "Codex Desktop");
  BJ_LIT (o, "\",\"cli_version\":\"");
  g_string_append (o, x->version);
  BJ_LIT (o, "\",");
  if (x->era == 0)
    {
      if (bench_rng_chance (&x->gen->rng, 0.7))
        BJ_LIT (o, "\"instructions\":null,");
      else
        {
          BJ_LIT (o, "\"instructions\":\"");
          bench_text_words (x->gen, o, 20 + bench_rng_below (&x->gen->rng, 200));
          BJ_LIT (o, "\",");
        }
    }
  BJ_LIT (o, "\"source\":\"cli\",\"model_provider\":\"openai\",");
  if (x->era >= 1)
    {
      BJ_LIT (o, "\"base_instructions\":{\"text\":");
      bj_gstr (o, get_base_instructions (x));
      BJ_LIT (o, "},");
    }
  if (x->era >= 2)
    {
      char window[37];

      bench_uuid (&x->gen->rng, window);
      BJ_LIT (o, "\"thread_source\":\"user\",\"dynamic_tools\":[],\"memory_mode\":\"enabled\","
                 "\"history_mode\":\"full\",\"context_window\":{\"window_id\":\"");
      g_string_append (o, window);
      BJ_LIT (o, "\"},");
    }
  bench_random_chars (&x->gen->rng, BENCH_HEX, commit, 40);
  BJ_LIT (o, "\"git\":{\"commit_hash\":\"");
  g_string_append (o, commit);
  BJ_LIT (o, "\",\"branch\":");
  bj_str (o, bench_pick_branch (x->gen));
  BJ_LIT (o, ",\"repository_url\":\"git@github.com:acme/");
  g_string_append (o, strrchr (x->cwd, '/') + 1);
  BJ_LIT (o, ".git\"}");
  line_end (x);
}

static void
write_message_item (Codex         *x,
                    const char    *role,
                    const char    *part_type,
                    const GString *text,
                    const char    *phase,
                    gboolean       hazards)
{
  GString *o = line_begin (x, "response_item");

  BJ_LIT (o, "\"type\":\"message\",\"role\":\"");
  g_string_append (o, role);
  BJ_LIT (o, "\",\"content\":[{\"type\":\"");
  g_string_append (o, part_type);
  BJ_LIT (o, "\",\"text\":");
  if (hazards)
    bench_json_text (x->gen, o, text);
  else
    bj_gstr (o, text);
  BJ_LIT (o, "}]");
  if (phase != NULL && x->era >= 1)
    {
      BJ_LIT (o, ",\"phase\":\"");
      g_string_append (o, phase);
      g_string_append_c (o, '"');
    }
  item_ids (x, "msg_");
  line_end (x);
}

static void
write_injected_context (Codex *x)
{
  GString *s = x->gen->scratch;

  g_string_truncate (s, 0);
  g_string_append (s, "<permissions instructions>\nFilesystem sandboxing defines which files can "
                      "be read or written. `sandbox_mode` is `workspace-write`: ");
  bench_text_prose (x->gen, s, 1200);
  g_string_append (s, "\n</permissions instructions>");
  if (x->era >= 1)
    write_message_item (x, "developer", "input_text", s, NULL, FALSE);

  if (bench_rng_chance (&x->gen->rng, 0.5))
    {
      g_string_truncate (s, 0);
      g_string_append_printf (s, "# AGENTS.md instructions for %s\n\n<INSTRUCTIONS>\n", x->cwd);
      bench_text_markdown (x->gen, s, bench_rng_lognormal (&x->gen->rng, 2500, 0.8, 200, 20000));
      g_string_append (s, "\n</INSTRUCTIONS>");
      write_message_item (x, "user", "input_text", s, NULL, FALSE);
    }

  g_string_truncate (s, 0);
  g_string_append_printf (s,
                          "<environment_context>\n  <cwd>%s</cwd>\n  <approval_policy>"
                          "on-request</approval_policy>\n  <sandbox_mode>workspace-write"
                          "</sandbox_mode>\n  <network_access>restricted</network_access>\n"
                          "  <shell>zsh</shell>\n</environment_context>",
                          x->cwd);
  write_message_item (x, "user", "input_text", s, NULL, FALSE);
}

static void
write_turn_context (Codex *x)
{
  GString *o = line_begin (x, "turn_context");
  char     date[25];

  if (x->era >= 1)
    {
      BJ_LIT (o, "\"turn_id\":\"");
      g_string_append (o, x->turn_id);
      BJ_LIT (o, "\",");
    }
  BJ_LIT (o, "\"cwd\":");
  bj_str (o, x->cwd);
  BJ_LIT (o,
          ",\"approval_policy\":\"on-request\",\"sandbox_policy\":{\"type\":\"workspace-write\","
          "\"network_access\":false,\"exclude_tmpdir_env_var\":false,\"exclude_slash_tmp\":false},"
          "\"model\":");
  bj_str (o, x->model);
  BJ_LIT (o, ",\"effort\":\"medium\",\"summary\":\"auto\"");
  if (x->era >= 1)
    BJ_LIT (o, ",\"truncation_policy\":{\"mode\":\"tokens\",\"limit\":10000}");
  if (x->era >= 2)
    {
      bench_format_ts (date, x->now);
      date[10] = '\0';
      BJ_LIT (o, ",\"current_date\":\"");
      g_string_append (o, date);
      BJ_LIT (o, "\",\"timezone\":\"Europe/Berlin\",\"collaboration_mode\":{\"mode\":\"default\","
                 "\"settings\":{\"model\":");
      bj_str (o, x->model);
      BJ_LIT (o, ",\"reasoning_effort\":\"medium\",\"developer_instructions\":null}},"
                 "\"personality\":\"pragmatic\",\"realtime_active\":false");
    }
  line_end (x);
}

static void
write_token_count (Codex *x)
{
  BenchRng *rng = &x->gen->rng;
  gint64    in = bench_rng_range (rng, 3000, 60000);
  gint64    cached = in * bench_rng_range (rng, 50, 95) / 100;
  gint64    out = bench_rng_range (rng, 20, 3000);
  gint64    reasoning = out * bench_rng_range (rng, 0, 80) / 100;
  GString  *o;

  x->total_input += in;
  x->total_cached += cached;
  x->total_output += out;
  x->total_reasoning += reasoning;

  o = line_begin (x, "event_msg");
  if (x->era == 0 && x->total_output == out)
    BJ_LIT (o, "\"type\":\"token_count\",\"info\":null");
  else
    {
      BJ_LIT (o, "\"type\":\"token_count\",\"info\":{\"total_token_usage\":{\"input_tokens\":");
      bj_int (o, x->total_input);
      BJ_LIT (o, ",\"cached_input_tokens\":");
      bj_int (o, x->total_cached);
      BJ_LIT (o, ",\"output_tokens\":");
      bj_int (o, x->total_output);
      BJ_LIT (o, ",\"reasoning_output_tokens\":");
      bj_int (o, x->total_reasoning);
      BJ_LIT (o, ",\"total_tokens\":");
      bj_int (o, x->total_input + x->total_output);
      BJ_LIT (o, "},\"last_token_usage\":{\"input_tokens\":");
      bj_int (o, in);
      BJ_LIT (o, ",\"cached_input_tokens\":");
      bj_int (o, cached);
      BJ_LIT (o, ",\"output_tokens\":");
      bj_int (o, out);
      BJ_LIT (o, ",\"reasoning_output_tokens\":");
      bj_int (o, reasoning);
      BJ_LIT (o, ",\"total_tokens\":");
      bj_int (o, in + out);
      BJ_LIT (o, "},\"model_context_window\":272000}");
    }
  BJ_LIT (o, ",\"rate_limits\":{\"primary\":{\"used_percent\":");
  bj_int (o, bench_rng_range (rng, 0, 100));
  BJ_LIT (o, ".0,\"window_minutes\":300,\"resets_at\":");
  bj_int (o, x->now / 1000 + bench_rng_range (rng, 60, 18000));
  BJ_LIT (o, "},\"secondary\":{\"used_percent\":");
  bj_int (o, bench_rng_range (rng, 0, 100));
  BJ_LIT (o, ".0,\"window_minutes\":10080,\"resets_at\":");
  bj_int (o, x->now / 1000 + bench_rng_range (rng, 3600, 600000));
  BJ_LIT (o, "},\"credits\":null,\"plan_type\":null}");
  line_end (x);
}

static void
write_reasoning (Codex *x)
{
  GString *s = x->gen->scratch;
  GString *o;

  g_string_truncate (s, 0);
  g_string_append (s, "**");
  bench_text_title (x->gen, s);
  g_string_append (s, "**\n\n");
  bench_text_prose (x->gen, s, bench_rng_lognormal (&x->gen->rng, 250, 0.9, 30, 8000));

  o = line_begin (x, "response_item");
  BJ_LIT (o, "\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":");
  bj_gstr (o, s);
  BJ_LIT (o, "}],\"content\":null,\"encrypted_content\":\"gAAAAAB");
  bench_text_base64 (x->gen, o, bench_rng_lognormal (&x->gen->rng, 900, 0.7, 300, 40000));
  g_string_append_c (o, '"');
  item_ids (x, "rs_");
  line_end (x);

  o = line_begin (x, "event_msg");
  BJ_LIT (o, "\"type\":\"agent_reasoning\",\"text\":");
  bj_gstr (o, s);
  line_end (x);
}

static void
write_assistant (Codex      *x,
                 const char *phase,
                 gsize       bytes)
{
  GString *s = x->gen->scratch2;
  GString *o;

  g_string_truncate (s, 0);
  bench_text_markdown (x->gen, s, bytes);
  write_message_item (x, "assistant", "output_text", s, phase, FALSE);
  o = line_begin (x, "event_msg");
  BJ_LIT (o, "\"type\":\"agent_message\",\"message\":");
  bj_gstr (o, s);
  if (x->era >= 1)
    {
      BJ_LIT (o, ",\"phase\":\"");
      g_string_append (o, phase);
      g_string_append_c (o, '"');
    }
  line_end (x);
}

/* A shell command and its output. @big > 0 asks for an output of that size. */
static void
write_exec (Codex *x,
            gsize  big)
{
  BenchGen *gen = x->gen;
  GString  *cmd = gen->scratch, *out = gen->scratch2, *args = gen->inner;
  GString  *o;
  char      call_id[40];
  gint64    exit_code = bench_rng_chance (&gen->rng, 0.08) && big == 0 ? 1 : 0;

  g_string_truncate (cmd, 0);
  g_string_truncate (out, 0);
  g_string_truncate (args, 0);
  bench_text_command (gen, cmd);
  bench_text_shell (gen, out, big > 0 ? big : bench_rng_lognormal (&gen->rng, 300, 1.3, 0, 64000));

  if (x->era == 0)
    {
      BJ_LIT (args, "{\"command\":[\"bash\",\"-lc\",");
      bj_gstr (args, cmd);
      BJ_LIT (args, "],\"workdir\":");
      bj_str (args, x->cwd);
      BJ_LIT (args, ",\"timeout_ms\":120000}");
    }
  else
    {
      BJ_LIT (args, "{\"cmd\":");
      bj_gstr (args, cmd);
      BJ_LIT (args, ",\"workdir\":");
      bj_str (args, x->cwd);
      BJ_LIT (args, ",\"yield_time_ms\":10000,\"max_output_tokens\":6000}");
    }

  o = line_begin (x, "response_item");
  BJ_LIT (o, "\"type\":\"function_call\",\"name\":\"");
  g_string_append (o, x->era == 0 ? "shell" : "exec_command");
  BJ_LIT (o, "\",\"arguments\":");
  bj_gstr (o, args);
  BJ_LIT (o, ",\"call_id\":");
  put_call_id (x, call_id);
  item_ids (x, "fc_");
  line_end (x);
  advance (x, 2000);

  if (x->era >= 1 && big == 0 && bench_rng_chance (&gen->rng, 0.5))
    {
      o = line_begin (x, "event_msg");
      BJ_LIT (o, "\"type\":\"exec_command_end\",\"call_id\":\"");
      g_string_append (o, call_id);
      BJ_LIT (o, "\",\"turn_id\":\"");
      g_string_append (o, x->turn_id);
      BJ_LIT (o, "\",\"command\":[\"bash\",\"-lc\",");
      bj_gstr (o, cmd);
      BJ_LIT (o, "],\"cwd\":");
      bj_str (o, x->cwd);
      BJ_LIT (o, ",\"parsed_cmd\":[{\"type\":\"unknown\",\"cmd\":");
      bj_gstr (o, cmd);
      BJ_LIT (o, "}],\"source\":\"agent\",\"stdout\":\"\",\"stderr\":\"\",\"aggregated_output\":");
      bj_gstr (o, out);
      BJ_LIT (o, ",\"exit_code\":");
      bj_int (o, exit_code);
      BJ_LIT (o, ",\"duration\":{\"secs\":");
      bj_int (o, bench_rng_range (&gen->rng, 0, 40));
      BJ_LIT (o, ",\"nanos\":");
      bj_int (o, bench_rng_range (&gen->rng, 0, 999999999));
      BJ_LIT (o, "}");
      line_end (x);
    }

  /* The output as the model saw it. */
  g_string_truncate (args, 0);
  if (x->era == 0)
    {
      BJ_LIT (args, "{\"output\":");
      bj_gstr (args, out);
      BJ_LIT (args, ",\"metadata\":{\"exit_code\":");
      bj_int (args, exit_code);
      BJ_LIT (args, ",\"duration_seconds\":0.4}}");
    }
  else
    {
      g_string_append_printf (args,
                              "Chunk ID: %06x\nWall time: 0.%04u seconds\nProcess exited with "
                              "code %d\nOriginal token count: %u\nOutput:\n",
                              bench_rng_below (&gen->rng, 0xFFFFFF),
                              bench_rng_below (&gen->rng, 10000), (int)exit_code,
                              (guint)(out->len / 4));
      g_string_append_len (args, out->str, out->len);
    }
  o = line_begin (x, "response_item");
  BJ_LIT (o, "\"type\":\"function_call_output\",\"call_id\":\"");
  g_string_append (o, call_id);
  BJ_LIT (o, "\",\"output\":");
  bj_gstr (o, args);
  line_end (x);
}

static void
write_patch (Codex *x)
{
  BenchGen *gen = x->gen;
  GString  *path = gen->scratch, *patch = gen->scratch2;
  GString  *o;
  char      call_id[40];

  g_string_truncate (path, 0);
  g_string_truncate (patch, 0);
  bench_path (gen, NULL, path);
  g_string_append_printf (patch, "*** Begin Patch\n*** Update File: %s\n", path->str);
  bench_text_diff (gen, patch, path->str, bench_rng_lognormal (&gen->rng, 900, 1.0, 100, 40000));
  g_string_append (patch, "*** End Patch\n");

  o = line_begin (x, "response_item");
  if (x->era == 0)
    {
      g_string_truncate (gen->inner, 0);
      BJ_LIT (gen->inner, "{\"command\":[\"apply_patch\",");
      bj_gstr (gen->inner, patch);
      BJ_LIT (gen->inner, "]}");
      BJ_LIT (o, "\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":");
      bj_gstr (o, gen->inner);
    }
  else
    {
      BJ_LIT (o, "\"type\":\"custom_tool_call\",\"status\":\"completed\",\"name\":\"apply_patch\","
                 "\"input\":");
      bj_gstr (o, patch);
    }
  BJ_LIT (o, ",\"call_id\":");
  put_call_id (x, call_id);
  item_ids (x, "ctc_");
  line_end (x);

  if (x->era >= 1)
    {
      o = line_begin (x, "event_msg");
      BJ_LIT (o, "\"type\":\"patch_apply_end\",\"call_id\":\"");
      g_string_append (o, call_id);
      BJ_LIT (o, "\",\"turn_id\":\"");
      g_string_append (o, x->turn_id);
      BJ_LIT (o, "\",\"stdout\":\"Success. Updated the following files:\\nM ");
      bj_escape (o, path->str, path->len);
      BJ_LIT (o, "\\n\",\"stderr\":\"\",\"success\":true,\"changes\":{");
      g_string_append_c (o, '"');
      bj_escape (o, x->cwd, strlen (x->cwd));
      g_string_append_c (o, '/');
      bj_escape (o, path->str, path->len);
      BJ_LIT (o, "\":{\"update\":{\"unified_diff\":");
      bj_gstr (o, patch);
      BJ_LIT (o, ",\"move_path\":null}}}");
      line_end (x);
    }

  o = line_begin (x, "response_item");
  BJ_LIT (o, "\"type\":\"");
  g_string_append (o, x->era == 0 ? "function_call_output" : "custom_tool_call_output");
  BJ_LIT (o, "\",\"call_id\":\"");
  g_string_append (o, call_id);
  BJ_LIT (o, "\",\"output\":\"{\\\"output\\\":\\\"Success. Updated the following files:\\\\nM ");
  bj_escape (o, path->str, path->len);
  BJ_LIT (o, "\\\\n\\\",\\\"metadata\\\":{\\\"exit_code\\\":0,\\\"duration_seconds\\\":0.0}}\"");
  line_end (x);
}

static void
write_plan (Codex *x)
{
  GString *args = x->gen->inner;
  GString *o;
  char     call_id[40];

  g_string_truncate (args, 0);
  BJ_LIT (args, "{\"plan\":[");
  for (guint i = 0, n = 2 + bench_rng_below (&x->gen->rng, 5); i < n; i++)
    {
      if (i > 0)
        g_string_append_c (args, ',');
      BJ_LIT (args, "{\"step\":\"");
      bench_text_words (x->gen, args, 3 + bench_rng_below (&x->gen->rng, 6));
      BJ_LIT (args, "\",\"status\":\"");
      g_string_append (args, i == 0 ? "in_progress" : "pending");
      BJ_LIT (args, "\"}");
    }
  BJ_LIT (args, "]}");

  o = line_begin (x, "response_item");
  BJ_LIT (o, "\"type\":\"function_call\",\"name\":\"update_plan\",\"arguments\":");
  bj_gstr (o, args);
  BJ_LIT (o, ",\"call_id\":");
  put_call_id (x, call_id);
  item_ids (x, "fc_");
  line_end (x);
  o = line_begin (x, "response_item");
  BJ_LIT (o, "\"type\":\"function_call_output\",\"call_id\":\"");
  g_string_append (o, call_id);
  BJ_LIT (o, "\",\"output\":\"Plan updated\"");
  line_end (x);
}

static void
write_web_search (Codex *x)
{
  GString *q = x->gen->scratch;
  GString *o;

  g_string_truncate (q, 0);
  bench_text_words (x->gen, q, 3 + bench_rng_below (&x->gen->rng, 5));
  o = line_begin (x, "response_item");
  BJ_LIT (o,
          "\"type\":\"web_search_call\",\"status\":\"completed\",\"action\":{\"type\":\"search\","
          "\"query\":");
  bj_gstr (o, q);
  g_string_append_c (o, '}');
  item_ids (x, "ws_");
  line_end (x);
  o = line_begin (x, "event_msg");
  BJ_LIT (o, "\"type\":\"web_search_end\",\"call_id\":\"");
  put_call_id_text (x, o);
  BJ_LIT (o, ",\"query\":");
  bj_gstr (o, q);
  line_end (x);
}

static void
write_prompt (Codex *x,
              gsize  big_image)
{
  BenchGen *gen = x->gen;
  GString  *s = gen->scratch;
  GString  *o;

  g_string_truncate (s, 0);
  bench_text_prompt (gen, s, bench_rng_lognormal (&gen->rng, 200, 1.2, 8, 30000));
  if (big_image == 0)
    write_message_item (x, "user", "input_text", s, NULL, TRUE);
  else
    {
      /* A pasted screenshot: the data URL is in the item and again in the event. */
      o = line_begin (x, "response_item");
      BJ_LIT (o, "\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
                 "\"text\":");
      bj_gstr (o, s);
      BJ_LIT (o, "},{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,");
      g_string_truncate (gen->inner, 0);
      bench_text_base64 (gen, gen->inner, big_image);
      g_string_append_len (o, gen->inner->str, gen->inner->len);
      BJ_LIT (o, "\"}]");
      item_ids (x, "msg_");
      line_end (x);
    }

  o = line_begin (x, "event_msg");
  BJ_LIT (o, "\"type\":\"user_message\",\"message\":");
  bj_gstr (o, s);
  BJ_LIT (o, ",\"images\":[");
  if (big_image > 0)
    {
      BJ_LIT (o, "\"data:image/png;base64,");
      g_string_append_len (o, gen->inner->str, gen->inner->len);
      g_string_append_c (o, '"');
      gen->totals.big_lines++;
    }
  g_string_append_c (o, ']');
  if (x->era >= 1)
    BJ_LIT (o, ",\"local_images\":[],\"text_elements\":[]");
  line_end (x);
}

static void
write_compacted (Codex *x)
{
  GString *s = x->gen->scratch;
  GString *o;

  g_string_truncate (s, 0);
  bench_text_markdown (x->gen, s, bench_rng_lognormal (&x->gen->rng, 3000, 0.6, 400, 20000));
  o = line_begin (x, "compacted");
  BJ_LIT (o, "\"message\":\"\",\"replacement_history\":[{\"type\":\"message\",\"role\":\"user\","
             "\"content\":[{\"type\":\"input_text\",\"text\":");
  bj_gstr (o, s);
  BJ_LIT (o, "}]}],\"window_number\":2");
  line_end (x);
  o = line_begin (x, "event_msg");
  BJ_LIT (o, "\"type\":\"context_compacted\"");
  line_end (x);
}

static void
turn (Codex *x)
{
  BenchGen *gen = x->gen;
  BenchRng *rng = &gen->rng;
  gsize     big = 0;
  gboolean  big_image = FALSE;
  guint     steps;
  GString  *o;

  advance (x, 60000);
  bench_uuid7 (rng, x->now, x->turn_id);
  if (gen->pending_big > 0 && (gen->session_bytes + x->file->buf->len >= gen->session->budget ||
                               bench_rng_chance (rng, 0.2)))
    {
      gen->pending_big--;
      gen->totals.big_lines++;
      big = bench_big_line_size (gen);
      big_image = bench_rng_chance (rng, 0.3);
    }

  if (x->era >= 1)
    {
      o = line_begin (x, "event_msg");
      BJ_LIT (o, "\"type\":\"task_started\",\"turn_id\":\"");
      g_string_append (o, x->turn_id);
      BJ_LIT (o, "\",\"model_context_window\":272000,\"started_at\":");
      bj_int (o, x->now / 1000);
      line_end (x);
    }
  write_turn_context (x);
  write_prompt (x, big_image ? big - 2000 : 0);

  if (big == 0 && bench_rng_chance (rng, 0.02))
    {
      o = line_begin (x, "event_msg");
      BJ_LIT (o, "\"type\":\"turn_aborted\",\"turn_id\":\"");
      g_string_append (o, x->turn_id);
      BJ_LIT (o, "\",\"reason\":\"interrupted\",\"duration_ms\":");
      bj_int (o, bench_rng_range (rng, 500, 60000));
      line_end (x);
      return;
    }

  steps = (guint)bench_rng_lognormal (rng, 3, 1.0, 0, 80);
  for (guint i = 0; i < steps; i++)
    {
      guint32 r = bench_rng_below (rng, 100);

      if (i > 0 && gen->session_bytes + x->file->buf->len >= gen->session->budget &&
          bench_rng_chance (rng, 0.5))
        break;
      if (bench_rng_chance (rng, 0.7))
        write_reasoning (x);
      if (bench_rng_chance (rng, 0.25))
        write_assistant (x, "commentary", bench_rng_lognormal (rng, 150, 0.8, 20, 3000));
      if (big > 0 && !big_image)
        {
          write_exec (x, big);
          big = 0;
        }
      else if (r < 62)
        write_exec (x, 0);
      else if (r < 84)
        write_patch (x);
      else if (r < 94)
        write_plan (x);
      else
        write_web_search (x);
      write_token_count (x);
    }
  if (big > 0 && !big_image)
    {
      gen->pending_big++; /* no tool call this turn: the long output comes later */
      gen->totals.big_lines--;
    }

  if (bench_rng_chance (rng, 0.6))
    write_reasoning (x);
  write_assistant (x, "final_answer", bench_rng_lognormal (rng, 500, 1.0, 20, 20000));
  write_token_count (x);
  if (x->era >= 1)
    {
      o = line_begin (x, "event_msg");
      BJ_LIT (o, "\"type\":\"task_complete\",\"turn_id\":\"");
      g_string_append (o, x->turn_id);
      BJ_LIT (o, "\",\"last_agent_message\":");
      bj_gstr (o, gen->scratch2);
      line_end (x);
    }

  if (x->total_input > 2000000 && bench_rng_chance (rng, 0.05))
    write_compacted (x);
}

void
bench_codex_session (BenchGen *gen)
{
  BenchRng *rng = &gen->rng;
  Codex     x = { 0 };
  g_autoptr (GString) rel = g_string_new (NULL);
  gboolean resumed = bench_rng_chance (rng, 0.1);
  int      y, mo, d, h, mi, s;
  guint    turns = 0;

  x.gen = gen;
  x.now = gen->session->start_ms;
  bench_civil (x.now, &y, &mo, &d, &h, &mi, &s);
  if (y == 2025 && mo < 11)
    x.era = 0;
  else if (y == 2025 || mo < 5)
    x.era = 1;
  else
    x.era = 2;
  x.version = versions[x.era][bench_rng_below (rng, 3)];
  x.model = models[x.era][bench_rng_below (rng, 3)];
  x.cwd = bench_pick_cwd (gen);
  bench_uuid7 (rng, x.now, x.id);

  g_string_append_printf (rel,
                          "codex/sessions/%04d/%02d/%02d/rollout-%04d-%02d-%02dT%02d-%02d-%02d-%s"
                          ".jsonl",
                          y, mo, d, y, mo, d, h, mi, s, x.id);
  x.file = bench_file_open (gen, BENCH_SOURCE_CODEX, rel->str, TRUE);
  gen->totals.by_source[BENCH_SOURCE_CODEX].sessions++;

  write_session_meta (&x);
  if (x.era >= 2)
    {
      GString *o = line_begin (&x, "world_state");

      BJ_LIT (o, "\"full\":true,\"state\":{\"agents_md\":{\"directory\":");
      bj_str (o, x.cwd);
      BJ_LIT (o, ",\"text\":\"");
      bench_text_words (gen, o, 40 + bench_rng_below (rng, 300));
      BJ_LIT (o, "\"},\"environments\":[],\"model\":");
      bj_str (o, x.model);
      BJ_LIT (o, ",\"permissions\":{\"approval_policy\":\"on-request\",\"sandbox\":"
                 "\"workspace-write\"}}");
      line_end (&x);
    }
  write_injected_context (&x);

  do
    {
      turn (&x);
      turns++;
      if (resumed && turns == 2)
        {
          /* Resumed later: the session_meta is written again with the same id. */
          x.now += bench_rng_range (rng, 3600 * 1000, 3 * 86400 * 1000);
          write_session_meta (&x);
          write_injected_context (&x);
        }
    }
  while (gen->session_bytes + x.file->buf->len < gen->session->budget || gen->pending_big > 0);

  bench_file_finish_jsonl (gen, x.file);
}
