// Next compiles route handlers for React Server Components, where react-dom/server may not be
// imported. The QR code is drawn by Node's own React, react-dom/server and qrcode.react, loaded at
// run time rather than bundled (all three together, so that they share one React).
type TModules = [typeof import("react"), typeof import("react-dom/server"), typeof import("qrcode.react")];

const KEY = Symbol.for("idp.qr-svg-modules");
const holder = globalThis as { [KEY]?: Promise<TModules> };

function modules(): Promise<TModules> {
  return (holder[KEY] ??= Promise.all([
    import(/* turbopackIgnore: true */ /* webpackIgnore: true */ "react"),
    import(/* turbopackIgnore: true */ /* webpackIgnore: true */ "react-dom/server"),
    import(/* turbopackIgnore: true */ /* webpackIgnore: true */ "qrcode.react"),
  ]));
}

/** `value` as a QR code in inline SVG (no image request, nothing for the CSP to allow), with a quiet zone and a title. */
export async function qrSvg(value: string, title: string): Promise<string> {
  const [react, server, qr] = await modules();
  return server.renderToStaticMarkup(react.createElement(qr.QRCodeSVG, { value, title, size: 200, marginSize: 4, level: "M" }));
}
