// The checker's adjudication of the call-edge pairs the SCIP gold cannot judge (issue 24).
//
// A strict pair codeslice reports and the gold lacks is `unjudged` when every one of its sites is one where the gold
// names no definition for the callee (score.mjs): no SCIP occurrence at the callee token, a local variable or
// parameter the indexer does not follow (`append = text.append; append(x)`), or a symbol of the corpus that no
// document defines. Strict precision counts those pairs as wrong, judged precision leaves them out; neither says
// whether they are right. This step asks the type checker itself, Pyright's language server
// (`pyright-langserver --stdio`, npm `pyright`, installed by tools.mjs beside the SCIP indexers), at each such
// site's callee token:
//   1. `textDocument/definition`: where the name is declared. A declaration that is a corpus definition of the
//      gold (a def or class, at its name token) or lies outside the corpus (typeshed, the standard library, an
//      installed package) is the checker's callee;
//   2. a declaration that is an assignment of the corpus instead (`append = text.append`, `hash_utf8 = md5_utf8`
//      on each branch, `get_style = partial(console.get_style, …)`): step 1 again at the name assigned, up to
//      three hops. Neither definition nor the call hierarchy follows a variable to the function it holds, and
//      typeDefinition of a function-valued variable is `types.FunctionType` (or `functools.partial`,
//      `_lru_cache_wrapper`), not the function; only which token to ask about is read from the source;
//   3. nothing found: `textDocument/typeDefinition`, kept only when it is a corpus class (a variable holding a
//      class: calling it constructs that class).
// Each site gets the checker's callees, or none (it could not tell either). A pair is `confirmed` when at one of
// its sites the checker names codeslice's callee, `contradicted` when it names only others at a site it decided
// (those are codeslice's bugs: the bench lists them), else `undecided`. The bench prints beside strict P (which
// this never changes) "P with the checker's adjudication" = (tp + confirmed) / (candidate − undecided).
//
// Only Python corpora, and only unjudged pairs: a pair the gold judged keeps the gold's verdict. Answers are cached
// per site in ~/.cache/codeslice-bench/adjudication/<corpus>-<tree>-pyright-<version>.json, so a rerun asks the
// server only about sites it has not seen; `--fresh` on the bench clears that cache with the SCIP index.
//
// CLI: node adjudicate.mjs <corpus name> [corpus dir]   (reads the bench's last gold and codeslice graph from
//      ~/.cache/codeslice-bench/gold and prints the verdicts as JSON)
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { benchCache } from "../lib/bench-utils.mjs";
import { corpusTree } from "./corpora.mjs";
import { keys, scoreGraph } from "./score.mjs";
import { TOOL_VERSIONS, toolBin } from "./tools.mjs";

/** A request to the server that has not answered by then is given up (the site stays undecided). */
const REQUEST_TIMEOUT_MS = 180_000;

/**
 * Adjudicates a scored corpus's unjudged pairs.
 * @param {{ name: string, language: string }} spec
 * @param {string} dir the corpus (a git repository)
 * @param {object} gold `code-graph-gold/1`
 * @param {object} cand codeslice's `graph --json`
 * @param {string[]} unjudgedPairs pair keys from scoreGraph's detail
 * @returns {Promise<object | null>} null for a language this step does not cover
 */
export async function adjudicate(spec, dir, gold, cand, unjudgedPairs, { fresh = false } = {}) {
  if (spec.language !== "python") return null;
  const t0 = Date.now();
  const wanted = new Set(unjudgedPairs);
  const sitesOf = new Map(); // pair -> [{ file, line }]
  for (const e of cand.call_edges) {
    const k = keys.pair(e);
    if (!wanted.has(k)) continue;
    const list = sitesOf.get(k) ?? sitesOf.set(k, []).get(k);
    if (!list.some((s) => s.file === e.file && s.line === e.line)) list.push({ file: e.file, line: e.line });
  }
  const unresolvedAt = new Map(); // "file\0line" -> gold's unresolved sites there (with their callee columns)
  for (const u of gold.unresolved_call_sites ?? []) {
    if (u.col == null) continue;
    const k = keys.place(u);
    (unresolvedAt.get(k) ?? unresolvedAt.set(k, []).get(k)).push(u);
  }
  const calleeName = (q) => q.slice(q.lastIndexOf(".") + 1);
  // The tokens to ask about at each site: every unresolved call on its line (a line may hold several), of which the
  // one named like codeslice's callee, else the only one there, is the site's own: only its answer can contradict.
  const queries = new Map(); // "file:line:col" -> { file, line, col }
  const plan = [];
  const keyOf = (u) => `${u.file}:${u.line}:${u.col}`;
  for (const [pair, sites] of sitesOf) {
    const callee = pair.slice(pair.indexOf(" -> ") + 4);
    for (const s of sites) {
      const here = unresolvedAt.get(keys.place(s)) ?? [];
      const named = here.filter((u) => u.name === calleeName(callee));
      const own = named.length ? named : here.length === 1 ? here : [];
      for (const u of here) queries.set(keyOf(u), { file: u.file, line: u.line, col: u.col });
      plan.push({ pair, callee, site: s, asked: here.map(keyOf), own: own.map(keyOf) });
    }
  }

  const cacheFile = adjudicationCache(spec, dir);
  let cache = {};
  if (!fresh && cacheFile) {
    try {
      cache = JSON.parse(fs.readFileSync(cacheFile, "utf8"));
    } catch {
      // first run for this tree
    }
  }
  const missing = [...queries].filter(([k]) => !(k in cache)).map(([, q]) => q);
  if (missing.length) {
    const answers = await askPyright(dir, gold, missing);
    for (const [k, v] of answers) cache[k] = v;
    if (cacheFile) {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      fs.writeFileSync(cacheFile, JSON.stringify(cache));
    }
  }
  return verdicts(plan, cache, { asked: missing.length, cached: queries.size - missing.length, t0 });
}

/** The cache file for a corpus tree (null when the corpus is not a clean repository: no cache). */
function adjudicationCache(spec, dir) {
  const tree = corpusTree(dir);
  return tree
    ? path.join(benchCache, "adjudication", `${spec.name}-${tree.slice(0, 12)}-pyright-${TOOL_VERSIONS.pyright}.json`)
    : null;
}

/** Pair verdicts from the site answers; the contradicted pairs with what the checker named instead. */
function verdicts(plan, cache, { asked, cached, t0 }) {
  const byPair = new Map();
  for (const p of plan) {
    const v = byPair.get(p.pair) ?? byPair.set(p.pair, { pair: p.pair, callee: p.callee, sites: [] }).get(p.pair);
    const targetsOf = (list) => [...new Set(list.flatMap((k) => cache[k]?.targets ?? []))];
    const onLine = targetsOf(p.asked);
    v.sites.push({
      file: p.site.file,
      line: p.site.line,
      checker: onLine.includes(p.callee) ? [p.callee] : targetsOf(p.own),
    });
  }
  const out = { confirmed: 0, contradicted: 0, undecided: 0, contradictions: [], asked, cached };
  for (const v of byPair.values()) {
    const decided = v.sites.filter((s) => s.checker.length);
    v.verdict = decided.some((s) => s.checker.includes(v.callee))
      ? "confirmed"
      : decided.length
        ? "contradicted"
        : "undecided";
    out[v.verdict]++;
    if (v.verdict === "contradicted") out.contradictions.push(v);
  }
  out.pairs = [...byPair.values()].map((v) => ({ pair: v.pair, verdict: v.verdict, sites: v.sites }));
  out.seconds = (Date.now() - t0) / 1000;
  return out;
}

/**
 * Asks a Pyright language server about each site's callee token. Returns "file:line:col" -> { targets, how }:
 * targets are gold qualified names, or `external:<path>:<line>` for declarations outside the corpus.
 */
async function askPyright(dir, gold, sites) {
  const server = await startServer(dir);
  try {
    const ask = checkerQueries(server, dir, gold);
    const answers = new Map();
    for (const s of sites) {
      const hops = [];
      const targets = [...new Set(await ask.callees(s.file, s.line - 1, s.col, 0, hops))];
      answers.set(`${s.file}:${s.line}:${s.col}`, { targets, how: targets.length ? hops.join(" ") : "none" });
    }
    return answers;
  } finally {
    await server.stop();
  }
}

/** The checker's callees at a token, through the corpus's own aliases (see the header). */
function checkerQueries(server, dir, gold) {
  const defsAt = new Map(); // "file\0line" -> gold definitions whose name token is on that line
  for (const d of gold.definitions) {
    const k = `${d.file}\u0000${d.start_line}`;
    (defsAt.get(k) ?? defsAt.set(k, []).get(k)).push(d);
  }
  const root = fs.realpathSync(dir);
  const lines = new Map();
  const lineOf = (rel, line) => {
    if (!lines.has(rel)) lines.set(rel, fs.readFileSync(path.join(root, rel), "utf8").split("\n"));
    return lines.get(rel)[line] ?? "";
  };
  const opened = new Set();
  const open = (rel) => {
    const uri = pathToFileURL(path.join(root, rel)).href;
    if (!opened.has(uri)) {
      opened.add(uri);
      const text = fs.readFileSync(path.join(root, rel), "utf8");
      server.notify("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text } });
    }
    return uri;
  };
  // A location: a corpus definition at its name token, a declaration outside the corpus, or a corpus variable.
  const place = (loc) => {
    const file = fileURLToPathSafe(loc.uri ?? loc.targetUri);
    const range = loc.range ?? loc.targetSelectionRange;
    if (!file || !range) return null;
    const rel = path.relative(root, fs.existsSync(file) ? fs.realpathSync(file) : file);
    if (rel.startsWith("..") || path.isAbsolute(rel)) return { target: `external:${file}:${range.start.line + 1}` };
    const word = lineOf(rel, range.start.line).slice(range.start.character, range.end.character);
    const def = (defsAt.get(`${rel}\u0000${range.start.line + 1}`) ?? []).find((d) => d.name === word);
    return def ? { target: def.qualified, kind: def.kind } : { variable: { rel, line: range.start.line, range } };
  };
  const asList = (r) => (Array.isArray(r) ? r : r ? [r] : []);
  const request = async (method, rel, line, character) =>
    asList(await server.request(method, { textDocument: { uri: open(rel) }, position: { line, character } }))
      .map(place)
      .filter(Boolean);
  const callees = async (rel, line, character, depth, hops) => {
    const found = await request("textDocument/definition", rel, line, character);
    const out = found.filter((f) => f.target).map((f) => f.target);
    if (out.length) hops.push("definition");
    for (const f of found.filter((x) => x.variable && depth < MAX_ALIAS_HOPS)) {
      const value = aliasValue(lineOf(f.variable.rel, f.variable.line), f.variable.range);
      if (value === null) continue;
      hops.push("alias");
      out.push(...(await callees(f.variable.rel, f.variable.line, value, depth + 1, hops)));
    }
    if (!out.length) {
      // a variable holding a class: the checker's type of it is that class (a function's is `FunctionType`: not asked)
      const types = await request("textDocument/typeDefinition", rel, line, character);
      for (const t of types) if (t.kind === "class") out.push(t.target);
      if (out.length) hops.push("typeDefinition");
    }
    return out;
  };
  return { callees };
}

/** Aliases followed from a call's name to what it was assigned (`f = g`, then `g = h`). */
const MAX_ALIAS_HOPS = 3;

/**
 * The column of the name an assignment binds its target to, when the value is a plain (dotted) name or
 * `functools.partial` of one: `append = text.append` → `append` after the dot; `get_style = partial(console.get_style,
 * …)` → `get_style`. Anything else (a call, a conditional, a subscript) is no alias: null. The checker then says what
 * that name is; this reads only which token to ask about.
 */
function aliasValue(lineText, range) {
  // (an assignment statement's target, `x` or `self.x`: not a parameter's default, `def f(cb=g)`)
  if (!/^\s*(?:[A-Za-z_]\w*\.)?$/.test(lineText.slice(0, range.start.character))) return null;
  const rest = lineText.slice(range.end.character);
  const m = /^\s*(?::[^=]+)?=\s*(?:(?:functools\.)?partial\(\s*)?([A-Za-z_][\w.]*)\s*(?:[,)#]|$)/.exec(rest);
  if (!m || rest.trimStart().startsWith("==")) return null;
  const dotted = m[1];
  const start = range.end.character + m.index + m[0].indexOf(dotted);
  return start + dotted.lastIndexOf(".") + 1;
}

function fileURLToPathSafe(uri) {
  try {
    return uri?.startsWith("file:") ? decodeURIComponent(new URL(uri).pathname) : null;
  } catch {
    return null;
  }
}

/** Starts `pyright-langserver --stdio` on a corpus and completes the LSP handshake. */
async function startServer(dir) {
  const child = spawn(process.execPath, [toolBin("pyright-langserver"), "--stdio"], {
    cwd: dir,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderr = [];
  child.stderr.on("data", (b) => stderr.push(b));
  const pending = new Map();
  let nextId = 1;
  let buf = Buffer.alloc(0);
  const send = (msg) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }));
    child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  };
  // What the server asks of the client: its settings (the analysis of the corpus, no workspace-wide diagnostics).
  const answerServer = (msg) => {
    if (msg.method === "workspace/configuration")
      return msg.params.items.map((i) =>
        i.section === "python.analysis"
          ? { diagnosticMode: "openFilesOnly", typeCheckingMode: "off", useLibraryCodeForTypes: true }
          : i.section === "python"
            ? { analysis: { diagnosticMode: "openFilesOnly", typeCheckingMode: "off", useLibraryCodeForTypes: true } }
            : null,
      );
    return null;
  };
  child.stdout.on("data", (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      const head = buf.indexOf("\r\n\r\n");
      if (head < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString())?.[1]);
      if (buf.length < head + 4 + len) return;
      const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString());
      buf = buf.subarray(head + 4 + len);
      if (msg.method && msg.id !== undefined) send({ id: msg.id, result: answerServer(msg) });
      else if (msg.id !== undefined && pending.has(msg.id)) {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.error) p.resolve(null);
        else p.resolve(msg.result);
      }
    }
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.on("exit", () => {
    for (const p of pending.values()) p.reject(new Error(`pyright-langserver exited: ${Buffer.concat(stderr)}`));
  });
  const server = {
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve(null);
        }, REQUEST_TIMEOUT_MS);
        pending.set(id, { resolve, reject, timer });
        send({ id, method, params });
      });
    },
    notify(method, params) {
      send({ method, params });
    },
    async stop() {
      try {
        await Promise.race([server.request("shutdown", null), new Promise((r) => setTimeout(r, 5000))]);
        server.notify("exit", null);
      } finally {
        const t = setTimeout(() => child.kill(), 5000);
        await exited;
        clearTimeout(t);
      }
    },
  };
  const rootUri = pathToFileURL(fs.realpathSync(dir)).href;
  await server.request("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(dir) }],
    capabilities: {
      textDocument: { definition: { linkSupport: false }, typeDefinition: { linkSupport: false } },
      workspace: { configuration: true, workspaceFolders: true },
    },
  });
  server.notify("initialized", {});
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [name, dirArg] = process.argv.slice(2);
  if (!name) {
    console.error("usage: node adjudicate.mjs <corpus name> [corpus dir]");
    process.exit(2);
  }
  const goldDir = path.join(benchCache, "gold");
  const read = (f) => JSON.parse(fs.readFileSync(path.join(goldDir, f), "utf8"));
  const gold = read(`${name}.gold.json`);
  const cand = read(`${name}.codeslice.json`);
  const { detail } = scoreGraph(gold, cand);
  const dir = dirArg ?? path.join(benchCache, "corpora", name);
  const r = await adjudicate({ name, language: gold.meta.language }, dir, gold, cand, detail.unjudged_pairs);
  console.log(JSON.stringify(r, null, 1));
}
