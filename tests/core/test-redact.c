/* test-redact.c — the redaction of secrets (loom-redact.h) on a labelled test set and on text
 * built to break it.
 *
 * redact-cases.txt (written by make-redact-cases.py from the providers' published formats)
 * holds true positives, each with the exact text expected back, and false-positive cases,
 * which must come back unchanged. The test prints recall and false-positive rate per family
 * (run it with --verbose, or read the TAP log) and holds each family to the targets of the
 * issue: recall of at least 99 %, false positives at most 1 %.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-redact.h"

typedef struct
{
  guint positives;
  guint found;
  guint near_misses; /* false-positive cases that imitate this family */
  guint false_hits;  /* false-positive cases (any) this family redacted something in */
} FamilyStats;

static FamilyStats *
stats_for (GHashTable *stats,
           const char *family)
{
  FamilyStats *entry = g_hash_table_lookup (stats, family);

  if (entry == NULL)
    {
      entry = g_new0 (FamilyStats, 1);
      g_hash_table_insert (stats, g_strdup (family), entry);
    }
  return entry;
}

static void
test_cases (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "core",
                                            "redact-cases.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) stats = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *const *families = loom_redactor_get_families ();
  guint              n_negatives = 0;
  guint              n_cases = 0;
  guint              failures = 0;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);

  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_auto (GStrv) fields = NULL;
      g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
      g_autofree char *text = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *got = NULL;
      guint            n_found = 0;
      gboolean         negative;

      if (lines[l][0] == '\0' || lines[l][0] == '#')
        continue;
      fields = g_strsplit (lines[l], "\t", 3);
      g_assert_cmpuint (g_strv_length (fields), ==, 3);
      negative = strcmp (fields[1], "=") == 0;
      text = g_strcompress (fields[2]);
      expected = negative ? g_strdup (text) : g_strcompress (fields[1]);
      got = loom_redactor_redact (redactor, text, -1, &n_found);
      n_cases++;

      if (negative)
        {
          n_negatives++;
          stats_for (stats, fields[0])->near_misses++;
          for (guint f = 0; families[f] != NULL; f++)
            if (loom_redactor_get_count (redactor, families[f]) > 0)
              stats_for (stats, families[f])->false_hits++;
        }
      else
        {
          stats_for (stats, fields[0])->positives++;
          if (strcmp (got, expected) == 0)
            stats_for (stats, fields[0])->found++;
        }
      if (strcmp (got, expected) != 0)
        {
          g_autofree char *escaped = g_strescape (got, NULL);

          failures++;
          g_test_message ("line %u (%s, %s):\n  text:     %s\n  expected: %s\n  got:      %s",
                          l + 1, fields[0], negative ? "false positive" : "missed", fields[2],
                          negative ? "(unchanged)" : fields[1], escaped);
        }
      else
        g_assert_cmpuint (n_found, ==, loom_redactor_get_total (redactor));
    }

  g_assert_cmpuint (n_cases, >=, 500);
  g_test_message ("%u cases, %u of them false-positive cases, %u wrong", n_cases, n_negatives,
                  failures);
  g_test_message ("%-22s %9s %8s %11s %8s", "family", "positives", "recall", "near-misses",
                  "FP rate");
  for (guint f = 0; families[f] != NULL; f++)
    {
      FamilyStats *entry = stats_for (stats, families[f]);
      double       recall = entry->positives ? 100.0 * entry->found / entry->positives : 0;
      double       fp = n_negatives ? 100.0 * entry->false_hits / n_negatives : 0;

      g_test_message ("%-22s %9u %7.1f%% %11u %7.2f%%", families[f], entry->positives, recall,
                      entry->near_misses, fp);
      /* Every family is tested, with true positives and with near misses of its own. */
      g_assert_cmpuint (entry->positives, >=, 10);
      g_assert_cmpfloat (recall, >=, 99.0);
      g_assert_cmpfloat (fp, <=, 1.0);
    }
  g_assert_cmpuint (stats_for (stats, "none")->near_misses, >=, 40);
}

#define GITHUB_1 "ghp_R8mZq2Lx7TnVb4KpW9sYd3FhJc6Ga1UeXo0N"
#define GITHUB_2 "ghp_Q3nTb8Vx2LmZk7RpW4sYd9FhJc1Ga6UeXo5M"
#define OPENAI   "sk-proj-Xy7Lq2Mz9Rt4Vb8Nc3Kd6Fs1Hg5Jw0Pa2Qe7Tu4Io9Ul3Ym8Zn6Ab1Cd5Ef0Gh2Ij7Kl"

/* The same secret gets the same placeholder in every call of one redactor; another secret of
 * the family the next number. */
static void
test_stability (void)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  g_autoptr (LoomRedactor) other = loom_redactor_new ();
  g_autoptr (GHashTable) counts = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *fresh = NULL;
  guint            n_found = 0;

  first = loom_redactor_redact (redactor, "use " GITHUB_1 ", not " GITHUB_2 " or " GITHUB_1, -1,
                                &n_found);
  g_assert_cmpstr (first, ==,
                   "use [REDACTED:github-token-1], not [REDACTED:github-token-2] or "
                   "[REDACTED:github-token-1]");
  g_assert_cmpuint (n_found, ==, 3);

  second = loom_redactor_redact (redactor, "GITHUB_TOKEN=" GITHUB_2 "\nOPENAI_API_KEY=" OPENAI, -1,
                                 &n_found);
  g_assert_cmpstr (
    second, ==, "GITHUB_TOKEN=[REDACTED:github-token-2]\nOPENAI_API_KEY=[REDACTED:openai-key-1]");
  g_assert_cmpuint (n_found, ==, 2);

  g_assert_cmpuint (loom_redactor_get_count (redactor, "github-token"), ==, 4);
  g_assert_cmpuint (loom_redactor_get_count (redactor, "openai-key"), ==, 1);
  g_assert_cmpuint (loom_redactor_get_count (redactor, "jwt"), ==, 0);
  g_assert_cmpuint (loom_redactor_get_count (redactor, "no-such-family"), ==, 0);
  g_assert_cmpuint (loom_redactor_get_total (redactor), ==, 5);
  g_assert_cmpuint (loom_redactor_get_n_secrets (redactor), ==, 3);
  counts = loom_redactor_get_counts (redactor);
  g_assert_cmpuint (g_hash_table_size (counts), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "github-token")), ==, 4);

  /* Another package numbers from 1 again. */
  fresh = loom_redactor_redact (other, GITHUB_2, -1, NULL);
  g_assert_cmpstr (fresh, ==, "[REDACTED:github-token-1]");
}

/* One pasted text with a secret of most families, in the order they come. */
static void
test_multiple (void)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  g_autofree char *got = NULL;
  guint            n_found = 0;
  const char      *text =
    "export AWS_ACCESS_KEY_ID=AKIAQ3EGRTLMN4SVX7WZ\n"
    "export AWS_SECRET_ACCESS_KEY=Zq8Lm3Rt7Vb2Nc9Kd4Fs1Hg6Jw0Pa5Qe8Tu3Io7U\n"
    "ANTHROPIC_API_KEY=sk-ant-api03-Ab3Cd7Ef1Gh5Ij9Kl2Mn6Op0Qr4St8Uv3Wx7Yz1Ab5Cd9Ef2Gh6Ij0Kl4AA\n"
    "DATABASE_URL=postgres://app:Vq7-xT9wz2Lm@db:5432/app\n"
    "SLACK=xoxb-123456789012-1234567890123-Ab3Cd7Ef1Gh5Ij9Kl2Mn6Op0\n"
    "and the password: Hx8!qLm2Tz9w\n";

  got = loom_redactor_redact (redactor, text, -1, &n_found);
  g_assert_cmpstr (got, ==,
                   "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id-1]\n"
                   "export AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key-1]\n"
                   "ANTHROPIC_API_KEY=[REDACTED:anthropic-key-1]\n"
                   "DATABASE_URL=postgres://app:[REDACTED:url-password-1]@db:5432/app\n"
                   "SLACK=[REDACTED:slack-token-1]\n"
                   "and the password: [REDACTED:password-1]\n");
  g_assert_cmpuint (n_found, ==, 6);
}

/* Where two detectors could claim the same bytes, the one that knows the secret names it, and
 * a secret is replaced once. */
static void
test_overlap (void)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  const struct
  {
    const char *text;
    const char *expected;
  } cases[] = {
    /* A token as the password of a URL is the provider's. */
    { "https://x-access-token:" GITHUB_1 "@github.com/a/b.git",
      "https://x-access-token:[REDACTED:github-token-1]@github.com/a/b.git" },
    /* A token as the value of an assignment too. */
    { "password=" GITHUB_1, "password=[REDACTED:github-token-1]" },
    /* sk-ant- is Anthropic's, not OpenAI's sk-. */
    { "sk-ant-api03-Ab3Cd7Ef1Gh5Ij9Kl2Mn6Op0Qr4St8Uv3Wx7Yz1Ab5Cd9", "[REDACTED:anthropic-key-1]" },
    /* A PEM body is one secret, whatever it holds. */
    { "-----BEGIN PRIVATE KEY-----\nAKIAQ3EGRTLMN4SVX7WZ" GITHUB_2 "MIIEvQIBADANBgkqhkiG9w0BAQEF\n"
      "-----END PRIVATE KEY-----",
      "-----BEGIN PRIVATE KEY-----\n[REDACTED:private-key-1]\n-----END PRIVATE KEY-----" },
    /* Two tokens back to back across a separator are two secrets. */
    { GITHUB_1 "," GITHUB_2, "[REDACTED:github-token-1],[REDACTED:github-token-2]" },
    /* A URL on an added line of a diff: the '+' is not part of its scheme. */
    { "+mysql://root:sKVk.rrA1uLKxx+@127.0.0.1:3306/shop",
      "+mysql://root:[REDACTED:url-password-1]@127.0.0.1:3306/shop" },
    /* A token glued into a longer word is not a token of the format: kept. */
    { GITHUB_1 "_backup", GITHUB_1 "_backup" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LoomRedactor) fresh = loom_redactor_new ();
      g_autofree char *got = loom_redactor_redact (fresh, cases[i].text, -1, NULL);

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_empty (void)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  g_autofree char *empty = NULL;
  g_autofree char *null_text = NULL;
  guint            n_found = 7;

  empty = loom_redactor_redact (redactor, "", -1, &n_found);
  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpuint (n_found, ==, 0);
  null_text = loom_redactor_redact (redactor, NULL, 0, &n_found);
  g_assert_cmpstr (null_text, ==, "");
  g_assert_cmpuint (loom_redactor_get_total (redactor), ==, 0);
}

/* 50 MB of transcript with a token every megabyte: every one is found, the rest kept. */
static void
test_huge (void)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  g_autoptr (GString) text = g_string_sized_new (52 * 1024 * 1024);
  g_autofree char *got = NULL;
  const char      *prose =
    "{\"type\":\"tool_result\",\"content\":\"commit 3f5e2c1a9b7d4e6f8a0b2c4d6e8f0a1b3c5d7e9f "
    "src/core/loom-store.c:120: warning: unused variable 'x' = 42; token_count=1234\"}\n";
  guint n_secrets = 0;
  guint n_found = 0;

  while (text->len < 50 * 1024 * 1024)
    {
      g_string_append (text, prose);
      if (text->len / (1024 * 1024) > n_secrets)
        {
          g_string_append (text, "GITHUB_TOKEN=" GITHUB_1 "\n");
          n_secrets++;
        }
    }
  got = loom_redactor_redact (redactor, text->str, (gssize)text->len, &n_found);
  g_assert_cmpuint (n_found, ==, n_secrets);
  g_assert_cmpuint (loom_redactor_get_n_secrets (redactor), ==, 1);
  g_assert_cmpuint (strlen (got), ==,
                    text->len -
                      n_secrets * (strlen (GITHUB_1) - strlen ("[REDACTED:github-token-1]")));
}

/* Near misses repeated without end: the patterns that make a backtracking matcher or a naive
 * "look for the END line from every BEGIN" take quadratic time. Nothing is found in them; the
 * test's only other promise is that it ends (the harness's timeout guards it). */
static void
test_hostile (void)
{
  const char *const units[] = {
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----\nabc ",
    "eyJhbGciOiJIUzI1NiJ9.",
    "eyJ.",
    "password=password=",
    "a=a:",
    "postgres://u:p",
    "://",
    "AKIA",
    "sk-",
    "-",
    "ghp_",
    "AC0123456789abcdef0123456789abcdef twilio ",
    "Zq8Lm3Rt7Vb2Nc9Kd4Fs1Hg6Jw0Pa5Qe8Tu3Io7U+secret aws ",
    "hooks.slack.com/services/",
    "\\n",
    "AccountKey=",
    "sv=sig=",
    "0Q~",
  };

  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    {
      g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
      g_autoptr (GString) text = g_string_new (NULL);
      g_autofree char *got = NULL;
      guint            n_found = 0;

      while (text->len < 4 * 1024 * 1024)
        g_string_append (text, units[u]);
      got = loom_redactor_redact (redactor, text->str, (gssize)text->len, &n_found);
      g_test_message ("%-40s %u found", units[u], n_found);
      if (n_found == 0)
        g_assert_true (strcmp (got, text->str) == 0);
    }
}

/* Bytes that are not UTF-8, and NULs inside the length, are copied through; a secret beside
 * them is still found. */
static void
test_invalid_utf8 (void)
{
  g_autoptr (LoomRedactor) redactor = loom_redactor_new ();
  g_autofree char *got = NULL;
  g_autofree char *binary = NULL;
  char             bytes[512];
  guint            n_found = 0;

  got = loom_redactor_redact (redactor, "\xff\xfe" GITHUB_1 "\xc3\x28 \x80", -1, &n_found);
  g_assert_cmpstr (got, ==, "\xff\xfe[REDACTED:github-token-1]\xc3\x28 \x80");
  g_assert_cmpuint (n_found, ==, 1);

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (char)(i * 37 + 11);
  binary = loom_redactor_redact (redactor, bytes, sizeof bytes, &n_found);
  g_assert_cmpuint (n_found, ==, 0);
  g_assert_true (memcmp (binary, bytes, sizeof bytes) == 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/redact/cases", test_cases);
  g_test_add_func ("/redact/stability", test_stability);
  g_test_add_func ("/redact/multiple", test_multiple);
  g_test_add_func ("/redact/overlap", test_overlap);
  g_test_add_func ("/redact/empty", test_empty);
  g_test_add_func ("/redact/huge", test_huge);
  g_test_add_func ("/redact/hostile", test_hostile);
  g_test_add_func ("/redact/invalid-utf8", test_invalid_utf8);

  return g_test_run ();
}
