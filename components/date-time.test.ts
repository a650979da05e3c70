import { describe, expect, it } from "vitest";
import { formatDateTime } from "./date-time.tsx";

describe("one date format per language", () => {
  // A local time, so the figures hold in any time zone the tests run in.
  const moment = new Date(2026, 10, 29, 14, 5, 9);

  it("writes day, month, year and the time to the second, on a 24-hour clock", () => {
    expect(formatDateTime(moment, "en")).toBe("29 Nov 2026, 14:05:09");
    expect(formatDateTime(moment, "ru")).toBe("29 нояб. 2026 г., 14:05:09");
  });

  it("takes an ISO string or milliseconds for the same moment", () => {
    expect(formatDateTime(moment.toISOString(), "en")).toBe(formatDateTime(moment, "en"));
    expect(formatDateTime(moment.getTime(), "ru")).toBe(formatDateTime(moment, "ru"));
  });
});
