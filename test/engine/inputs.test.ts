/** Snapshot inputs on Node; the same cases run in Chromium (test/browser/inputs.chromium.ts). */
import { inputsCases } from "./inputs.cases.ts";

inputsCases();
