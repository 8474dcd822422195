/**
 * `changes` on a route (issue 24 item 2): `changes "PUT /items/{item_id}"` answers the changes to
 * the route's handler and what it reaches (its callees at any depth, a constructed class's
 * initializer, the models its signature names), not the rest of the diff, and says what it left
 * out; a route the project does not register, or a target that is no route, is refused with its
 * code. Real git repositories in temp folders, the real engine on the Node platform, the built CLI
 * (`changes "PUT /items/{item_id}"`) and the MCP tool (`target`) through a real Client.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine, type ChangesAnswer, type ChangesOptions, type EngineError } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { call, connect } from "../mcp/support.ts";
import { ensureCliBuilt, runCli } from "../support/cli.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: os.tmpdir(),
};
const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-C", root, ...args], { encoding: "utf8", env: gitEnv, stdio: ["pipe", "pipe", "pipe"] });

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

/** A FastAPI service: PUT /items/{item_id} loads the item and records an audit entry; archiving does neither. */
const V1 = {
  "app/__init__.py": "",
  "app/models.py": `from pydantic import BaseModel


class Item(BaseModel):
    id: int
    title: str
`,
  "app/audit.py": `class AuditEntry:
    def __init__(self, action: str):
        self.action = action


def record(action: str) -> AuditEntry:
    return AuditEntry(action)
`,
  "app/store.py": `from app.audit import record
from app.models import Item


def load_item(item_id: int) -> Item:
    record("load")
    return Item(id=item_id, title="")


def archive(item_id: int) -> None:
    return None


def vacuum() -> int:
    return 0
`,
  "app/main.py": `from fastapi import FastAPI

from app.models import Item
from app.store import archive, load_item

app = FastAPI()


@app.put("/items/{item_id}")
def update_item(item_id: int, item: Item) -> Item:
    current = load_item(item_id)
    return current


@app.get("/items")
def list_items() -> list:
    return []


@app.post("/items/{item_id}/archive")
def archive_item(item_id: int) -> None:
    archive(item_id)
`,
};

/** The working tree: each definition above changed once, some in the route's reach and some not. */
const V2 = {
  "app/models.py": V1["app/models.py"].replace("    title: str\n", "    title: str\n    price: float = 0\n"),
  "app/audit.py": V1["app/audit.py"].replace("self.action = action", "self.action = action.upper()"),
  "app/store.py": V1["app/store.py"]
    .replace('record("load")', 'record("load item")')
    .replace("    return None\n", "    print(item_id)\n    return None\n")
    .replace("    return 0\n", "    return 1\n"),
  "app/main.py": V1["app/main.py"].replace("    archive(item_id)\n", "    archive(item_id)\n    return None\n"),
};

/** A repository at V1 with V2 in its working tree. */
function project(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-route-changes-")));
  temps.push(root);
  git(root, "init", "-q", "-b", "main");
  write(root, V1);
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "v1");
  write(root, V2);
  return root;
}

async function changes(options: ChangesOptions): Promise<ChangesAnswer> {
  const root = project();
  const platform = await createNodePlatform({ root, cacheDir: path.join(root, ".codeslice") });
  return createEngine(platform).changes(options);
}

const summary = (a: ChangesAnswer) => a.symbols.map((s) => `${s.change} ${s.qualified}`).sort();

describe("changes on a route", () => {
  it("without a target, every changed definition", async () => {
    expect(summary(await changes({}))).toEqual([
      "body app.audit.AuditEntry.__init__",
      "body app.main.archive_item",
      "body app.models.Item",
      "body app.store.archive",
      "body app.store.load_item",
      "body app.store.vacuum",
    ]);
  });

  it("METHOD /path: the changes to its handler and what it reaches, and a note on what was left out", async () => {
    const a = await changes({ target: "PUT /items/{item_id}" });
    // load_item is called by the handler; AuditEntry.__init__ runs through record → AuditEntry(...);
    // Item is the handler's request and response model. archive, archive_item and vacuum are not reached.
    expect(summary(a)).toEqual([
      "body app.audit.AuditEntry.__init__",
      "body app.models.Item",
      "body app.store.load_item",
    ]);
    expect(a.files.map((f) => f.path).sort()).toEqual(["app/audit.py", "app/models.py", "app/store.py"]);
    expect(a.text).toContain("only the changes PUT /items/{item_id} runs: app.main.update_item");
    expect(a.text).toContain("3 other changed definitions");
    expect(a.chunks.map((c) => c.symbol)).not.toContain("app.store.vacuum");
    if (process.env.PRINT_ANSWER) console.log(a.text);
  });

  it("a route whose reach holds none of the changes says so; an unknown route and a non-route are refused", async () => {
    // The working tree changes six definitions; GET /items runs none of them.
    const none = await changes({ target: "GET /items" });
    expect(none.symbols).toEqual([]);
    expect(none.text).toContain("No changes.");
    expect(none.text).toContain(
      "Note: none of the changes is in what GET /items runs: app.main.list_items and the 0 definitions it reaches; " +
        "6 other changed definitions left out",
    );
    const unknown = (await changes({ target: "DELETE /items/{item_id}" }).catch((e) => e)) as EngineError;
    expect(unknown.code).toBe("unknown_symbol");
    expect(unknown.message).toContain("No route DELETE /items/{item_id}");
    const notRoute = (await changes({ target: "app.store.load_item" }).catch((e) => e)) as EngineError;
    expect(notRoute.code).toBe("invalid_argument");
    expect(notRoute.data).toEqual({ target: "app.store.load_item" });
  });

  it("the CLI takes the route as its argument, and the MCP tool as target", async () => {
    ensureCliBuilt();
    const root = project();
    const r = runCli(["changes", "PUT /items/{item_id}", "--root", root, "--no-server", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as ChangesAnswer;
    expect(summary(a)).toEqual([
      "body app.audit.AuditEntry.__init__",
      "body app.models.Item",
      "body app.store.load_item",
    ]);
    const unknown = runCli(["changes", "PATCH /nowhere", "--root", root, "--no-server"]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain("No route PATCH /nowhere");

    const platform = await createNodePlatform({ root, cacheDir: path.join(root, ".codeslice") });
    const session = await connect(createEngine(platform), { fs: platform.fs });
    try {
      const m = await call(session.client, "changes", { target: "PUT /items/{item_id}" });
      expect(m.isError, m.text).toBe(false);
      expect(m.data.symbols.map((x: { qualified: string }) => x.qualified).sort()).toEqual([
        "app.audit.AuditEntry.__init__",
        "app.models.Item",
        "app.store.load_item",
      ]);
      const bad = await call(session.client, "changes", { target: "app.store.load_item" });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain("METHOD /path");
    } finally {
      await session.close();
    }
  }, 120_000);
});
