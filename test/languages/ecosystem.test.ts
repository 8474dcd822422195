/**
 * The ecosystem knowledge the language specs carry, read through the registry: package manifests
 * and the names they give, keywords, fence tags, the resolvers' config files and the test runners
 * `runTests` may start. (These were tables in core and the front ends; the values are the same.)
 */
import { describe, expect, it } from "vitest";
import {
  allKeywords,
  allResolverConfigs,
  fenceTag,
  isCommandDecorator,
  isCommandFileMethod,
  manifestOf,
} from "../../src/languages/index.ts";
import { allowedRunners } from "../../src/core/evidence/run-command.ts";
import { memoryEngine } from "../support/platform.ts";

describe("ecosystem knowledge from the language specs", () => {
  it("names a package from each ecosystem's manifest", () => {
    const cases: [string, string, string | undefined][] = [
      ["package.json", '{ "name": "web-app", "version": "1.0.0" }', "web-app"],
      ["deno.json", '{ "name": "@me/tool" }', "@me/tool"],
      ["pyproject.toml", '[project]\nname = "shop"\n', "shop"],
      ["setup.py", 'setup(name="legacy")', "legacy"],
      ["go.mod", "module example.com/svc\n\ngo 1.22\n", "example.com/svc"],
      ["Cargo.toml", '[package]\nname = "crab"\n', "crab"],
      ["pom.xml", "<project><artifactId>beans</artifactId></project>", "beans"],
      ["composer.json", '{ "name": "acme/blog" }', "acme/blog"],
      ["Api.csproj", "<Project/>", "Api"],
      ["build.gradle.kts", "plugins {}", undefined],
      ["Gemfile", 'source "https://rubygems.org"', undefined],
    ];
    for (const [file, text, name] of cases) {
      expect(manifestOf(file), file).toBeDefined();
      expect(manifestOf(file)!.name(text), file).toBe(name);
    }
    expect(manifestOf("README.md")).toBeUndefined();
    expect(manifestOf("csproj")).toBeUndefined();
  });

  it("keeps every language's keywords out of search words, and only keywords", () => {
    for (const k of ["def", "self", "elif", "func", "nil", "fn", "let", "typeof", "throws", "final", "undefined"])
      expect(allKeywords().has(k), k).toBe(true);
    for (const w of ["parse", "user", "fun", "val", "request"]) expect(allKeywords().has(w), w).toBe(false);
  });

  it("fences a file by its language's tag, a text format's, or none", () => {
    const tags: Record<string, string> = {
      "a.py": "python",
      "a.pyi": "python",
      "a.ts": "ts",
      "a.mts": "ts",
      "a.tsx": "tsx",
      "a.js": "js",
      "a.cjs": "js",
      "a.jsx": "jsx",
      "a.go": "go",
      "a.java": "java",
      "a.kt": "kotlin",
      "a.rs": "rust",
      "a.c": "c",
      "a.h": "c",
      "a.cc": "cpp",
      "a.hpp": "cpp",
      "a.cs": "csharp",
      "a.rb": "ruby",
      "a.php": "php",
      "a.json": "json",
      "a.md": "markdown",
      "a.yml": "yaml",
      "a.sh": "bash",
      "A.PY": "python",
      // C++ extensions the old table missed now get their language's tag.
      "a.hxx": "cpp",
      "a.ipp": "cpp",
      "a.txt": "",
      Makefile: "",
    };
    for (const [path, tag] of Object.entries(tags)) expect(fenceTag(path), path).toBe(tag);
  });

  it("knows every language's constructor names, the ones a class's brief lists first", async () => {
    const { LANGUAGES } = await import("../../src/languages/index.ts");
    const names = new Set(LANGUAGES.flatMap((l) => l.constructorNames ?? []));
    expect([...names].sort()).toEqual(["__construct", "__init__", "constructor", "initialize", "new"]);
  });

  it("re-reads each resolver's config files, and knows which decorators are entry points", () => {
    const isConfig = (p: string) => allResolverConfigs().some((r) => r.test(p));
    for (const p of [
      "tsconfig.json",
      "web/tsconfig.base.json",
      "jsconfig.json",
      "pkg/package.json",
      "go.mod",
      "Cargo.toml",
      "composer.json",
      "compile_commands.json",
    ])
      expect(isConfig(p), p).toBe(true);
    expect(isConfig("settings.json")).toBe(false);
    expect(isCommandDecorator("python", "@click.command()")).toBe(true);
    expect(isCommandDecorator("python", "@app.task")).toBe(true);
    expect(isCommandDecorator("python", "@property")).toBe(false);
    expect(isCommandDecorator("go", "@click.command()")).toBe(false);
  });

  it("allows the test runners the languages declare, each once", () => {
    const names = allowedRunners().map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        "pytest",
        "npm/pnpm/yarn test",
        "vitest",
        "jest",
        "go test",
        "cargo test",
        "mvn/gradle test",
        "dotnet test",
        "rspec",
        "phpunit",
      ]),
    );
    expect(names).toHaveLength(10);
  });

  it("takes a command named by its file from the language (Django's management commands) into the flows", async () => {
    expect(isCommandFileMethod("python", "shop/management/commands/restock.py", "handle")).toBe(true);
    expect(isCommandFileMethod("python", "shop/management/restock.py", "handle")).toBe(false);
    expect(isCommandFileMethod("typescript", "shop/management/commands/restock.ts", "handle")).toBe(false);
    const { engine } = memoryEngine({
      "shop/management/commands/restock.py":
        "class Command:\n    def handle(self):\n        return refill()\n\n\ndef refill():\n    return 1\n",
    });
    const { flows } = await engine.flows();
    expect(flows.map((f) => `${f.kind} ${f.name}`)).toContain("command restock");
    engine.close();
  });
});
