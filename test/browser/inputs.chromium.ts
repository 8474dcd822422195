/** Snapshot inputs and refresh() in Chromium: the core cases of test/engine/inputs.cases.ts, run in the browser. */
import { inputsCases, refreshCases } from "../engine/inputs.cases.ts";

inputsCases();
refreshCases();
