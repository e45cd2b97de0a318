/* bench-text.c — the text of the corpus: prompts, answers, code, shell output, diffs, paths.
 *
 * Words come from a vocabulary of the way people and agents talk about code; code and shell
 * lines come from templates in which '@' becomes an identifier and '#' a number. A few percent
 * of sentences are CJK, Korean, Spanish or carry emoji and a literal U+FFFD, as real sessions do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "bench-gen.h"

static const char *const words[] = {
  "the",      "the",       "the",       "a",          "a",         "to",        "to",
  "of",       "of",        "and",       "and",        "in",        "in",        "is",
  "it",       "that",      "this",      "for",        "on",        "with",      "we",
  "we",       "can",       "should",    "will",       "not",       "be",        "are",
  "from",     "when",      "then",      "so",         "but",       "if",        "now",
  "also",     "only",      "still",     "again",      "first",     "function",  "file",
  "files",    "test",      "tests",     "error",      "errors",    "build",     "import",
  "module",   "class",     "method",    "value",      "values",    "return",    "string",
  "list",     "array",     "object",    "field",      "type",      "types",     "schema",
  "table",    "query",     "index",     "cache",      "config",    "option",    "flag",
  "request",  "response",  "handler",   "server",     "client",    "session",   "user",
  "token",    "parser",    "record",    "records",    "line",      "lines",     "buffer",
  "stream",   "thread",    "lock",      "queue",      "event",     "callback",  "signal",
  "widget",   "window",    "view",      "model",      "store",     "path",      "folder",
  "branch",   "commit",    "change",    "changes",    "diff",      "patch",     "fix",
  "bug",      "issue",     "warning",   "crash",      "memory",    "leak",      "performance",
  "latency",  "timeout",   "retry",     "loop",       "iteration", "step",      "check",
  "verify",   "update",    "add",       "remove",     "rename",    "refactor",  "move",
  "extract",  "split",     "run",       "runs",       "running",   "read",      "write",
  "open",     "close",     "parse",     "load",       "save",      "create",    "delete",
  "handle",   "call",      "calls",     "pass",       "passes",    "fail",      "fails",
  "failing",  "works",     "look",      "looks",      "see",       "need",      "needs",
  "want",     "let",       "me",        "I",          "I'll",      "let's",     "there",
  "which",    "where",     "what",      "why",        "how",       "because",   "since",
  "instead",  "without",   "before",    "after",      "inside",    "outside",   "between",
  "every",    "each",      "all",       "some",       "none",      "one",       "two",
  "three",    "new",       "old",       "existing",   "current",   "previous",  "next",
  "last",     "empty",     "null",      "missing",    "wrong",     "right",     "correct",
  "simple",   "small",     "large",     "huge",       "fast",      "slow",      "async",
  "sync",     "local",     "remote",    "default",    "custom",    "public",    "private",
  "internal", "migration", "database",  "endpoint",   "route",     "component", "hook",
  "state",    "props",     "render",    "dependency", "package",   "version",   "release",
  "deploy",   "pipeline",  "workflow",  "script",     "command",   "output",    "input",
  "argument", "parameter", "result",    "exception",  "panic",     "trace",     "stack",
  "frame",    "pointer",   "reference", "lifetime",   "borrow",    "closure",   "iterator",
  "trait",    "interface", "struct",    "enum",       "variant",   "constant",  "variable",
  "scope",    "context",   "logger",    "metrics",    "coverage",  "fixture",   "mock",
  "assert",   "benchmark", "profile",   "docs",       "README",    "header",    "footer",
  "layout",   "style",     "theme",     "dark",       "mode",      "settings",  "preferences",
  "actually", "probably",  "clearly",   "likely",     "already",   "quickly",   "carefully",
  "directly",
};

static const char *const identifiers[] = {
  "parse_record",  "loadConfig",   "user_id",       "handleRequest",  "fetchItems",
  "session_store", "build_index",  "renderRow",     "on_changed",     "max_retries",
  "resolvePath",   "to_json",      "from_str",      "apply_patch",    "tokenize",
  "cache_key",     "createServer", "read_lines",    "write_all",      "is_valid",
  "getUser",       "update_state", "TenantLibrary", "RecordParser",   "SessionView",
  "ImportQueue",   "http_client",  "db_pool",       "schema_version", "last_seen",
  "retry_after",   "open_file",    "normalize",     "validate_input", "useDebounce",
  "formatDate",    "compute_hash", "list_sessions", "emit_event",     "queue_push",
  "flush_buffer",  "buf_len",      "n_items",       "self",           "ctx",
  "config",
};

static const char *const multilingual[] = {
  "このテストは失敗しています。原因を調べてください。",
  "修复了导入时的内存泄漏问题，现在可以处理大文件了。",
  "데이터베이스 연결을 확인하고 다시 시도하세요.",
  "¿Puedes revisar por qué falla la migración en producción?",
  "✅ Todos los tests pasan ahora 🎉",
  "🚀 Deployed to staging — please verify the dashboard.",
  "⚠️ This drops the column; make a backup first.",
  "Der Parser liefert für leere Zeilen jetzt null zurück.",
  "ログの出力先を ~/.cache に変更しました 👍",
  "The log showed “caf\xc3\xa9 \xef\xbf\xbd” where the byte was broken.",
  "检查一下 `src/parser.rs` 第 42 行的错误处理。",
  "Il manque un point-virgule à la ligne 17 — c’est corrigé.",
  "😅 my bad, the path was wrong",
  "🔥🔥 latency dropped from 840 ms to 95 ms",
};

static const char *const langs[] = { "c", "python", "typescript", "rust", "go", "bash" };

static const char *const code_c[] = {
  "static int",
  "@ (const char *@, gsize @)",
  "{",
  "  g_autoptr(GError) error = NULL;",
  "  if (@ == NULL)",
  "    return -1;",
  "  for (guint i = 0; i < @->len; i++)",
  "    g_print (\"%s: %d\\n\", @, @[i]);",
  "  return @ (@, &error);",
  "}",
  "  char *@ = g_strdup_printf (\"%s/%s\", @, @);",
  "  memcpy (@, @, sizeof *@);",
  "#include <glib.h>",
  "#define @ 4096",
  "  switch (@)",
  "    {",
  "    case #:",
  "      break;",
  "    }",
  "  g_clear_pointer (&@, g_free);",
};
static const char *const code_python[] = {
  "def @(@, @=None):",
  "    \"\"\"Return the @ for @.\"\"\"",
  "    if @ is None:",
  "        raise ValueError(f\"missing {@!r}\")",
  "    for @ in @:",
  "        print(f\"{@}: {@}\")",
  "    return {\"@\": @, \"@\": #}",
  "import json",
  "from pathlib import Path",
  "class @:",
  "    def __init__(self, @):",
  "        self.@ = @",
  "    with open(@, \"r\", encoding=\"utf-8\") as fh:",
  "        data = json.load(fh)",
  "@ = [x for x in @ if x.@ > #]",
  "try:",
  "except KeyError as exc:",
  "    logger.warning(\"%s\", exc)",
};
static const char *const code_typescript[] = {
  "export async function @(@: string): Promise<@> {",
  "  const res = await fetch(`/api/@/${@}`);",
  "  if (!res.ok) throw new Error(`HTTP ${res.status}`);",
  "  return (await res.json()) as @;",
  "}",
  "import { @, @ } from \"./@\";",
  "const @ = useMemo(() => @.filter((x) => x.@), [@]);",
  "  return <div className=\"@\">{@}</div>;",
  "interface @ {",
  "  @: number;",
  "  @?: string;",
  "type @ = \"@\" | \"@\";",
  "  console.log(\"@\", @);",
  "export default @;",
};
static const char *const code_rust[] = {
  "fn @(@: &str) -> Result<@, Error> {",
  "    let @: serde_json::Value = serde_json::from_str(@)?;",
  "    for @ in @.iter() {",
  "        println!(\"{}: {:?}\", @, @);",
  "    }",
  "    Ok(@)",
  "}",
  "use std::collections::HashMap;",
  "#[derive(Debug, Clone, Serialize, Deserialize)]",
  "pub struct @ {",
  "    pub @: u64,",
  "    pub @: Option<String>,",
  "impl @ for @ {",
  "        .map_err(|e| anyhow!(\"@ failed: {e}\"))?;",
  "    match @ {",
  "        Some(@) => @,",
  "        None => return Err(Error::Missing(\"@\".into())),",
};
static const char *const code_go[] = {
  "func (s *@) @(w http.ResponseWriter, r *http.Request) {",
  "\tif err != nil {",
  "\t\treturn fmt.Errorf(\"@: %w\", err)",
  "\t}",
  "}",
  "\t@ := make(map[string]int)",
  "\tfor _, @ := range @ {",
  "\t\t@ = append(@, @)",
  "package @",
  "import (",
  "\t\"context\"",
  "\t\"encoding/json\"",
  ")",
  "type @ struct {",
  "\t@ string `json:\"@\"`",
  "\tdefer @.Close()",
};
static const char *const code_bash[] = {
  "#!/usr/bin/env bash",
  "set -euo pipefail",
  "for f in \"$@\"; do",
  "  echo \"processing $f\"",
  "done",
  "if [[ -z \"${@:-}\" ]]; then",
  "  exit 1",
  "fi",
  "@=$(git rev-parse --show-toplevel)",
  "grep -rn \"@\" src/ | head -20",
  "meson setup _build && ninja -C _build",
};

static const char *const shell_lines[] = {
  "-rw-r--r--  1 tom  staff   # Mar  3 12:01 @.c",
  "drwxr-xr-x  # tom  staff    # Feb 27 09:14 @",
  "test @::@ ... ok",
  "test @::@ ... FAILED",
  "src/@.c:#:#: warning: unused variable ‘@’ [-Wunused-variable]",
  "src/@.rs:#:#: error[E0382]: borrow of moved value: `@`",
  "PASS  src/@.test.ts (# ms)",
  "FAIL  src/@.test.ts",
  "  ✓ @ renders without crashing (# ms)",
  "  ✕ @ handles empty input (# ms)",
  "[#/#] Compiling C object src/@.c.o",
  "ninja: build stopped: subcommand failed.",
  "npm WARN deprecated @@#.#.#: this package is no longer supported",
  "added # packages, and audited # packages in #s",
  "commit #abc#def#",
  "Author: Tom <tom@example.com>",
  "    @ the @ in @",
  "Traceback (most recent call last):",
  "  File \"/app/@.py\", line #, in @",
  "KeyError: '@'",
  "ok  \tgithub.com/acme/@\t0.#s",
  "--- FAIL: Test@ (0.#s)",
  "    @_test.go:#: got #, want #",
  "M  src/@.c",
  "?? @.log",
  "error: could not compile `@`",
  "Finished `release` profile [optimized] target(s) in #.#s",
  "     Running unittests src/@.rs",
  "  #  #  # @",
  "   #:#  error  '@' is defined but never used  no-unused-vars",
};

static const char *const dirs[] = {
  "src",       "src",      "lib",
  "tests",     "docs",     "include",
  "app",       "core",     "cmd",
  "internal",  "pkg",      "scripts",
  "web",       "api",      "src/components",
  "src/utils", "src/core", "crates/core/src",
};
static const char *const exts[] = {
  ".c", ".h", ".py", ".ts", ".tsx", ".rs", ".go", ".md", ".json", ".toml", ".yaml", ".sh",
};

static const char *const projects[] = {
  "tenant-library", "intentloom",     "blog-engine",   "acme-api",      "dotfiles",
  "infra",          "web-app",        "ml-pipeline",   "mobile-client", "docs-site",
  "payments",       "search-service", "cli-tools",     "game-of-life",  "rust-parser",
  "kube-config",    "analytics",      "auth-service",  "design-system", "data_import",
  "scratch",        "notes.app",      "homelab",       "compiler",      "chat-bot",
  "invoice-gen",    "photo-sorter",   "ledger",        "weather.api",   "terraform-modules",
  "shop-frontend",  "etl-jobs",       "pdf-tools",     "matrix-bridge", "calendar-sync",
  "todo-mvc",       "llm-eval",       "video-encoder",
};
static const char *const users[] = { "tom", "alice", "kenji", "maria", "dev", "sam" };
static const char *const branches[] = {
  "main",
  "main",
  "main",
  "master",
  "develop",
  "feature/import-queue",
  "fix/parser-crash",
  "feat/dark-mode",
  "refactor/store",
  "HEAD",
  "",
  "release/2.1",
  "wip",
};
static const char *const slug_words[] = {
  "glowing", "dreaming", "cloud",  "silent", "rapid",  "amber",     "river",
  "quiet",   "falcon",   "cosmic", "velvet", "harbor", "lunar",     "crimson",
  "meadow",  "swift",    "hidden", "forest", "golden", "ember",     "whispering",
  "tidal",   "paper",    "orbit",  "maple",  "frosty", "wandering",
};

static guint8 word_len[G_N_ELEMENTS (words)];
static char  *cwds[G_N_ELEMENTS (projects) * G_N_ELEMENTS (users)];

static void
ensure_tables (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (words); i++)
        word_len[i] = (guint8)strlen (words[i]);
      for (guint p = 0; p < G_N_ELEMENTS (projects); p++)
        for (guint u = 0; u < G_N_ELEMENTS (users); u++)
          cwds[p * G_N_ELEMENTS (users) + u] = (u % 2 == 0)
                                                 ? g_strdup_printf ("/Users/%s/src/%s", users[u],
                                                                    projects[p])
                                                 : g_strdup_printf ("/home/%s/code/%s", users[u],
                                                                    projects[p]);
      g_once_init_leave (&done, 1);
    }
}

static inline void
append_word (BenchGen *gen,
             GString  *dst)
{
  guint i = bench_rng_below (&gen->rng, G_N_ELEMENTS (words));

  g_string_append_len (dst, words[i], word_len[i]);
}

void
bench_text_identifier (BenchGen *gen,
                       GString  *dst)
{
  g_string_append (dst, BENCH_PICK (&gen->rng, identifiers));
}

/* Expands a template: '@' → an identifier, '#' → a number. */
static void
append_template (BenchGen   *gen,
                 GString    *dst,
                 const char *line)
{
  for (const char *p = line; *p != '\0'; p++)
    {
      if (*p == '@')
        bench_text_identifier (gen, dst);
      else if (*p == '#')
        bj_int (dst, bench_rng_range (&gen->rng, 0, 4096));
      else
        g_string_append_c (dst, *p);
    }
}

void
bench_text_words (BenchGen *gen,
                  GString  *dst,
                  guint     n_words)
{
  for (guint i = 0; i < n_words; i++)
    {
      if (i > 0)
        g_string_append_c (dst, ' ');
      append_word (gen, dst);
    }
}

static void
sentence (BenchGen *gen,
          GString  *dst)
{
  guint n = 5 + bench_rng_below (&gen->rng, 14);
  gsize start = dst->len;

  if (bench_rng_chance (&gen->rng, 0.03))
    {
      g_string_append (dst, BENCH_PICK (&gen->rng, multilingual));
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      guint32 r;

      if (i > 0)
        g_string_append_c (dst, ' ');
      r = bench_rng_below (&gen->rng, 100);
      if (r < 4)
        {
          g_string_append_c (dst, '`');
          bench_text_identifier (gen, dst);
          g_string_append_c (dst, '`');
        }
      else if (r < 6)
        {
          g_string_append_c (dst, '`');
          g_string_append (dst, BENCH_PICK (&gen->rng, dirs));
          g_string_append_c (dst, '/');
          bench_text_identifier (gen, dst);
          g_string_append (dst, BENCH_PICK (&gen->rng, exts));
          g_string_append_c (dst, '`');
        }
      else
        append_word (gen, dst);
    }
  dst->str[start] = g_ascii_toupper (dst->str[start]);
  g_string_append_c (dst, bench_rng_chance (&gen->rng, 0.1) ? '?' : '.');
}

void
bench_text_prose (BenchGen *gen,
                  GString  *dst,
                  gsize     bytes)
{
  gsize end = dst->len + bytes;
  guint in_paragraph = 0;

  ensure_tables ();
  do
    {
      if (in_paragraph > 0)
        g_string_append_c (dst, ' ');
      sentence (gen, dst);
      if (++in_paragraph > 2 + bench_rng_below (&gen->rng, 4) && dst->len < end)
        {
          g_string_append (dst, "\n\n");
          in_paragraph = 0;
        }
    }
  while (dst->len < end);
}

void
bench_text_prompt (BenchGen *gen,
                   GString  *dst,
                   gsize     bytes)
{
  static const char *const openers[] = {
    "Can you ",
    "Please ",
    "Fix ",
    "Why does ",
    "Add ",
    "Refactor ",
    "Look at ",
    "Implement ",
    "Write tests for ",
    "Explain ",
    "I get this error: ",
    "ok now ",
    "Run the tests and ",
  };

  gsize start = dst->len;

  ensure_tables ();
  g_string_append (dst, BENCH_PICK (&gen->rng, openers));
  bench_text_words (gen, dst, 3 + bench_rng_below (&gen->rng, 10));
  if (bench_rng_chance (&gen->rng, 0.25))
    {
      g_string_append (dst, " in `");
      bench_path (gen, "", dst);
      g_string_append (dst, "`");
    }
  g_string_append_c (dst, bench_rng_chance (&gen->rng, 0.5) ? '?' : '.');
  if (dst->len - start + 8 < bytes)
    {
      g_string_append (dst, "\n\n");
      if (bench_rng_chance (&gen->rng, 0.3))
        {
          g_string_append (dst, "```\n");
          bench_text_shell (gen, dst, (bytes - (dst->len - start)) / 2);
          g_string_append (dst, "\n```\n");
        }
      if (dst->len - start < bytes)
        bench_text_prose (gen, dst, bytes - (dst->len - start));
    }
}

void
bench_text_code (BenchGen *gen,
                 GString  *dst,
                 gsize     bytes)
{
  const char *const *lines;
  guint              n;
  gsize              end = dst->len + bytes;

  switch (bench_rng_below (&gen->rng, 6))
    {
    case 0:
      lines = code_c;
      n = G_N_ELEMENTS (code_c);
      break;
    case 1:
      lines = code_python;
      n = G_N_ELEMENTS (code_python);
      break;
    case 2:
      lines = code_typescript;
      n = G_N_ELEMENTS (code_typescript);
      break;
    case 3:
      lines = code_rust;
      n = G_N_ELEMENTS (code_rust);
      break;
    case 4:
      lines = code_go;
      n = G_N_ELEMENTS (code_go);
      break;
    default:
      lines = code_bash;
      n = G_N_ELEMENTS (code_bash);
      break;
    }

  do
    {
      append_template (gen, dst, lines[bench_rng_below (&gen->rng, n)]);
      g_string_append_c (dst, '\n');
    }
  while (dst->len < end);
}

void
bench_text_numbered_code (BenchGen *gen,
                          GString  *dst,
                          gsize     bytes,
                          gboolean  arrow)
{
  g_autoptr (GString) code = g_string_sized_new (bytes + 256);
  guint       line = 1;
  const char *p;

  bench_text_code (gen, code, bytes * 9 / 10);
  p = code->str;
  while (*p != '\0')
    {
      const char *nl = strchr (p, '\n');
      gsize       len = nl ? (gsize)(nl - p) : strlen (p);

      g_string_append_printf (dst, arrow ? "%6u→" : "%6u\t", line++);
      g_string_append_len (dst, p, (gssize)len);
      g_string_append_c (dst, '\n');
      p += len + (nl ? 1 : 0);
    }
}

void
bench_text_shell (BenchGen *gen,
                  GString  *dst,
                  gsize     bytes)
{
  gsize end = dst->len + bytes;

  ensure_tables ();
  do
    {
      append_template (gen, dst, BENCH_PICK (&gen->rng, shell_lines));
      g_string_append_c (dst, '\n');
    }
  while (dst->len < end);
}

void
bench_text_markdown (BenchGen *gen,
                     GString  *dst,
                     gsize     bytes)
{
  gsize end = dst->len + bytes;

  ensure_tables ();
  bench_text_prose (gen, dst, MIN (bytes, 120 + bench_rng_below (&gen->rng, 200)));
  while (dst->len < end)
    {
      guint32 r = bench_rng_below (&gen->rng, 10);

      g_string_append (dst, "\n\n");
      if (r < 3)
        {
          guint n = 2 + bench_rng_below (&gen->rng, 5);

          for (guint i = 0; i < n; i++)
            {
              g_string_append (dst, i > 0 ? "\n- **" : "- **");
              append_word (gen, dst);
              g_string_append (dst, "**: ");
              bench_text_words (gen, dst, 4 + bench_rng_below (&gen->rng, 12));
            }
        }
      else if (r < 5)
        {
          g_string_append (dst, "```");
          g_string_append (dst, BENCH_PICK (&gen->rng, langs));
          g_string_append_c (dst, '\n');
          bench_text_code (
            gen, dst, MIN (end - MIN (end, dst->len) + 64, 80 + bench_rng_below (&gen->rng, 900)));
          g_string_append (dst, "```");
        }
      else if (r < 6)
        {
          g_string_append (dst, "## ");
          bench_text_words (gen, dst, 2 + bench_rng_below (&gen->rng, 4));
        }
      else
        bench_text_prose (gen, dst, 100 + bench_rng_below (&gen->rng, 400));
    }
}

void
bench_text_diff (BenchGen   *gen,
                 GString    *dst,
                 const char *path,
                 gsize       bytes)
{
  gsize end = dst->len + bytes;
  g_autoptr (GString) code = g_string_new (NULL);

  g_string_append_printf (dst, "--- a/%s\n+++ b/%s\n", path, path);
  while (dst->len < end)
    {
      guint       start = 1 + bench_rng_below (&gen->rng, 800);
      const char *p;

      g_string_truncate (code, 0);
      bench_text_code (gen, code, 200 + bench_rng_below (&gen->rng, 400));
      g_string_append_printf (dst, "@@ -%u,7 +%u,8 @@\n", start, start);
      p = code->str;
      while (*p != '\0')
        {
          const char *nl = strchr (p, '\n');
          gsize       len = nl ? (gsize)(nl - p) : strlen (p);
          guint32     r = bench_rng_below (&gen->rng, 6);

          g_string_append_c (dst, r == 0 ? '-' : r == 1 ? '+' : ' ');
          g_string_append_len (dst, p, (gssize)len);
          g_string_append_c (dst, '\n');
          p += len + (nl ? 1 : 0);
        }
    }
}

void
bench_text_base64 (BenchGen *gen,
                   GString  *dst,
                   gsize     bytes)
{
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  gsize             start = dst->len;
  char             *p;

  bytes &= ~(gsize)3;
  g_string_set_size (dst, start + bytes);
  p = dst->str + start;
  for (gsize i = 0; i + 10 <= bytes; i += 10)
    {
      guint64 r = bench_rng_next (&gen->rng);

      for (int k = 0; k < 10; k++, r >>= 6)
        p[i + k] = alphabet[r & 63];
    }
  for (gsize i = bytes - bytes % 10; i < bytes; i++)
    p[i] = alphabet[bench_rng_below (&gen->rng, 64)];
  if (bytes >= 4)
    p[bytes - 1] = '=';
}

void
bench_text_title (BenchGen *gen,
                  GString  *dst)
{
  gsize start = dst->len;

  ensure_tables ();
  bench_text_words (gen, dst, 3 + bench_rng_below (&gen->rng, 5));
  dst->str[start] = g_ascii_toupper (dst->str[start]);
}

void
bench_text_command (BenchGen *gen,
                    GString  *dst)
{
  static const char *const commands[] = {
    "ls -la @",
    "git status",
    "git diff --stat",
    "git log --oneline -20",
    "npm test",
    "npm run build",
    "cargo test @",
    "cargo build --release",
    "pytest -x tests/test_@.py",
    "go test ./...",
    "make -j2",
    "ninja -C _build",
    "rg -n \"@\" src",
    "cat src/@.c",
    "grep -rn \"@\" . --include=*.py",
    "python3 -m @",
    "docker compose up -d",
    "meson test -C _build",
    "sed -n 1,80p src/@.rs",
    "find . -name \"*@*\" -type f",
    "git checkout -b feature/@",
    "curl -s http://localhost:8080/api/@ | jq .",
  };

  ensure_tables ();
  append_template (gen, dst, BENCH_PICK (&gen->rng, commands));
}

const char *
bench_pick_cwd (BenchGen *gen)
{
  double u = bench_rng_double (&gen->rng);

  ensure_tables ();
  /* u² skews towards the first entries: a few projects hold most of the sessions. */
  return cwds[(guint)(u * u * G_N_ELEMENTS (cwds))];
}

void
bench_path (BenchGen   *gen,
            const char *cwd,
            GString    *dst)
{
  ensure_tables ();
  if (cwd != NULL && *cwd != '\0')
    {
      g_string_append (dst, cwd);
      g_string_append_c (dst, '/');
    }
  g_string_append (dst, BENCH_PICK (&gen->rng, dirs));
  g_string_append_c (dst, '/');
  bench_text_identifier (gen, dst);
  g_string_append (dst, BENCH_PICK (&gen->rng, exts));
}

const char *
bench_pick_branch (BenchGen *gen)
{
  return BENCH_PICK (&gen->rng, branches);
}

void
bench_slug (BenchGen *gen,
            GString  *dst)
{
  g_string_append (dst, BENCH_PICK (&gen->rng, slug_words));
  g_string_append_c (dst, '-');
  g_string_append (dst, BENCH_PICK (&gen->rng, slug_words));
  g_string_append_c (dst, '-');
  g_string_append (dst, BENCH_PICK (&gen->rng, slug_words));
}
