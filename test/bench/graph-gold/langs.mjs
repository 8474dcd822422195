// Go, Java, Rust, C, C++, C#, PHP and Ruby accuracy corpora: public repositories pinned to a commit,
// with gold from the language's own compiler front end (Ruby: the interpreter) instead of a SCIP indexer:
//   Go     go/go (main.go): go/parser + go/types of Debian's golang-go (1.19), stdlib only
//   Java   java/GoldJava.java: javac's Tree API + Trees + javax.lang.model (JDK 17)
//   Rust   rust/gold-rust.mjs: rustc's -Zunpretty=hir-tree and thir-tree (RUSTC_BOOTSTRAP=1; the
//          rustup toolchain's rustc, no crates downloaded: the crates build without dependencies)
//   C/C++  c/gold_clang.py: clang 14's AST through libclang (Debian clang-14, python3-clang-14),
//          syntax-only (nothing is built); each corpus's compiler flags are written down below
//   Ruby   ruby/gold_ruby.rb: Debian's ruby 3.1 itself: Ripper for definitions, call sites, requires
//          and mixins; call edges observed by a TracePoint while the corpus's own test suite runs
//          (Debian ruby-test-unit / ruby-minitest / ruby-rspec); Coverage says which sites ran
//   C#     csharp/GoldCSharp.cs: NRefactory 5's C# parser + resolver (Debian libicsharpcode-nrefactory-
//          cil-dev) on Mono 6.8, with Mono's mcs compiling the corpus as the gate (mono-mcs, mono-devel)
//   PHP    php/gold-php.php: the PHP compiler's AST through php-ast (Debian php-cli 8.2, php-ast),
//          names resolved with PHP's namespace rules; nothing is run or autoloaded
// Rules: ../graph-gold/README.md ("Go", "Java", "Rust", "C and C++", "C#", "Ruby", "PHP") and the headers of those programs.
// A corpus with `subdir` is one crate of a repository: codeslice and the gold read only that folder.
//
// The clones are not made here (the benchmark machine reaches no git host): each corpus is expected
// as a git clone at <dir>/<language>/<short name> (dir: --lang-corpora, $CODESLICE_GOLD_CORPORA, or
// /work/corpora/gold), checked out at the pinned commit; a clone at another commit is checked out
// at the pin when it holds it.
// Needs: apt-get install -y golang-go default-jdk; for the Java test sources, the Debian jars listed
// in JAVA_LIBS (apt-get install -y junit4 junit5 libtruth-java libguava-java libmockito-java
// libhamcrest-java libprotobuf-java libcommons-lang3-java libcommons-io-java libcommons-text-java
// liberror-prone-java): without them more test-code call sites are unresolvable (don't-care), and
// the gold says which jars it had (meta.class_path).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchCache } from "../lib/bench-utils.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

export const LANG_CORPORA = [
  {
    name: "go-chi",
    language: "go",
    repo: "go-chi/chi",
    commit: "735ae2b87f8c733d616e809ae86e0985c1bc3350",
    short: "chi",
  },
  {
    name: "go-mux",
    language: "go",
    repo: "gorilla/mux",
    commit: "db9d1d0073d27a0a2d9a8c1bc52aa0af4374d265",
    short: "mux",
  },
  {
    name: "go-cobra",
    language: "go",
    repo: "spf13/cobra",
    commit: "adbc8813901bba65827259daa8e22ff94ec1f30e",
    short: "cobra",
  },
  {
    name: "java-gson",
    language: "java",
    repo: "google/gson",
    commit: "9835b6f90192f79cdf5300c528fc6212455fb6c1",
    short: "gson",
  },
  {
    name: "java-javapoet",
    language: "java",
    repo: "square/javapoet",
    commit: "b9017a9503b76e11b4ad4c1a9f050e2d29112cb0",
    short: "javapoet",
  },
  {
    name: "java-commons-cli",
    language: "java",
    repo: "apache/commons-cli",
    commit: "0a68ae0e826bb08eb59bda9bae7ec5d84008b62a",
    short: "commons-cli",
  },
  {
    name: "rust-regex-syntax",
    language: "rust",
    repo: "rust-lang/regex",
    commit: "2b527599eb9eea0dcc288c704584f242f26a5c61",
    short: "regex",
    subdir: "regex-syntax",
  },
  {
    name: "rust-semver",
    language: "rust",
    repo: "dtolnay/semver",
    commit: "8591f2344b52b31d85b538de58b76a676fe9ff90",
    short: "semver",
  },
  // C and C++: `clang` is what a compile_commands.json would say for each file (flags relative to
  // the corpus root; `per_dir` adds flags for the files under a path prefix; `skip` lists sources
  // that cannot compile here, whose facts are then left out of the scores on both sides).
  {
    name: "c-lua",
    language: "c",
    repo: "lua/lua",
    commit: "53b41d0cddd80bf33fdc631bdd32e3ba53842b89",
    short: "lua",
    // ltests.c is compiled only in Lua's test build (LUA_USER_H pulls in ltests.h, which sets LUA_DEBUG)
    clang: { args: ["-I.", "-DLUA_USE_LINUX"], per_dir: [["ltests.c", ['-DLUA_USER_H="ltests.h"']]] },
  },
  {
    name: "c-cjson",
    language: "c",
    repo: "DaveGamble/cJSON",
    commit: "a29814f285cc531c00223743ad3c55cd38c0dc56",
    short: "cjson",
    // cJSON's own code and tests; tests/unity/ is a vendored copy of the Unity test framework (its
    // self-tests open and close braces inside macros, which no syntax-only reader follows), left
    // out on both sides: its headers are outside the corpus, as a system library's would be
    clang: { args: ["-I.", "-Itests", "-Itests/unity/src"], skip_re: "^tests/unity/" },
  },
  {
    name: "cpp-leveldb",
    language: "cpp",
    repo: "google/leveldb",
    commit: "78a352f47ed6c1e9d750545e9b242289185b87e1",
    short: "leveldb",
    // The Windows port and the sqlite3 / Kyoto Cabinet benchmarks need what this machine lacks. The
    // googletest tests (35 files) are left out too: with gtest's headers a unit took minutes of
    // libclang on this shared machine, more than the session had; the library, its tools and
    // benchmarks are scored.
    clang: {
      args: ["-I.", "-Iinclude", "-DLEVELDB_PLATFORM_POSIX=1", "-std=c++17"],
      skip: [
        "util/env_windows.cc",
        "util/windows_logger.h",
        "benchmarks/db_bench_sqlite3.cc",
        "benchmarks/db_bench_tree_db.cc",
      ],
      skip_re: "(_test\\.cc|_test\\.c|_test_helper\\.h|^issues/.*|^util/testutil\\.(cc|h))$",
    },
  },
  // Ruby: `ruby` is how the gold runs the corpus's own suite (load path, test files, framework);
  // the gold is Ripper + a TracePoint over that run (ruby/gold_ruby.rb), nothing downloaded.
  {
    name: "ruby-rake",
    language: "ruby",
    repo: "ruby/rake",
    commit: "474500ab2eec41ef28068e18e30f84fa412a098f",
    short: "rake",
    ruby: { load_path: ["lib", "test"], tests: ["test/test_*.rb"], framework: "test-unit" },
  },
  {
    name: "ruby-thor",
    language: "ruby",
    repo: "rails/thor",
    commit: "d89dd720c8774e6ba354d9df195ef003c3bbd465",
    short: "thor",
    // rspec from Debian (ruby-rspec), webmock and diff-lcs too (ruby-webmock, ruby-diff-lcs); the spec
    // helper's coverage reporters (simplecov, coveralls) are stand-ins that do nothing (ruby/stub_coverage_gems.rb)
    ruby: {
      load_path: ["lib", "spec"],
      tests: ["spec/**/*_spec.rb"],
      framework: "rspec",
      prelude: ["stub_coverage_gems.rb"],
    },
  },
  {
    name: "cpp-tinyxml2",
    language: "cpp",
    repo: "leethomason/tinyxml2",
    commit: "3dcad8e3c38e7091ae3771bf63020027f91715ce",
    short: "tinyxml2",
    clang: { args: ["-I.", "-std=c++17"] },
  },
  // C#: `csharp` is the extractor's config: `refs` (assemblies beyond Mono's mscorlib, System, System.Core,
  // System.Xml(.Linq), System.Data), `skip`/`skip_re` (files that cannot compile, left out on both sides).
  {
    name: "csharp-litjson",
    language: "csharp",
    repo: "LitJSON/litjson",
    commit: "aa1869387c0dbec44e56958ebbdc8ede8ea8c0e4",
    short: "litjson",
    // the benchmarks compare against Jayrock and Newtonsoft.Json, which are not here; the NUnit tests build
    // against Debian's NUnit 2.6.3
    csharp: { refs: ["/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll"], skip_re: "^benchmarks/" },
  },
  {
    // 2016-07, before Sprache moved to C# 6 (nameof, interpolation), which NRefactory 5.3 cannot read
    name: "csharp-sprache",
    language: "csharp",
    repo: "sprache/Sprache",
    commit: "daa0038198d7baf06ce5c79ae1b11ad751712fc6",
    short: "sprache",
    // one assembly of all projects: their AssemblyInfo.cs files repeat the same assembly attributes, and
    // src/Files/NonWorkingLeftExpressionParser.cs is a sample kept because it does not compile
    csharp: {
      refs: ["/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll"],
      skip_re: "(^|/)Properties/AssemblyInfo\\.cs$|^src/Files/NonWorkingLeftExpressionParser\\.cs$",
    },
  },
  // PHP: corpora with no runtime Composer dependency the gold would need (it reads the AST and
  // loads nothing); FastRoute's PSR interfaces are outside the corpus, so calls into them are external.
  {
    name: "php-fastroute",
    language: "php",
    repo: "nikic/FastRoute",
    commit: "1c961398bef1ff6ecd8b273bef651d7afe90312b",
    short: "fastroute",
  },
  {
    name: "php-inflector",
    language: "php",
    repo: "doctrine/inflector",
    commit: "5817d0659c5b50c9b950feb9af7b9668e2c436bc",
    short: "inflector",
  },
  {
    name: "php-parsedown",
    language: "php",
    repo: "erusev/parsedown",
    commit: "4e433a8d57078645b55d21fd12c887d3ba6ca01e",
    short: "parsedown",
  },
];

/** Libraries of the Java corpora's tests and annotations, from Debian (used when present). */
export const JAVA_LIBS = [
  "junit4",
  "junit-jupiter-api",
  "junit-jupiter-params",
  "opentest4j",
  "apiguardian-api",
  "truth",
  "guava",
  "mockito-core",
  "hamcrest",
  "protobuf",
  "commons-lang3",
  "commons-io",
  "commons-text",
  "error_prone_annotations",
].map((n) => `/usr/share/java/${n}.jar`);

const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30, ...opts }).trim();

export const defaultLangCorporaDir = () => process.env.CODESLICE_GOLD_CORPORA || "/work/corpora/gold";

/** The clone of a pinned corpus, checked out at its commit; throws with what to do when missing. */
export function prepareLangCorpus(spec, dir) {
  const clone = path.join(dir, spec.language, spec.short);
  const how = `clone the GitHub repository ${spec.repo} into ${clone} and check out ${spec.commit}`;
  if (!fs.existsSync(path.join(clone, ".git"))) throw new Error(`${spec.name}: no clone at ${clone}; ${how}`);
  const head = sh("git", ["rev-parse", "HEAD"], { cwd: clone });
  if (head !== spec.commit) {
    if (sh("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: clone }) !== "")
      throw new Error(`${spec.name}: ${clone} has local changes`);
    try {
      sh("git", ["checkout", "-q", spec.commit], { cwd: clone });
    } catch {
      throw new Error(`${spec.name}: ${clone} is at ${head} and lacks ${spec.commit}; ${how}`);
    }
  }
  return spec.subdir ? path.join(clone, spec.subdir) : clone;
}

export function toolVersions(specs) {
  const v = {};
  if (specs.some((s) => s.language === "go")) v.go = sh("go", ["version"]).replace(/^go version /, "");
  if (specs.some((s) => s.language === "java")) v.javac = sh("javac", ["-version"]).replace(/^javac /, "");
  if (specs.some((s) => s.language === "rust")) v.rustc = sh("rustc", ["--version"]).replace(/^rustc /, "");
  if (specs.some((s) => s.language === "ruby"))
    v.ruby = sh("ruby", ["--version"])
      .replace(/^ruby /, "")
      .split(" ")[0];
  if (specs.some((s) => s.language === "php"))
    v.php = `${sh("php", ["-r", "echo PHP_VERSION;"])} with php-ast ${sh("php", ["-r", "echo phpversion('ast');"])}`;
  if (specs.some((s) => s.language === "c" || s.language === "cpp"))
    v.clang = sh("clang", ["--version"])
      .split("\n")[0]
      .replace(/^.*clang version /, "");
  if (specs.some((s) => s.language === "csharp"))
    v.mono = sh("mono", ["--version"])
      .split("\n")[0]
      .replace(/^Mono JIT compiler version (\S+).*$/, "$1");
  return v;
}

const hashOf = (files) => {
  const h = crypto.createHash("sha256");
  for (const f of files) h.update(fs.readFileSync(f));
  return h.digest("hex").slice(0, 12);
};

const EXPORTS = ["--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED"];

/** Builds the extractor of a language into the bench cache (once per source hash). */
function ensureExtractor(language) {
  const toolsDir = path.join(benchCache, "tools");
  if (language === "rust") {
    const src = path.join(here, "rust", "gold-rust.mjs");
    const rustc = sh("rustc", ["--version"]);
    return {
      hash: `${hashOf([src])}-${crypto.createHash("sha256").update(rustc).digest("hex").slice(0, 8)}`,
      cmd: (corpus) => [process.execPath, [src, corpus]],
    };
  }
  if (language === "ruby") {
    // Ruby itself runs the corpus's test suite under a TracePoint: nothing to build; the config is in the cache key
    const script = path.join(here, "ruby", "gold_ruby.rb");
    const prelude = fs
      .readdirSync(path.join(here, "ruby"))
      .filter((f) => f.endsWith(".rb"))
      .sort()
      .map((f) => path.join(here, "ruby", f));
    const ruby = sh("ruby", ["--version"]);
    return {
      hash: `${hashOf(prelude)}-${crypto.createHash("sha256").update(ruby).digest("hex").slice(0, 8)}`,
      cmd: (corpus, spec) => ["ruby", [script, corpus, JSON.stringify(spec.ruby)]],
    };
  }
  if (language === "php") {
    // PHP over php-ast: nothing to build; PHP's and php-ast's versions are part of the cache key
    const script = path.join(here, "php", "gold-php.php");
    let versions;
    try {
      versions = sh("php", ["-r", "echo PHP_VERSION, ' ', phpversion('ast');"]);
    } catch {
      throw new Error("PHP gold needs `apt-get install -y php-cli php-ast`");
    }
    if (/ $/.test(versions)) throw new Error("PHP gold needs the php-ast extension: `apt-get install -y php-ast`");
    return {
      hash: `${hashOf([script])}-${crypto.createHash("sha256").update(versions).digest("hex").slice(0, 8)}`,
      cmd: (corpus) => ["php", ["-d", "memory_limit=2G", "-d", "xdebug.mode=off", script, corpus]],
    };
  }
  if (language === "c" || language === "cpp") {
    // Python over libclang: nothing to build; the config (flags) is part of the cache key
    const script = path.join(here, "c", "gold_clang.py");
    if (!fs.existsSync("/usr/lib/python3/dist-packages/clang/cindex.py"))
      throw new Error("C/C++ gold needs `apt-get install -y clang-14 python3-clang-14`");
    return {
      hash: hashOf([script]),
      cmd: (corpus, spec) => ["/usr/bin/python3", [script, corpus, JSON.stringify({ language, ...spec.clang })]],
    };
  }
  if (language === "csharp") {
    // one C# program on NRefactory, compiled with mcs; it runs mcs on the corpus as its gate
    const src = path.join(here, "csharp", "GoldCSharp.cs");
    const lib = (n) => `/usr/lib/cli/ICSharpCode.NRefactory${n}-5.0/ICSharpCode.NRefactory${n}.dll`;
    const libs = [lib(""), lib(".CSharp"), lib(".Cecil")];
    if (!libs.every((l) => fs.existsSync(l)))
      throw new Error(
        "C# gold needs `apt-get install -y mono-mcs mono-devel libicsharpcode-nrefactory-cil-dev libnunit-cil-dev`",
      );
    const hash = hashOf([src]);
    const out = path.join(toolsDir, `gold-csharp-${hash}`);
    const exe = path.join(out, "gold-csharp.exe");
    if (!fs.existsSync(exe)) {
      console.error(`compiling the C# gold extractor into ${out}`);
      fs.mkdirSync(out, { recursive: true });
      for (const l of libs) fs.copyFileSync(l, path.join(out, path.basename(l)));
      execFileSync("mcs", ["-nowarn:0618", `-out:${exe}`, ...libs.map((l) => `-r:${l}`), src], {
        stdio: ["ignore", "inherit", "inherit"],
      });
    }
    return { hash, cmd: (corpus, spec) => ["mono", [exe, corpus, JSON.stringify(spec.csharp ?? {})]] };
  }
  if (language === "go") {
    const src = path.join(here, "go");
    const hash = hashOf([path.join(src, "main.go"), path.join(src, "go.mod")]);
    const bin = path.join(toolsDir, `gold-go-${hash}`);
    if (!fs.existsSync(bin)) {
      console.error(`building the Go gold extractor into ${bin}`);
      execFileSync("go", ["build", "-buildvcs=false", "-o", bin, "."], {
        cwd: src,
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, GOFLAGS: "-mod=mod", GOPROXY: "off", GO111MODULE: "on" },
      });
    }
    return { hash, cmd: (corpus) => [bin, [corpus]] };
  }
  const src = path.join(here, "java", "GoldJava.java");
  const hash = hashOf([src]);
  const out = path.join(toolsDir, `gold-java-${hash}`);
  if (!fs.existsSync(path.join(out, "GoldJava.class"))) {
    console.error(`compiling the Java gold extractor into ${out}`);
    fs.mkdirSync(out, { recursive: true });
    execFileSync("javac", [...EXPORTS, "-Xlint:-options", "-nowarn", "-d", out, src], {
      stdio: ["ignore", "inherit", "inherit"],
    });
  }
  return { hash, cmd: (corpus) => ["java", [...EXPORTS, "-Xmx3g", "-cp", out, "GoldJava", corpus]] };
}

/**
 * The gold graph of a Go or Java corpus; cached by extractor hash, corpus commit and class path.
 * @returns {{ gold: object, seconds: number, cached: boolean }}
 */
export function deriveLangGold(spec, dir, { fresh = false } = {}) {
  const tool = ensureExtractor(spec.language);
  const classPath = spec.language === "java" ? JAVA_LIBS.filter((j) => fs.existsSync(j)) : [];
  const key = crypto
    .createHash("sha256")
    .update(
      `${tool.hash}|${sh("git", ["rev-parse", "HEAD^{tree}"], { cwd: dir })}|${classPath.join(":")}|${JSON.stringify(spec.clang ?? spec.ruby ?? spec.csharp ?? null)}`,
    )
    .digest("hex")
    .slice(0, 16);
  const cacheFile = path.join(benchCache, "gold", `${spec.name}.${key}.gold-cache.json`);
  if (!fresh && fs.existsSync(cacheFile)) {
    const c = JSON.parse(fs.readFileSync(cacheFile, "utf8"));
    return { gold: c.gold, seconds: c.seconds, cached: true };
  }
  const [cmd, args] = tool.cmd(dir, spec);
  const t0 = Date.now();
  const out = execFileSync("nice", ["-n", "10", cmd, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, GOLD_JAVA_CLASSPATH: classPath.join(":") },
  });
  const seconds = (Date.now() - t0) / 1000;
  const gold = JSON.parse(out);
  gold.meta.class_path = classPath.map((j) => path.basename(j));
  gold.meta.repo = `${spec.repo}@${spec.commit}`;
  fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
  fs.writeFileSync(cacheFile, JSON.stringify({ seconds, gold }));
  return { gold, seconds, cached: false };
}

const C_FAMILY = [".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp"];
const EXTENSIONS = {
  go: [".go"],
  java: [".java"],
  rust: [".rs"],
  c: C_FAMILY,
  cpp: C_FAMILY,
  ruby: [".rb", ".rake", ".gemspec", ".ru"],
  csharp: [".cs"],
  php: [".php"],
};

/** Keeps the candidate's facts about files of the corpus' language (commons-cli ships a .js file
 *  in its site folder: the gold covers only the language's own files), and, when the gold lists the
 *  files the compiler read (`meta.files`: Rust targets that failed to build, e.g. benches needing a
 *  crate from crates.io, are not in it), only those; less the files the gold could not compile
 *  (`meta.skipped_files`, C/C++). Returns how many were dropped. */
export function restrictToLanguage(cand, language, gold) {
  const files = Array.isArray(gold?.meta?.files) ? new Set(gold.meta.files) : null;
  const skip = new Set(gold?.meta?.skipped_files ?? []);
  const ok = (file) =>
    !skip.has(file) && EXTENSIONS[language].some((x) => file.endsWith(x)) && (!files || files.has(file));
  const fileOf = (qualified) => qualified.split("#")[0];
  const before = cand.definitions.length + cand.call_edges.length + cand.import_edges.length + cand.inherits.length;
  cand.definitions = cand.definitions.filter((d) => ok(d.file));
  cand.call_edges = cand.call_edges.filter((e) => ok(e.file) && ok(fileOf(e.callee)));
  cand.import_edges = cand.import_edges.filter((e) => ok(e.from) && ok(e.to));
  cand.inherits = cand.inherits.filter((e) => ok(fileOf(e.child)) && ok(fileOf(e.base)));
  return before - (cand.definitions.length + cand.call_edges.length + cand.import_edges.length + cand.inherits.length);
}
