/* test-export-compact.c — compact packages: a text for a language model under a token budget.
 *
 * Every fixture of every agent is exported compact, at the default budget and at a small one:
 * the conversation is within the budget by the documented estimate (checked here by a separate
 * count of the bytes), its header holds the session's figures, the package has no
 * session.jsonl and no sub-agents' packages, and the same session gives the same bytes. A
 * synthetic Claude Code session of 300 turns, with outputs of 2,000 lines, an output repeated
 * a hundred times and a GitHub token in an output, shows the head and tail of each output with
 * the exact count of lines left out, the repeated output once, the first prompt and the last
 * reply, and no token; the manifest counts the placeholders the files hold.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-export-artifacts.h"
#include "loom-export.h"
#include "loom-package-import.h"
#include "loom-store-timeline-pages.h"
#include "loom-test-utils.h"

#define SESSION_ID "7c1e9a40-2b5d-4f63-8e17-93a0c4d5b6e2"
#define N_TURNS    300
#define BIG_LINES  2000
#define SAME_LINES 50
/* A token of GitHub's published format: ghp_ and 36 characters. */
#define SECRET     "ghp_Q7wE2rT9yU4iO1pA6sD3fG8hJ5kL0zX2cV4b"
#define SMALL      2000
/* A reply every tenth turn repeats, word for word. */
#define REPEATED_REPLY \
  "The check ran again and its results are exactly the same as the last time it ran."

typedef struct
{
  LoomTestStore base;
  char         *dest;
  char         *root;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  loom_test_store_set_up (&f->base, data);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
  f->root = loom_test_make_tmpdir ();
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  loom_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->dest);
  loom_test_store_tear_down (&f->base, data);
}

/* The documented estimate, counted apart from the code under test: ASCII bytes / 4 rounded up,
 * and one token for every other character. */
static guint
reference_tokens (const char *text)
{
  guint64 ascii = 0, other = 0;

  for (const guchar *p = (const guchar *)text; *p != '\0'; p++)
    {
      if (*p < 0x80)
        ascii++;
      else if ((*p & 0xc0) != 0x80)
        other++;
    }
  return (guint)((ascii + 3) / 4 + other);
}

static char *
read_text (const char *package,
           const char *name)
{
  g_autofree char *path = g_build_filename (package, name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static JsonObject *
read_manifest (const char *package)
{
  g_autofree char *path = g_build_filename (package, "manifest.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static guint
count_occurrences (const char *text,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

static LoomExportResult *
export_compact (Fixture    *f,
                const char *uuid,
                guint       budget)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;

  options.mode = LOOM_EXPORT_MODE_COMPACT;
  options.budget = budget;
  return loom_test_export_ok (f->base.store, uuid, f->dest, &options);
}

/* What every compact package holds; returns its conversation. */
static char *
assert_compact_package (Fixture     *f,
                        LoomSession *session,
                        const char  *package,
                        guint        budget)
{
  const LoomSessionRecord *r = loom_session_get_record (session);
  g_autofree char         *text = read_text (package, "conversation.md");
  g_autofree char         *session_line = g_strdup_printf ("\n- Session: %s\n", r->uuid);
  g_autofree char         *tokens_line = NULL;
  g_autofree char         *session_data = g_build_filename (package, "session.jsonl", NULL);
  g_autofree char         *page = g_build_filename (package, "conversation.html", NULL);
  g_autofree char         *subagents = g_build_filename (package, "subagents", NULL);
  g_autofree char         *metadata = g_build_filename (package, "metadata.json", NULL);
  g_autoptr (JsonObject) manifest = read_manifest (package);
  g_autoptr (GPtrArray) touched = NULL;
  g_autoptr (GError) error = NULL;
  guint tokens = reference_tokens (text);

  g_test_message ("%s at %u: %u tokens", r->uuid, budget, tokens);
  g_assert_cmpuint (tokens, <=, budget);
  g_assert_cmpuint (loom_export_estimate_tokens (text, -1), ==, tokens);
  g_assert_cmpstr (json_object_get_string_member (manifest, "mode"), ==, "compact");
  g_assert_cmpint (json_object_get_int_member (manifest, "budget"), ==, budget);
  g_assert_cmpint (json_object_get_int_member (manifest, "estimated_tokens"), ==, tokens);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (manifest, "redactions")));

  /* The header: title, the session, the figures of the estimate, the objective and outcome
   * when the session has a prompt and a reply, the files it touched. */
  g_assert_true (g_str_has_prefix (text, "# "));
  g_assert_nonnull (strstr (text, session_line));
  tokens_line = g_strdup_printf ("\n- Tokens: about %u of a budget of %u (", tokens, budget);
  g_assert_nonnull (strstr (text, tokens_line));
  g_assert_nonnull (strstr (text, "\n---\n"));
  if (r->n_user_messages > 0 || r->task_objective != NULL)
    g_assert_nonnull (strstr (text, "\n- Objective: "));
  if (r->n_assistant_messages > 0)
    g_assert_nonnull (strstr (text, "\n- Outcome: "));
  touched = loom_export_list_touched_paths (f->base.store, r->uuid, r->cwd, &error);
  g_assert_no_error (error);
  if (touched->len > 0)
    {
      g_autofree char *files = g_strdup_printf ("\n- Files touched (%u", touched->len);

      g_assert_nonnull (strstr (text, files));
    }

  /* No rows to import back, no sub-agents' packages; the rest as usual. */
  g_assert_false (g_file_test (session_data, G_FILE_TEST_EXISTS));
  /* A text for a model has no page for a person beside it. */
  g_assert_false (g_file_test (page, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (subagents, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (metadata, G_FILE_TEST_IS_REGULAR));
  return g_steal_pointer (&text);
}

static void
test_estimate (void)
{
  g_assert_cmpuint (loom_export_estimate_tokens ("", -1), ==, 0);
  g_assert_cmpuint (loom_export_estimate_tokens ("abcd", -1), ==, 1);
  g_assert_cmpuint (loom_export_estimate_tokens ("abcde", -1), ==, 2);
  g_assert_cmpuint (loom_export_estimate_tokens ("abcde", 4), ==, 1);
  g_assert_cmpuint (loom_export_estimate_tokens ("日本語", -1), ==, 3);
  g_assert_cmpuint (loom_export_estimate_tokens ("é", -1), ==, 1);
  g_assert_cmpuint (loom_export_estimate_tokens ("a日b", -1), ==, 2);
  g_assert_cmpuint (loom_export_estimate_tokens ("🎉 done", -1), ==, 3);
}

static void
test_fixtures (Fixture      *f,
               gconstpointer data)
{
  g_autofree char *claude = loom_test_fixture_path ("claude", NULL);
  g_autofree char *codex = loom_test_fixture_path ("codex", NULL);
  g_autofree char *gemini = loom_test_fixture_path ("gemini", NULL);
  const char      *paths[] = { claude, codex, gemini, NULL };
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  guint n, n_linked = 0;

  loom_test_store_import_paths (&f->base, NULL, paths);
  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (f->base.store, &query, &error);
  g_assert_no_error (error);
  n = g_list_model_get_n_items (sessions);
  g_assert_cmpuint (n, >, 10);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      const char *uuid = loom_session_get_uuid (session);
      g_autoptr (LoomExportResult) standard = export_compact (f, uuid, 0);
      g_autoptr (LoomExportResult) again = export_compact (f, uuid, 0);
      g_autoptr (LoomExportResult) small = export_compact (f, uuid, SMALL);
      g_autofree char *text = assert_compact_package (f, session, standard->path,
                                                      LOOM_EXPORT_DEFAULT_BUDGET);
      g_autofree char *same = read_text (again->path, "conversation.md");
      g_autofree char *small_text = assert_compact_package (f, session, small->path, SMALL);

      /* Each sub-agent that a full package links where it was started is one line here,
       * naming its session: its package is not in a compact one. */
      {
        g_autoptr (LoomExportResult)
          full = loom_test_export_ok (f->base.store, uuid, f->dest, NULL);
        g_autofree char *full_text = read_text (full->path, "conversation.md");
        g_autoptr (GListModel)
          children = loom_store_list_child_sessions (f->base.store, uuid, &error);

        g_assert_no_error (error);
        for (guint k = 0; k < g_list_model_get_n_items (children); k++)
          {
            g_autoptr (LoomSession) child = g_list_model_get_item (children, k);
            const char      *child_uuid = loom_session_get_uuid (child);
            g_autofree char *linked = g_strdup_printf ("Session %s: [its conversation]",
                                                       child_uuid);
            g_autofree char *named = g_strdup_printf ("(session %.8s)\n", child_uuid);
            /* Named by its session's title (its start: a long one is cut on the line). */
            g_autofree char *titled = g_utf8_substring (loom_session_get_title (child), 0, 20);

            if (strstr (full_text, linked) == NULL)
              continue;
            g_assert_nonnull (strstr (text, " Sub-agent"));
            g_assert_nonnull (strstr (text, named));
            g_assert_nonnull (strstr (text, titled));
            n_linked++;
          }
      }
      /* Deterministic: the same session gives the same bytes. */
      g_assert_cmpstr (text, ==, same);
      /* Reasoning is not in a compact text. */
      g_assert_null (strstr (text, "## Reasoning"));
      g_assert_cmpuint (standard->n_subagents, ==, 0);
    }
  /* The fixtures start sub-agents, Claude Code's and Codex's. */
  g_assert_cmpuint (n_linked, >=, 2);
}

/* The synthetic session */

static char *
json_quote (const char *text)
{
  g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), text);

  return json_to_string (node, FALSE);
}

static void
add_record (GString    *out,
            const char *type,
            guint       n,
            const char *cwd,
            const char *message)
{
  g_autofree char *cwd_json = json_quote (cwd);
  g_autofree char *parent = n > 1 ? g_strdup_printf ("\"u%05u\"", n - 1) : g_strdup ("null");

  g_string_append_printf (out,
                          "{\"type\":\"%s\",\"uuid\":\"u%05u\",\"parentUuid\":%s,"
                          "\"sessionId\":\"%s\",\"cwd\":%s,"
                          "\"timestamp\":\"2026-05-01T%02u:%02u:%02u.000Z\",\"message\":%s}\n",
                          type, n, parent, SESSION_ID, cwd_json, n / 3600, (n / 60) % 60, n % 60,
                          message);
}

/* The output of turn @turn's call: 2,000 numbered lines every third turn (the sixth holds the
 * token), the same 50 lines the turn after, a line the turn after that. */
static char *
call_output (guint turn)
{
  GString *out = g_string_new (NULL);

  switch (turn % 3)
    {
    case 0:
      for (guint line = 1; line <= BIG_LINES; line++)
        g_string_append_printf (out, "turn %03u line %04u of %u%s\n", turn, line, BIG_LINES,
                                turn == 6 && (line == 1 || line == 1000) ? " GITHUB_TOKEN=" SECRET
                                                                         : "");
      break;
    case 1:
      for (guint line = 1; line <= SAME_LINES; line++)
        g_string_append_printf (out, "same line %04u of %u of the repeated output\n", line,
                                SAME_LINES);
      break;
    default:
      g_string_append_printf (out, "ok %u\n", turn);
      break;
    }
  return g_string_free (out, FALSE);
}

static char *
import_large_session (Fixture *f)
{
  g_autofree char *transcript = g_build_filename (f->root, "transcript.jsonl", NULL);
  g_autofree char *workspace = g_build_filename (f->root, "workspace", NULL);
  g_autoptr (GString) lines = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSession) session = NULL;
  guint n = 1;

  for (guint turn = 0; turn < N_TURNS; turn++)
    {
      g_autofree char *prompt_text =
        turn == 0 ? g_strdup ("FIRST-PROMPT: run every check of the tide report")
                  : g_strdup_printf ("Turn %03u: run check %u next", turn, turn);
      g_autofree char *reply_text = turn == N_TURNS - 1
                                      ? g_strdup ("LAST-REPLY: every check passes now.")
                                    : turn % 10 == 0
                                      ? g_strdup (REPEATED_REPLY)
                                      : g_strdup_printf ("Reply %03u: check %u ran.", turn, turn);
      g_autofree char *output = call_output (turn);
      g_autofree char *prompt_json = json_quote (prompt_text);
      g_autofree char *reply_json = json_quote (reply_text);
      g_autofree char *output_json = json_quote (output);
      g_autofree char *prompt = g_strdup_printf ("{\"role\":\"user\",\"content\":%s}", prompt_json);
      g_autofree char *call = g_strdup_printf (
        "{\"id\":\"msg_c%u\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
        "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_%u\",\"name\":\"Bash\","
        "\"input\":{\"command\":\"run-check %u\"}}]}",
        turn, turn, turn);
      g_autofree char *result = g_strdup_printf (
        "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_%u\","
        "\"content\":%s}]}",
        turn, output_json);
      g_autofree char *reply = g_strdup_printf (
        "{\"id\":\"msg_r%u\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
        "\"content\":[{\"type\":\"text\",\"text\":%s}]}",
        turn, reply_json);

      add_record (lines, "user", n++, workspace, prompt);
      add_record (lines, "assistant", n++, workspace, call);
      add_record (lines, "user", n++, workspace, result);
      add_record (lines, "assistant", n++, workspace, reply);
    }
  g_file_set_contents (transcript, lines->str, (gssize)lines->len, &error);
  g_assert_no_error (error);
  loom_test_store_import_path (&f->base, "claude-code", transcript);
  session = loom_test_find_session (f->base.store, SESSION_ID);
  g_assert_nonnull (session);
  return g_strdup (loom_session_get_uuid (session));
}

/* Every bounded output of the text is its first lines, the count of those left out and its
 * last lines, which add up to the whole; returns how many outputs were bounded. */
static guint
assert_heads_and_tails (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_bounded = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint left_out, head = 0, tail = 0, index, total = 0, expected;
      guint turn;
      char  word[8];

      if (sscanf (lines[i], "[… %u lines left out …]", &left_out) != 1)
        continue;
      /* The head: consecutive lines from the first up to the count. A count on its own, with
       * no fence around it (the tightest bound), shows no lines. */
      for (guint k = i; k > 0 && !g_str_has_prefix (lines[k - 1], "```"); k--)
        {
          if (*lines[k - 1] == '\0' || *lines[k - 1] == '#')
            {
              head = G_MAXUINT;
              break;
            }
          head++;
        }
      if (head == G_MAXUINT)
        continue;
      for (guint k = 0; k < head; k++)
        {
          const char *line = lines[i - head + k];

          if (sscanf (line, "turn %u line %u of %u", &turn, &index, &total) != 3 &&
              sscanf (line, "%5s line %u of %u", word, &index, &total) != 3)
            g_error ("not an output line: %s", line);
          g_assert_cmpuint (index, ==, k + 1);
        }
      /* The tail: consecutive lines down to the last. */
      for (guint k = i + 1; lines[k] != NULL && !g_str_has_prefix (lines[k], "```"); k++)
        tail++;
      g_assert_cmpuint (head, >, 0);
      g_assert_cmpuint (tail, >, 0);
      expected = total - tail + 1;
      for (guint k = 0; k < tail; k++)
        {
          const char *line = lines[i + 1 + k];

          if (sscanf (line, "turn %u line %u of %u", &turn, &index, &total) != 3 &&
              sscanf (line, "%5s line %u of %u", word, &index, &total) != 3)
            g_error ("not an output line: %s", line);
          g_assert_cmpuint (index, ==, expected + k);
        }
      g_assert_cmpuint (head + left_out + tail, ==, total);
      n_bounded++;
    }
  return n_bounded;
}

static void
assert_large_package (Fixture    *f,
                      const char *uuid,
                      const char *package,
                      guint       budget)
{
  g_autoptr (LoomSession) session = loom_store_get_session (f->base.store, uuid, NULL);
  g_autofree char *text = assert_compact_package (f, session, package, budget);
  g_autofree char *metadata = read_text (package, "metadata.json");
  g_autofree char *manifest_text = read_text (package, "manifest.json");
  g_autoptr (JsonObject) manifest = read_manifest (package);
  JsonObject *redactions = json_object_get_object_member (manifest, "redactions");
  const char *body = strstr (text, "\n---\n");
  guint       placeholders;

  /* No secret in any file; the manifest counts what was replaced in the texts the files
   * show, the lines left out of a bounded output included (detection runs before any cut):
   * turn 6's output holds the token twice, and the second is in its middle. */
  g_assert_null (strstr (text, SECRET));
  g_assert_null (strstr (metadata, SECRET));
  g_assert_null (strstr (manifest_text, SECRET));
  placeholders = count_occurrences (text, "[REDACTED:github-token-") +
                 count_occurrences (metadata, "[REDACTED:github-token-");
  if (placeholders > 0)
    g_assert_cmpint (json_object_get_int_member (redactions, "total"), ==, 2);
  else
    g_assert_cmpint (json_object_get_int_member (redactions, "total"), ==, 0);

  /* The first prompt, in the conversation and not only in the header, and the last reply. */
  g_assert_nonnull (strstr (body, "## User\n\nFIRST-PROMPT: run every check"));
  g_assert_nonnull (strstr (body, "## Assistant\n\nLAST-REPLY: every check passes now."));
  g_assert_nonnull (strstr (text, "\n- Objective: FIRST-PROMPT: run every check"));
  g_assert_nonnull (strstr (text, "\n- Outcome: the last reply: LAST-REPLY"));

  /* The repeated output once at most, then references to where it was. */
  g_assert_cmpuint (count_occurrences (text, "same line 0001 of 50 of the repeated output"), <=, 1);
  g_assert_cmpuint (count_occurrences (text, REPEATED_REPLY), <=, 1);
  g_test_message ("%u bounded outputs", assert_heads_and_tails (text));
}

static void
test_large_session (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *uuid = import_large_session (f);
  g_autoptr (LoomExportResult) standard = export_compact (f, uuid, 0);
  g_autoptr (LoomExportResult) small = export_compact (f, uuid, SMALL);
  g_autoptr (LoomExportResult) least = export_compact (f, uuid, LOOM_EXPORT_MIN_BUDGET);
  g_autofree char *text = NULL;
  g_autofree char *small_text = NULL;

  assert_large_package (f, uuid, standard->path, LOOM_EXPORT_DEFAULT_BUDGET);
  assert_large_package (f, uuid, small->path, SMALL);
  assert_large_package (f, uuid, least->path, LOOM_EXPORT_MIN_BUDGET);

  /* At the default budget every turn is there: each big output bounded, with the token that
   * one of them holds shown replaced, and the repeated output shown once. */
  text = read_text (standard->path, "conversation.md");
  g_assert_cmpuint (assert_heads_and_tails (text), >=, N_TURNS / 3);
  g_assert_null (strstr (text, "left out to fit the budget"));
  g_assert_nonnull (strstr (text, "Turn 150: run check 150 next"));
  g_assert_nonnull (strstr (text, "GITHUB_TOKEN=[REDACTED:github-token-1]"));
  g_assert_cmpuint (count_occurrences (text, "same line 0001 of 50 of the repeated output"), ==, 1);
  g_assert_cmpuint (count_occurrences (text, "[same output as call #2]"), ==, N_TURNS / 3 - 1);
  g_assert_cmpuint (standard->n_redactions, >=, 1);
  g_assert_cmpuint (count_occurrences (text, REPEATED_REPLY), ==, 1);
  g_assert_cmpuint (count_occurrences (text, "## Assistant\n\n[same text as an earlier message]"),
                    ==, N_TURNS / 10 - 1);

  /* At detail "messages", prompts and replies only. */
  {
    LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
    g_autoptr (LoomExportResult) messages = NULL;
    g_autofree char *messages_text = NULL;

    options.mode = LOOM_EXPORT_MODE_COMPACT;
    options.detail = LOOM_EXPORT_DETAIL_MESSAGES;
    messages = loom_test_export_ok (f->base.store, uuid, f->dest, &options);
    messages_text = read_text (messages->path, "conversation.md");
    g_assert_cmpuint (reference_tokens (messages_text), <=, LOOM_EXPORT_DEFAULT_BUDGET);
    g_assert_null (strstr (messages_text, "#1 Bash"));
    g_assert_null (strstr (messages_text, "line 0001 of"));
    g_assert_nonnull (strstr (messages_text, "Turn 150: run check 150 next"));
  }

  /* At 2,000 tokens the middle of the session goes, said in one line. */
  small_text = read_text (small->path, "conversation.md");
  g_assert_nonnull (strstr (small_text, "left out to fit the budget …]"));
  g_assert_null (strstr (small_text, "Turn 150: run check 150 next"));
}

static void
test_budget_bounds (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->base.store, "Bounds - 2026-11-29", "codex",
                                                 "budget", 4, 2, 1000);
  const guint refused[] = { 1, LOOM_EXPORT_MIN_BUDGET - 1, LOOM_EXPORT_MAX_BUDGET + 1, G_MAXUINT };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
      g_autoptr (GError) error = NULL;
      g_autofree char *listing = NULL;

      options.mode = LOOM_EXPORT_MODE_COMPACT;
      options.budget = refused[i];
      g_assert_false (
        loom_export_session (f->base.store, uuid, f->dest, &options, NULL, NULL, &error));
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "budget"));
      listing = loom_test_list_tree (f->dest, FALSE);
      g_assert_cmpstr (listing, ==, "");
    }

  /* The bounds themselves are accepted. */
  {
    g_autoptr (LoomExportResult) least = export_compact (f, uuid, LOOM_EXPORT_MIN_BUDGET);
    g_autoptr (LoomExportResult) most = export_compact (f, uuid, LOOM_EXPORT_MAX_BUDGET);
    g_autoptr (JsonObject) manifest = read_manifest (most->path);

    g_assert_cmpint (json_object_get_int_member (manifest, "budget"), ==, LOOM_EXPORT_MAX_BUDGET);

    /* A compact package is a text, not a copy of the session: it does not import back. */
    {
      g_autoptr (GError) error = NULL;
      gint64 before = loom_test_count_rows (f->base.db, "sessions");

      g_assert_false (loom_import_package (f->base.store, least->path, NULL, NULL, &error));
      g_assert_nonnull (error);
      g_assert_cmpint (loom_test_count_rows (f->base.db, "sessions"), ==, before);
    }
  }
}

/* A full package says nothing of a budget. */
static void
test_full_has_no_budget (Fixture      *f,
                         gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->base.store, "Full - 2026-11-29", "codex",
                                                 "budget", 4, 2, 1000);
  g_autoptr (LoomExportResult) result = loom_test_export_ok (f->base.store, uuid, f->dest, NULL);
  g_autoptr (JsonObject) manifest = read_manifest (result->path);

  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (manifest, "budget")));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (manifest, "estimated_tokens")));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  g_test_add_func ("/export-compact/estimate", test_estimate);
  ADD ("/export-compact/fixtures", test_fixtures);
  ADD ("/export-compact/large-session", test_large_session);
  ADD ("/export-compact/budget-bounds", test_budget_bounds);
  ADD ("/export-compact/full-has-no-budget", test_full_has_no_budget);
#undef ADD
  return g_test_run ();
}
