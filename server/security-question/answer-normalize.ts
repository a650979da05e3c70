/**
 * How an answer (and a question, when a check names it) is compared: people remember the words, not
 * how they typed them. Steps, each for a reason:
 * - NFKC: compatibility forms become their plain letters (full-width "Ａ" → "A", "ﬁ" → "fi", NBSP →
 *   space), and a letter typed as base + combining mark equals the precomposed one;
 * - toUpperCase then toLowerCase: a full case fold that JS's toLowerCase alone misses ("STRASSE" and
 *   "straße" both become "strasse"), Cyrillic and Greek included;
 * - "ё" → "е": Russian writes both for the same letter, and most keyboards hide "ё";
 * - invisible format characters (zero-width space/joiners, BOM, soft hyphen) are dropped, and every
 *   run of Unicode white space becomes one space, trimmed at both ends.
 * Punctuation stays: it can be part of an answer ("O'Brien"), and dropping it would make answers
 * weaker without making them easier to remember.
 */
export function normalizeAnswer(text: string): string {
  return text
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, "")
    .replace(/\s+/gu, " ")
    .trim()
    .normalize("NFC");
}
