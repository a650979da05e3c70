import { describe, expect, it } from "vitest";
import { html } from "./html.ts";

describe("html", () => {
  it("escapes text and attribute values, keeps nested templates, drops empty values", () => {
    const name = `"><script>alert(1)</script>`;
    const inner = html`<b>${"a&b"}</b>`;
    const out = html`<input value="${name}">${inner}${[html`<i>1</i>`, "<2>"]}${undefined}${false}`;
    expect(out.markup).toBe('<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"><b>a&amp;b</b><i>1</i>&lt;2&gt;');
  });
});
