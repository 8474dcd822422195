/** The argument counts a signature accepts, as the languages with overloads read them. */
import { describe, expect, it } from "vitest";
import { cpp } from "../../src/languages/cpp/spec.ts";
import { csharp } from "../../src/languages/csharp/spec.ts";
import { java } from "../../src/languages/java/spec.ts";

describe("arity from signatures", () => {
  it("Java: fixed parameters, varargs, generics and annotations with arguments", () => {
    expect(java.arity!("public int apply(int x, int y)", "apply")).toEqual({ min: 2, max: 2 });
    expect(java.arity!("static String join(String first, String... rest)", "join")).toEqual({ min: 1, max: Infinity });
    expect(
      java.arity!(
        '@SuppressWarnings("x") public <T> T fromJson(Map<String, List<T>> m, Class<T> c) throws IOException',
        "fromJson",
      ),
    ).toEqual({ min: 2, max: 2 });
    expect(java.arity!("Point()", "Point")).toEqual({ min: 0, max: 0 });
  });
  it("C++: default values, `(void)`, C varargs and parameter packs, qualified out-of-line names", () => {
    expect(cpp.arity!("int pad(int width, char fill = ',', bool left = a >= b)", "pad")).toEqual({ min: 1, max: 3 });
    expect(cpp.arity!("int Writer::count(void)", "count")).toEqual({ min: 0, max: 0 });
    expect(cpp.arity!("static int sum(int n, ...)", "sum")).toEqual({ min: 1, max: Infinity });
    expect(cpp.arity!("template <typename... Args> void log(const char* f, Args&&... args)", "log")).toEqual({
      min: 1,
      max: Infinity,
    });
    expect(cpp.arity!("Status DB::Open(const Options& options, const std::string& name, DB** dbptr)", "Open")).toEqual({
      min: 3,
      max: 3,
    });
  });
  it("C#: `params`, optional parameters, the `this` of an extension method", () => {
    expect(csharp.arity!("public void Write(string format, params object[] args)", "Write")).toEqual({
      min: 1,
      max: Infinity,
    });
    expect(csharp.arity!("public int Pad(int width, char fill = ' ')", "Pad")).toEqual({ min: 1, max: 2 });
    expect(csharp.arity!("public static bool IsBlank(this string s, bool trim)", "IsBlank")).toEqual({
      min: 1,
      max: 1,
    });
  });
  it("a signature cut short, or without the name's list, tells nothing", () => {
    expect(java.arity!("public int apply(int x, Map<String, …", "apply")).toBeUndefined();
    expect(java.arity!("public int other(int x)", "apply")).toBeUndefined();
  });
});
