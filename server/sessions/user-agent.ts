/** What a person recognises a device by: its kind and "browser, system". */
export type TDeviceName = { kind: "desktop" | "mobile" | "tablet" | "unknown"; name: string };

// Order matters: Edge, Opera and Yandex say "Chrome" too, Chrome says "Safari", iPadOS may say "Macintosh".
const BROWSERS: [RegExp, string][] = [
  [/YaBrowser\//, "Yandex Browser"],
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPod/, "iOS"],
  [/iPad/, "iPadOS"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

const first = (ua: string, table: [RegExp, string][]) => table.find(([re]) => re.test(ua))?.[1];

/** Parses a User-Agent well enough to name a device in a list; unknown parts are left out. */
export function describeUserAgent(ua: string | undefined): TDeviceName {
  if (!ua) return { kind: "unknown", name: "" };
  const browser = first(ua, BROWSERS);
  const system = first(ua, SYSTEMS);
  const kind = /iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua)) ? "tablet" : /Mobi|iPhone|Android/.test(ua) ? "mobile" : system ? "desktop" : "unknown";
  const name = [browser, system].filter(Boolean).join(", ") || ua.slice(0, 60);
  return { kind, name };
}
