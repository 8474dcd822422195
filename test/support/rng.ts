/** A small deterministic generator for property and fuzz tests, so a failing seed can be replayed. */
export { mulberry32 } from "../../src/shared/rng.ts";
