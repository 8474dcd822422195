/** Snapshot inputs in Chromium: the core cases of test/engine/inputs.cases.ts, run in the browser. */
import { inputsCases } from "../engine/inputs.cases.ts";

inputsCases();
