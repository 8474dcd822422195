/**
 * A name spelled the way its language writes it finds the symbol: PHP's `Monolog\Handler\RotatingFileHandler`,
 * `\Monolog\…::rotate` and `RotatingFileHandler->rotate()` (as PHP stack traces print them), Ruby's
 * `Rack::Request#params`. On monolog every one of them was an unknown symbol, though the dotted form was found.
 */
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine } from "../support/platform.ts";

const FILES = {
  "src/Monolog/Handler/RotatingFileHandler.php": [
    "<?php",
    "namespace Monolog\\Handler;",
    "",
    "class RotatingFileHandler",
    "{",
    "    protected function rotate(): void",
    "    {",
    "    }",
    "}",
    "",
  ].join("\n"),
  "lib/rack/request.rb": "module Rack\n  class Request\n    def params\n      {}\n    end\n  end\nend\n",
};

describe("a name as the language writes it", () => {
  it("PHP namespaces and ::/->, Ruby :: and #, resolve to the symbol", async () => {
    const { engine } = memoryEngine(FILES);
    const php = "src/Monolog/Handler/RotatingFileHandler.php";
    for (const [target, path, kind] of [
      ["Monolog\\Handler\\RotatingFileHandler", php, "class"],
      ["\\Monolog\\Handler\\RotatingFileHandler", php, "class"],
      ["Monolog\\Handler\\RotatingFileHandler::rotate", php, "method"],
      ["RotatingFileHandler->rotate()", php, "method"],
      ["Rack::Request#params", "lib/rack/request.rb", "method"],
      ["Rack::Request", "lib/rack/request.rb", "class"],
    ] as const) {
      const s = await engine.signature(target);
      expect(s.symbol.path, target).toBe(path);
      expect(s.symbol.kind, target).toBe(kind);
    }
    expect((await errorOf(engine.signature("Other\\Handler\\Nothing"))).code).toBe("unknown_symbol");
  });
});
