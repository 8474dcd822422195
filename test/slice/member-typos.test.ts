/**
 * Names that are nearly right: a target whose last part is a member name misspelled (a swap, a
 * missing or extra letter; Damerau–Levenshtein distance 2 at most, any length) is an
 * `unknown_symbol` whose first suggestion is that member, and suggestions are ranked by similarity,
 * not by where members are declared. A dotted name is read as a file path only when it looks like
 * one (a `/`, or a source file extension).
 */
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine } from "../support/platform.ts";

const project = `
#- net/client.py
class Client:
    """An HTTP client."""

    def __init__(self, base):
        self.base = base

    def close(self):
        pass

    def request(self, method, url):
        return self.send(self.build_request(method, url))

    def stream(self, method, url):
        pass

    def build_request(self, method, url):
        return (method, url)

    def get(self, url):
        return self.request("GET", url)

    def post(self, url):
        return self.request("POST", url)

    def send(self, request):
        return request

    def end(self):
        pass
#- net/a/session.py
class Session:
    def prepare(self):
        pass

    def mount(self, prefix):
        pass

    def send(self, request):
        return request
#- net/b/session.py
class Session:
    def merge(self):
        pass

    def sendall(self, requests):
        return requests
#- src/hono.ts
export class Hono {
  get(path: string) { return this; }
  post(path: string) { return this; }
  route(path: string) { return this; }
  use(mw: unknown) { return this; }
  fire() {}
  fetch(req: Request) { return this.dispatch(req); }
  dispatch(req: Request) { return req; }
}
#- src/request.ts
export class HonoRequest {
  path = "/";
  header(name: string) { return name; }
  query(key: string) { return key; }
  parse() {}
  params() {}
  param(key: string) { return key; }
}
`;

/** The qualified names an error suggests, in order. */
const suggested = (data: Record<string, unknown>) =>
  ((data.suggestions ?? []) as { qualified: string }[]).map((s) => s.qualified);

describe("member typos", () => {
  const cases: { target: string; first: string; before?: string[] }[] = [
    // A swap of two letters in a four-letter name: `send` is declared 8th.
    {
      target: "Client.sned",
      first: "net.client.Client.send",
      before: ["net.client.Client.end", "net.client.Client.get"],
    },
    { target: "net.client.Client.sned", first: "net.client.Client.send" },
    // Three letters, one swap.
    { target: "Client.gte", first: "net.client.Client.get" },
    { target: "Client.buildrequest", first: "net.client.Client.build_request" },
    // Two classes are called Session: both are owners, and the closest member leads.
    { target: "Session.sned", first: "net.a.session.Session.send", before: ["net.b.session.Session.sendall"] },
    { target: "Hono.fecth", first: "src/hono.ts#Hono.fetch" },
    {
      target: "HonoRequest.parm",
      first: "src/request.ts#HonoRequest.param",
      before: ["src/request.ts#HonoRequest.params", "src/request.ts#HonoRequest.parse"],
    },
    { target: "src/hono.ts::Hono.fecth", first: "src/hono.ts#Hono.fetch" },
    { target: "net/client.py::Client.sned", first: "net.client.Client.send" },
    // Bare names: a swap in three letters is one edit.
    { target: "sue", first: "src/hono.ts#Hono.use" },
    { target: "dispacth", first: "src/hono.ts#Hono.dispatch" },
  ];
  for (const c of cases) {
    it(`${c.target} suggests ${c.first} first`, async () => {
      const { engine } = memoryEngine(project);
      const e = await errorOf(engine.context(c.target, { budget: 2000 }));
      expect(e.code).toBe("unknown_symbol");
      const names = suggested(e.data);
      expect(names[0]).toBe(c.first);
      for (const later of c.before ?? []) if (names.includes(later)) expect(names.indexOf(later)).toBeGreaterThan(0);
    });
  }

  it("a dotted name is a path only with a / or a source extension", async () => {
    const { engine } = memoryEngine(project);
    // Not a path: `.sned`, `.fecth` are no source extensions.
    for (const target of ["Sesion.send", "Clint.send"]) {
      const e = await errorOf(engine.context(target, { budget: 2000 }));
      expect(e.code, target).toBe("unknown_symbol");
      expect(suggested(e.data).length, target).toBeGreaterThan(0);
    }
    expect((await errorOf(engine.context("Sesion.send", { budget: 2000 }))).data.suggestions).toContainEqual(
      expect.objectContaining({ qualified: "net.a.session.Session.send" }),
    );
    // Paths stay paths.
    expect((await errorOf(engine.context("net/nothing.py", { budget: 2000 }))).code).toBe("not_found");
    expect((await errorOf(engine.context("nothing.py", { budget: 2000 }))).code).toBe("not_found");
    expect((await engine.context("net/client.py", { budget: 2000 })).resolvedAs).toBe("file");
  });

  it("suggestions are ranked by similarity, and the error keeps its data", async () => {
    const { engine } = memoryEngine(project);
    const e = await errorOf(engine.context("Client.sedn", { budget: 2000 }));
    expect(e.code).toBe("unknown_symbol");
    expect(e.data.target).toBe("net.client.Client.sedn");
    const names = suggested(e.data);
    expect(names.slice(0, 2)).toEqual(["net.client.Client.send", "net.client.Client.end"]);
    for (const s of e.data.suggestions as { path: string; line: number; kind: string }[])
      expect(s).toMatchObject({ path: "net/client.py", kind: "method" });
  });
});
