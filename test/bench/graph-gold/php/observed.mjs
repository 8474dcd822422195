// Observed call edges of a PHP corpus: its PHPUnit suite run under Xdebug's function trace, each
// traced call of a corpus function or method from a corpus file read as (caller, callee, file,
// line). A second, independent check of the static gold (gold-php.php) and of codeslice:
//
//   node observed.mjs <corpus-dir> <gold.json> <codeslice.json> [--out observed.json]
//
// Needs `apt-get install -y php-cli php-xdebug phpunit` (Debian's PHPUnit 9.6; a suite that needs
// PHPUnit 10 or Composer packages does not run here, e.g. FastRoute's). The corpus classes load
// through a PSR-4 / PSR-0 autoloader written from its composer.json (there is no vendor/).
//
// Rules. A traced call is kept when the callee is a corpus definition (a method is looked up by the
// declaring class Xdebug names, through used traits when the method was copied in) and the call
// site (the file and line Xdebug gives) is a corpus file. The caller is the innermost gold
// definition whose lines hold the site (closures transparent, as in the gold). A `__construct` call
// also stands for the class (codeslice and the gold link `new X` to X). Scores, for any graph:
//   recall     observed (caller, callee) pairs the graph has (its call and dispatch edges);
//   precision  over the call sites that ran (a (file, line) with a traced call): the graph's edges
//              at those sites whose callee was observed there. Sites that never ran are not scored.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

/** A bootstrap that autoloads the corpus from its composer.json (autoload and autoload-dev). */
function bootstrap(corpus) {
  const composer = JSON.parse(fs.readFileSync(path.join(corpus, "composer.json"), "utf8"));
  const psr4 = [],
    psr0 = [],
    files = [];
  for (const section of ["autoload", "autoload-dev"]) {
    const a = composer[section] ?? {};
    for (const [p, d] of Object.entries(a["psr-4"] ?? {}))
      for (const dir of [d].flat()) psr4.push([p, path.join(corpus, dir)]);
    for (const [p, d] of Object.entries(a["psr-0"] ?? {}))
      for (const dir of [d].flat()) psr0.push([p, path.join(corpus, dir)]);
    for (const f of a.files ?? []) files.push(path.join(corpus, f));
  }
  return `<?php
require_once '/usr/share/php/PHPUnit/Autoload.php';
$psr4 = ${JSON.stringify(psr4)}; $psr0 = ${JSON.stringify(psr0)};
spl_autoload_register(function ($class) use ($psr4, $psr0) {
  foreach ($psr4 as [$p, $d]) if (strncmp($class, $p, strlen($p)) === 0) { $f = $d . '/' . str_replace('\\\\', '/', substr($class, strlen($p))) . '.php'; if (is_file($f)) { require $f; return; } }
  foreach ($psr0 as [$p, $d]) if (strncmp($class, $p, strlen($p)) === 0) { $f = $d . '/' . str_replace(['\\\\', '_'], '/', $class) . '.php'; if (is_file($f)) { require $f; return; } }
});
${files.map((f) => `require_once ${JSON.stringify(f)};`).join("\n")}
`;
}

/** Runs the suite under the trace; returns the trace file. */
function runTraced(corpus, dir) {
  const boot = path.join(dir, "bootstrap.php");
  fs.writeFileSync(boot, bootstrap(corpus));
  const args = [
    "-d",
    "xdebug.mode=trace",
    "-d",
    "xdebug.start_with_request=yes",
    "-d",
    "xdebug.trace_format=1",
    "-d",
    `xdebug.output_dir=${dir}`,
    "-d",
    "xdebug.trace_output_name=trace",
    "-d",
    "memory_limit=2G",
    "/usr/bin/phpunit",
    "--bootstrap",
    boot,
    "--no-coverage",
    "--do-not-cache-result",
  ];
  try {
    const log = execFileSync("php", args, {
      cwd: corpus,
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 26,
      encoding: "utf8",
    });
    process.stderr.write(`${log.trim().split("\n").at(-1)}\n`);
  } catch (e) {
    process.stderr.write(
      `${String(e.stdout ?? "")
        .trim()
        .split("\n")
        .at(-1)}\nphpunit exited ${e.status}: failing tests still leave their calls in the trace\n`,
    );
  }
  const trace = fs.readdirSync(dir).find((f) => f.startsWith("trace"));
  if (!trace) throw new Error("no Xdebug trace was written (is php-xdebug installed?)");
  return path.join(dir, trace);
}

/** Observed edges from a trace, mapped onto the gold's definitions. */
async function observe(corpus, gold, traceFile) {
  const root = fs.realpathSync(corpus) + "/";
  const defs = gold.definitions;
  const byFile = new Map();
  for (const d of defs) (byFile.get(d.file) ?? byFile.set(d.file, []).get(d.file)).push(d);
  const qualified = new Set(defs.map((d) => d.qualified));
  // class FQ name (lower case) -> qualified: `src/Route.php#FastRoute.Route` is FastRoute\Route
  const classes = new Map();
  for (const d of defs) {
    if (!["class", "interface", "trait", "enum"].includes(d.kind)) continue;
    const q = d.qualified.split("#")[1];
    classes.set(q.replace(/\./g, "\\").toLowerCase(), d.qualified);
  }
  const functions = new Map();
  for (const d of defs)
    if (d.kind === "function") functions.set(d.qualified.split("#")[1].replace(/\./g, "\\").toLowerCase(), d.qualified);
  const bases = new Map();
  for (const e of gold.inherits) (bases.get(e.child) ?? bases.set(e.child, []).get(e.child)).push(e.base);
  const methodOf = (cls, m, seen = new Set()) => {
    if (!cls || seen.has(cls)) return undefined;
    seen.add(cls);
    const q = `${cls}.${m}`;
    if (qualified.has(q)) return q;
    for (const b of bases.get(cls) ?? []) {
      const x = methodOf(b, m, seen);
      if (x) return x;
    }
    return undefined;
  };
  const calleeOf = (fn) => {
    const m = /^(.+?)(->|::)(\w+)$/.exec(fn);
    if (m) {
      const q = methodOf(classes.get(m[1].toLowerCase()), m[3]);
      return q
        ? { q, cls: m[3].toLowerCase() === "__construct" ? classes.get(m[1].toLowerCase()) : undefined }
        : undefined;
    }
    const f = functions.get(fn.toLowerCase());
    return f ? { q: f } : undefined;
  };
  const callerOf = (file, line) => {
    let best;
    for (const d of byFile.get(file) ?? []) {
      const start = d.first_line ?? d.start_line;
      if (
        start <= line &&
        line <= d.end_line &&
        (!best || d.end_line - start < best.end_line - (best.first_line ?? best.start_line))
      )
        best = d;
    }
    return best?.qualified;
  };
  const pairs = new Map(); // "caller -> callee" -> count
  const sites = new Map(); // "file:line" -> Set(callee qualified, and the class for __construct)
  let traced = 0,
    kept = 0;
  const rl = readline.createInterface({ input: fs.createReadStream(traceFile), crlfDelay: Infinity });
  for await (const line of rl) {
    const f = line.split("\t");
    if (f[2] !== "0" || f.length < 10) continue;
    traced++;
    const file = f[8];
    if (!file.startsWith(root)) continue;
    const rel = file.slice(root.length);
    const at = Number(f[9]);
    const site = `${rel}:${at}`;
    if (!sites.has(site)) sites.set(site, new Set());
    if (f[6] !== "1") continue; // an internal function
    const callee = calleeOf(f[5]);
    if (!callee) continue;
    const caller = callerOf(rel, at);
    if (!caller) continue;
    kept++;
    sites.get(site).add(callee.q);
    if (callee.cls) sites.get(site).add(callee.cls);
    const k = `${caller} -> ${callee.q}`;
    pairs.set(k, (pairs.get(k) ?? 0) + 1);
    if (callee.cls) pairs.set(`${caller} -> ${callee.cls}`, (pairs.get(`${caller} -> ${callee.cls}`) ?? 0) + 1);
  }
  return { traced, kept, pairs, sites };
}

/**
 * Whether a graph's callee stands for an observed one: the same definition; or, since the graph
 * resolves statically and the run dispatches dynamically, the same-named method declared on a class
 * above the observed method's class (`$this->factory->build()` typed by an interface, run on an
 * implementation); or, for a constructor, a class at or below the class whose `__construct` ran
 * (Xdebug names the class that declares the constructor).
 */
function matcher(gold) {
  const bases = new Map();
  for (const e of gold.inherits) (bases.get(e.child) ?? bases.set(e.child, []).get(e.child)).push(e.base);
  const above = (cls, anc, depth = 0) =>
    cls === anc || (depth < 20 && (bases.get(cls) ?? []).some((b) => above(b, anc, depth + 1)));
  const kinds = new Map(gold.definitions.map((d) => [d.qualified, d.kind]));
  const split = (q) => [q.slice(0, q.lastIndexOf(".")), q.slice(q.lastIndexOf(".") + 1)];
  return (candidate, observed) => {
    if (candidate === observed) return true;
    const [oc, om] = split(observed);
    if (om === "__construct" && ["class", "enum"].includes(kinds.get(candidate))) return above(candidate, oc);
    const [cc, cm] = split(candidate);
    return cm === om && kinds.get(candidate) !== "function" && above(oc, cc);
  };
}

/** Recall over observed pairs and precision over executed sites, for one graph's edges. */
export function scoreObserved(obs, edges, gold) {
  const match = matcher(gold);
  const byCaller = new Map();
  for (const e of edges) (byCaller.get(e.caller) ?? byCaller.set(e.caller, new Set()).get(e.caller)).add(e.callee);
  // an observed constructor call is one pair: its __construct (the class pair it also made is dropped)
  const observed = [...obs.pairs.keys()].filter((k) => !obs.pairs.has(`${k}.__construct`));
  const found = observed.filter((k) => {
    const [caller, callee] = k.split(" -> ");
    return [...(byCaller.get(caller) ?? [])].some((c) => match(c, callee));
  }).length;
  let atRun = 0,
    right = 0;
  const seen = new Set();
  for (const e of edges) {
    const site = `${e.file}:${e.line}`;
    const key = `${site} ${e.callee}`;
    if (seen.has(key) || !obs.sites.has(site)) continue;
    seen.add(key);
    atRun++;
    if ([...obs.sites.get(site)].some((o) => match(e.callee, o))) right++;
  }
  const r4 = (x) => Math.round(x * 10000) / 10000;
  return {
    recall: r4(found / Math.max(1, observed.length)),
    found,
    observed: observed.length,
    precision_at_run_sites: r4(right / Math.max(1, atRun)),
    right,
    at_run_sites: atRun,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [corpus, goldFile, candFile] = process.argv.slice(2);
  const out = process.argv.includes("--out") ? process.argv[process.argv.indexOf("--out") + 1] : undefined;
  if (!corpus || !goldFile || !candFile) {
    console.error("usage: node observed.mjs <corpus-dir> <gold.json> <codeslice.json> [--out observed.json]");
    process.exit(2);
  }
  // --from observed.json: score again from a saved observation instead of running the suite
  const from = process.argv.includes("--from") ? process.argv[process.argv.indexOf("--from") + 1] : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "php-observed-"));
  try {
    const t0 = Date.now();
    const gold = JSON.parse(fs.readFileSync(goldFile, "utf8"));
    const cand = JSON.parse(fs.readFileSync(candFile, "utf8"));
    let obs;
    if (from) {
      const saved = JSON.parse(fs.readFileSync(from, "utf8"));
      obs = {
        traced: saved.traced_calls,
        kept: saved.corpus_calls,
        pairs: new Map(saved.pairs.map((p) => [p, 1])),
        sites: new Map(saved.executed.map((k) => [k, new Set(saved.sites[k] ?? [])])),
      };
    } else obs = await observe(corpus, gold, runTraced(corpus, dir));
    const report = {
      corpus: path.basename(corpus),
      seconds: (Date.now() - t0) / 1000,
      traced_calls: obs.traced,
      corpus_calls: obs.kept,
      observed_pairs: obs.pairs.size,
      executed_sites: obs.sites.size,
      codeslice: scoreObserved(obs, [...cand.call_edges, ...(cand.dispatch_edges ?? [])], gold),
      static_gold: scoreObserved(obs, gold.call_edges, gold),
    };
    if (out) {
      const sites = Object.fromEntries([...obs.sites].filter(([, c]) => c.size).map(([k, c]) => [k, [...c].sort()]));
      fs.writeFileSync(
        out,
        JSON.stringify(
          { ...report, pairs: [...obs.pairs.keys()].sort(), executed: [...obs.sites.keys()].sort(), sites },
          null,
          1,
        ),
      );
    }
    console.log(JSON.stringify(report, null, 1));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
