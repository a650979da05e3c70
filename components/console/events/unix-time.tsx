"use client";
import { DateTime } from "../../date-time.tsx";

/** A Unix time in the console's language and the browser's time zone (rendered in the browser only: lists load there). */
export function UnixTime({ seconds }: { seconds: number }) {
  return <DateTime value={seconds * 1000} />;
}
