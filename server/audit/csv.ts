// RFC 4180 text for spreadsheets. A field that starts with = + - @ (or a tab or carriage return,
// which some spreadsheets skip before such a sign) is read as a formula when the file is opened, and
// the trail holds text others chose (User-Agents, identifiers), so such a field gets a leading
// apostrophe: shown as text, never evaluated (OWASP "CSV Injection").
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised, then quoted when it holds a comma, quote or line break (quotes doubled). */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, ended by CRLF as RFC 4180 says. */
export function csvRecord(values: (string | null | undefined)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
