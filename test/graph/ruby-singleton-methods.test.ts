/**
 * A Ruby class with a class method and an instance method of one name (`def self.load` and `def load`) had two
 * definitions with one qualified name, so a target, its callers and a rename could not tell them apart. The class
 * method is now `Foo::load` (as `ri` writes a class method; a `def` in `class << self` too), the instance method keeps
 * `Foo.load`; `Foo#load` names the instance method, and a class method with no instance twin is still found as
 * `Foo.build`. A line marked `# calls: A` must have edges to exactly those callees.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";
import { errorOf, memoryEngine } from "../support/platform.ts";

const PROJECT = `
//- lib/config.rb
class Config
  def self.load(path)
    path.to_s
  end

  def load(path)
    path
  end

  class << self
    def build
      new
    end
  end
end
//- lib/main.rb
require_relative "config"

def main
  Config.load("a.yml") # calls: lib/config.rb#Config::load
  cfg = Config.new
  cfg.load("b.yml") # calls: lib/config.rb#Config.load
  Config.build # calls: lib/config.rb#Config::build
end
`;

describe("Ruby class methods beside instance methods of the same name", () => {
  it("have their own qualified names, and calls link to the one called", async () => {
    const { want, got, graph } = await markedCalls(PROJECT);
    const loads = graph.symbols.filter((s) => s.name === "load").map((s) => s.qualified);
    expect(loads.sort()).toEqual(["lib/config.rb#Config.load", "lib/config.rb#Config::load"]);
    expect(got).toEqual(want);
  });

  it("targets as Ruby writes them find the one meant", async () => {
    const { engine } = memoryEngine(PROJECT);
    for (const [target, line] of [
      ["Config::load", 2],
      ["lib/config.rb::Config::load", 2],
      ["Config.load", 6],
      ["Config#load", 6],
      ["Config.build", 11],
      ["Config::build", 11],
    ] as const) {
      const s = await engine.signature(target);
      expect(`${s.symbol.path}:${s.symbol.line}`, target).toBe(`lib/config.rb:${line}`);
    }
    const bare = await errorOf(engine.signature("load"));
    expect(bare.code).toBe("ambiguous_symbol");
  });

  it("callers of each are its own", async () => {
    const { engine } = memoryEngine(PROJECT);
    const sites = async (target: string) =>
      (await engine.callers(target)).results.map((r) => `${r.site.path}:${r.site.line}`).sort();
    expect(await sites("Config::load")).toEqual(["lib/main.rb:4"]);
    expect(await sites("Config#load")).toEqual(["lib/main.rb:6"]);
  });
});
