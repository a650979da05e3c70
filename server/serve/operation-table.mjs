// The node:http transport's routing: which operation of the catalog a request's path names, and its
// path parameters. Built from the operations' method and path template ("/api/v3/users/{subjectId}"),
// the same list the OpenAPI document is made of. At each segment a literal beats a parameter, as in
// Next's app router, so a path resolves to the operation Next's route files would run
// (operation-table.test.ts holds the table against the app/ folder tree).

/**
 * @template R
 * @typedef {{ literal: Map<string, TNode<R>>; param: TNode<R> | undefined; ops: Map<string, { run: R; names: string[] }> }} TNode
 */

/** @template R @returns {TNode<R>} */
const node = () => ({ literal: new Map(), param: undefined, ops: new Map() });

const PARAM = /^\{([^{}]+)\}$/;

/**
 * @template R
 * @param {{ method: string; path: string; run: R }[]} operations
 */
export function operationTable(operations) {
  /** @type {TNode<R>} */
  const root = node();
  for (const op of operations) {
    let at = root;
    /** @type {string[]} */
    const names = [];
    for (const segment of op.path.split("/").slice(1)) {
      const param = PARAM.exec(segment)?.[1];
      if (param !== undefined) {
        names.push(param);
        at = at.param ??= node();
      } else {
        if (segment.includes("{")) throw new Error(`${op.path}: a parameter must be a whole segment`);
        let next = at.literal.get(segment);
        if (!next) at.literal.set(segment, (next = node()));
        at = next;
      }
    }
    if (at.ops.has(op.method)) throw new Error(`${op.method} ${op.path}: listed twice`);
    at.ops.set(op.method, { run: op.run, names });
  }

  /**
   * The node of `segments` from `i` on, literals first, and the raw values of the parameters on the way.
   * @param {TNode<R>} at @param {string[]} segments @param {number} i @param {string[]} values
   * @returns {TNode<R> | undefined}
   */
  function walk(at, segments, i, values) {
    if (i === segments.length) return at.ops.size ? at : undefined;
    const segment = /** @type {string} */ (segments[i]);
    const literal = at.literal.get(segment);
    const found = literal && walk(literal, segments, i + 1, values);
    if (found) return found;
    if (!at.param || segment === "") return undefined;
    values.push(segment);
    const viaParam = walk(at.param, segments, i + 1, values);
    if (!viaParam) values.pop();
    return viaParam;
  }

  /**
   * The operation `method` at `path` (below the context path, as sent) and its decoded parameters;
   * undefined when none, or when a parameter's escapes do not decode.
   * @param {string} method @param {string} path
   * @returns {{ run: R; params: Record<string, string> } | undefined}
   */
  function resolve(method, path) {
    /** @type {string[]} */
    const values = [];
    const found = walk(root, path.split("/").slice(1), 0, values);
    const op = found?.ops.get(method);
    if (!op) return undefined;
    /** @type {Record<string, string>} */
    const params = {};
    for (let k = 0; k < values.length; k++) {
      const raw = /** @type {string} */ (values[k]);
      let value = raw;
      if (raw.includes("%")) {
        try {
          value = decodeURIComponent(raw);
        } catch {
          return undefined;
        }
      }
      params[/** @type {string} */ (op.names[k])] = value;
    }
    return { run: op.run, params };
  }

  return { resolve };
}
