/** Snapshot inputs and refresh() on Node (and under Deno, test/deno/deno.json); the same cases run in Chromium (test/browser/inputs.chromium.ts). */
import { inputsCases, refreshCases } from "./inputs.cases.ts";

inputsCases();
refreshCases();
