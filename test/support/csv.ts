/**
 * Reads RFC 4180 text into records, as a spreadsheet would: quoted fields may hold commas, line
 * breaks and doubled quotes. Strict where the exporter must be: records end with CRLF, and a quote
 * inside an unquoted field is an error. A leading byte order mark is dropped.
 */
export function parseCsv(text: string): string[][] {
  const s = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < s.length) {
    let field = "";
    if (s[i] === '"') {
      i++;
      for (;;) {
        if (i >= s.length) throw new Error("unterminated quoted field");
        if (s[i] === '"' && s[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (s[i] === '"') break;
        else field += s[i++];
      }
      i++;
    } else {
      while (i < s.length && s[i] !== "," && s[i] !== "\r" && s[i] !== "\n") {
        if (s[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
        field += s[i++];
      }
    }
    record.push(field);
    if (s[i] === ",") i++;
    else if (s.startsWith("\r\n", i)) {
      records.push(record);
      record = [];
      i += 2;
    } else throw new Error(`expected a comma or CRLF at ${i}`);
  }
  if (record.length) throw new Error("the last record does not end with CRLF");
  return records;
}
