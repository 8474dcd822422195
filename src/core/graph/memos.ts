/** A resolution pass's empty memos. */
import { BoundedMap, PairMemo } from "./bounded-memo.ts";
import type { Memos } from "./model.ts";
import { StarExports } from "./star-exports.ts";

/** Fresh memos for a resolution pass (a build, a patch, or after methods are attached). */
export function emptyMemos(): Memos {
  const memo = () => new BoundedMap<never, never>();
  return {
    exports: new PairMemo(),
    members: memo(),
    bases: memo(),
    imports: memo(),
    callables: memo(),
    overrides: memo(),
    arity: memo(),
    overloads: memo(),
    starExports: new StarExports(),
  };
}
