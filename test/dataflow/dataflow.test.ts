/**
 * dataflow on route handlers of four fixture projects (Flask, FastAPI, Express, Hono) with the
 * real grammars and graph. Each question's expected answer was worked out by reading the fixture
 * (see fixtures.ts): which sink calls user input reaches and which it does not, where a value
 * comes from and where it goes, and what cannot be followed. Lines are named by the markers on
 * them, so nothing here is copied from an answer.
 */
import { describe, expect, it } from "vitest";
import type { DataflowAnswer } from "../../src/index.ts";
import { errorOf, memoryEngine } from "../support/platform.ts";
import { EXPRESS, FASTAPI, FLASK, HONO, lineOf } from "./fixtures.ts";

interface Question {
  ask: string;
  fixture: string;
  target: string;
  variable?: string;
  /** A marker: the question is about that line. */
  at?: string;
  /** Sink lines (markers) input reaches, exactly; and sink lines it must not reach. */
  reached?: string[];
  notReached?: string[];
  /** Lines (markers) some origin chain passes through, and lines no chain may hold. */
  origins?: string[];
  notOrigins?: string[];
  /** Lines (markers) the value goes to. */
  uses?: string[];
  /** Lines (markers) listed as not followed. */
  unknown?: string[];
}

const Q: Question[] = [
  {
    ask: "does the JSON body of POST /users/search reach a SQL call?",
    fixture: FLASK,
    target: "POST /users/search",
    reached: ["find_exec"],
  },
  {
    ask: "where does name come from when it is passed to find_user?",
    fixture: FLASK,
    target: "app.views.search_users",
    variable: "name",
    at: "search_call",
    origins: ["search_src", "search_name"],
  },
  {
    ask: "where does name go after the handler reads it?",
    fixture: FLASK,
    target: "app.views.search_users",
    variable: "name",
    at: "search_name",
    uses: ["search_call", "find_exec"],
  },
  {
    ask: "does the URL or query string of GET /ping/<host> reach subprocess.run?",
    fixture: FLASK,
    target: "GET /ping/<host>",
    reached: ["ping_run"],
  },
  {
    ask: "where do the values passed to subprocess.run come from?",
    fixture: FLASK,
    target: "app.views.ping",
    at: "ping_run",
    origins: ["ping_param", "ping_count", "ping_cmd"],
  },
  {
    ask: "does user input reach the SQL call of GET /stats?",
    fixture: FLASK,
    target: "GET /stats",
    reached: [],
    notReached: ["stats_exec"],
  },
  {
    ask: "which bindings of limit reach the SQL call in stats?",
    fixture: FLASK,
    target: "app.views.stats",
    variable: "limit",
    at: "stats_exec",
    origins: ["stats_limit", "stats_branch"],
  },
  {
    ask: "does the form data of POST /notes reach a file write, and the file name?",
    fixture: FLASK,
    target: "POST /notes",
    reached: ["note_write"],
    notReached: ["note_open"],
    unknown: ["note_dyn"],
  },
  {
    ask: "does the form field reach the audit inserts, when make_stamp returns a constant?",
    fixture: FLASK,
    target: "POST /audit",
    reached: ["audit_exec"],
    notReached: ["audit_seen"],
  },
  {
    ask: "where does stamp come from in audit?",
    fixture: FLASK,
    target: "app.views.audit",
    variable: "stamp",
    at: "audit_seen",
    origins: ["audit_stamp"],
  },
  {
    ask: "does the email path parameter reach a SQL call?",
    fixture: FASTAPI,
    target: "GET /users/by-email/{email}",
    reached: ["crud_exec"],
  },
  {
    ask: "does the term query parameter reach raw SQL text?",
    fixture: FASTAPI,
    target: "GET /users/search",
    reached: ["raw_text", "raw_exec"],
  },
  {
    ask: "where does cleaned come from when search calls raw_lookup?",
    fixture: FASTAPI,
    target: "app.routes.search",
    variable: "cleaned",
    at: "search_call",
    origins: ["search_param", "search_clean"],
  },
  {
    ask: "does request data reach the query of GET /users/me (the owner is the logged-in user)?",
    fixture: FASTAPI,
    target: "GET /users/me",
    reached: [],
    notReached: ["me_exec"],
  },
  {
    ask: "where does owner come from in read_me?",
    fixture: FASTAPI,
    target: "app.routes.read_me",
    variable: "owner",
    at: "me_exec",
    origins: ["me_owner"],
    uses: ["me_exec"],
  },
  {
    ask: "does the :customer path parameter reach SQL (through findOrders)?",
    fixture: EXPRESS,
    target: "GET /orders/:customer",
    reached: ["orders_query"],
  },
  {
    ask: "where does customer come from when findOrders is called?",
    fixture: EXPRESS,
    target: "GET /orders/:customer",
    variable: "customer",
    at: "orders_call",
    origins: ["orders_param"],
    notOrigins: ["orders_status"],
  },
  {
    ask: "does the body of POST /backup reach exec, the file write, the response?",
    fixture: EXPRESS,
    target: "POST /backup",
    reached: ["backup_exec"],
    notReached: ["backup_write"],
  },
  {
    ask: "where does target come from in the backup handler?",
    fixture: EXPRESS,
    target: "POST /backup",
    variable: "target",
    at: "backup_exec",
    origins: ["backup_dir", "backup_target"],
  },
  {
    ask: "does user input reach the SQL and HTML of GET /health?",
    fixture: EXPRESS,
    target: "health",
    reached: [],
    notReached: ["health_query", "health_send"],
  },
  {
    ask: "does the name query parameter reach the HTML response of GET /greet?",
    fixture: EXPRESS,
    target: "GET /greet",
    reached: ["greet_send"],
  },
  {
    ask: "which bindings of name reach the HTML string in greet?",
    fixture: EXPRESS,
    target: "GET /greet",
    variable: "name",
    at: "greet_html",
    origins: ["greet_init", "greet_branch"],
    uses: ["greet_html"],
  },
  {
    ask: "does the JSON body of POST /posts reach SQL, and the prepared text itself?",
    fixture: HONO,
    target: "POST /posts",
    reached: ["posts_run"],
    notReached: ["posts_prepare"],
  },
  {
    ask: "does the :tag parameter reach the SQL text (through buildFilter)?",
    fixture: HONO,
    target: "GET /posts/:tag",
    reached: ["tag_all", "tag_html"],
  },
  {
    ask: "where does where come from in GET /posts/:tag?",
    fixture: HONO,
    target: "GET /posts/:tag",
    variable: "where",
    at: "tag_all",
    origins: ["tag_param", "tag_where"],
  },
  {
    ask: "does user input reach the HTML of GET /about?",
    fixture: HONO,
    target: "GET /about",
    reached: [],
    notReached: ["about_html"],
  },
];

const lines = (fixture: string, markers: string[] | undefined) =>
  (markers ?? []).map((m) => {
    const l = lineOf(fixture, m);
    return `${l.path}:${l.line}`;
  });
const at = (s: { path: string; line: number }) => `${s.path}:${s.line}`;

async function ask(q: Question): Promise<DataflowAnswer> {
  const { engine } = memoryEngine(q.fixture);
  return engine.dataflow(q.target, {
    ...(q.variable ? { variable: q.variable } : {}),
    ...(q.at ? { line: lineOf(q.fixture, q.at).line } : {}),
  });
}

describe("dataflow answers hand-checked questions on route handlers", () => {
  it(`asks ${Q.length} questions (at least 20)`, () => expect(Q.length).toBeGreaterThanOrEqual(20));
  for (const q of Q) {
    it(q.ask, async () => {
      const a = await ask(q);
      if (q.reached)
        expect(
          a.sinks
            .filter((s) => s.reached)
            .map(at)
            .sort(),
        ).toEqual([...new Set(lines(q.fixture, q.reached))].sort());
      for (const l of lines(q.fixture, q.notReached))
        expect(
          a.sinks.find((s) => at(s) === l),
          `${l} listed, not reached`,
        ).toMatchObject({ reached: false });
      const originLines = new Set((a.origins ?? []).flat().map(at));
      for (const l of lines(q.fixture, q.origins)) expect(originLines, `origin ${l}`).toContain(l);
      for (const l of lines(q.fixture, q.notOrigins)) expect(originLines).not.toContain(l);
      const useLines = new Set((a.uses ?? []).map(at));
      for (const l of lines(q.fixture, q.uses)) expect(useLines, `use ${l}`).toContain(l);
      const unknown = new Set(a.unknown.map(at));
      for (const l of lines(q.fixture, q.unknown)) expect(unknown, `unknown ${l}`).toContain(l);
      // Every step of every reached chain is cited, and the text cites each reached sink.
      for (const s of a.sinks.filter((x) => x.reached)) {
        expect(s.steps.at(-1)!.kind).toBe("sink");
        if (!q.variable) expect(a.text).toContain(`${s.path}:${s.line}`);
      }
    });
  }
});

describe("dataflow says what it cannot follow and refuses what it cannot read", () => {
  it("a value that passes through an unresolved call says it is assumed to pass on", async () => {
    const a = await ask({ ask: "", fixture: EXPRESS, target: "GET /greet" });
    const steps = a.sinks.find((s) => s.reached)!.steps.filter((s) => s.line === lineOf(EXPRESS, "greet_branch").line);
    expect(steps.map((s) => s.kind)).toEqual(["input", "assumed"]);
    const step = steps[1]!;
    expect(step.what).toMatch(/String.*cannot resolve: assumed to pass its argument on/);
  });
  it("input passed to an unresolved call whose result goes nowhere is listed as not followed", async () => {
    const a = await ask({
      ask: "",
      fixture: `
      #- app.py
      from flask import request
      @app.route("/hook", methods=["POST"])
      def hook():
          payload = request.json
          queue.push(payload)  # M:push
          return "ok"
    `,
      target: "POST /hook",
    });
    expect(a.unknown.map((s) => s.line)).toEqual([5]);
    expect(a.text).toContain("not followed (unknown):");
  });
  it("an unknown target is unknown_symbol with suggestions", async () => {
    const { engine } = memoryEngine(FLASK);
    expect((await errorOf(engine.dataflow("serch_users"))).code).toBe("unknown_symbol");
  });
  it("a class is not a function: invalid_argument not_a_function", async () => {
    const { engine } = memoryEngine(`
      #- m.py
      class Box:
          size = 1
    `);
    const e = await errorOf(engine.dataflow("Box"));
    expect(e.code).toBe("invalid_argument");
    expect(e.data).toMatchObject({ reason: "not_a_function" });
  });
  it("a language data flow does not read is refused with the languages it reads", async () => {
    const { engine } = memoryEngine(`
      #- main.go
      package main
      func Handle(x int) int { return x }
    `);
    const e = await errorOf(engine.dataflow("Handle"));
    expect(e.data).toMatchObject({ reason: "unsupported_language" });
  });
  it("line 0 is invalid_argument", async () => {
    const { engine } = memoryEngine(FLASK);
    expect((await errorOf(engine.dataflow("app.views.ping", { line: 0 }))).code).toBe("invalid_argument");
  });
});

describe("dataflow on a long handler", () => {
  it("lists at most 40 unknown steps and counts the rest", async () => {
    const calls = Array.from({ length: 60 }, (_, i) => `    hook${i}(data)`).join("\n");
    const { engine } = memoryEngine({
      "app.py": `from flask import request\n\n@app.route("/many", methods=["POST"])\ndef many():\n    data = request.json\n${calls}\n    return "ok"\n`,
    });
    const a = await engine.dataflow("POST /many");
    expect(a.unknown).toHaveLength(40);
    expect(a.unknownMore).toBe(20);
    expect(a.text).toContain("… and 20 more");
  });
});
