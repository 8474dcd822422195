/**
 * codeslice, runtime-neutral entry: the engine, its types and errors. Hosts pair it with one
 * platform (`codeslice/node`, `codeslice/memory`, or their own FileSystem/Store/WasmSource). The
 * front ends (the CLI, the MCP server, the Web Worker) use nothing else: what they need of the
 * engine is here, so the core can change behind it.
 */
export { createEngine, supportedLanguageNames } from "./core/engine/engine.ts";
export { LIMITS } from "./core/limits.ts";
export { loadTokenCounter, ENCODINGS } from "./core/budget/tokenizer.ts";
/** The one fitter, for front ends that fit their own lists and texts under a limit (see core/budget/fit.ts). */
export { fitBlocks, clipText, envelopeRecord, largestFitting, CUT_SHOWN, MIN_CUT_SHOWN } from "./core/budget/fit.ts";
export type { Block, BlockForm, Envelope, FitSpec, FitState, FitResult } from "./core/budget/fit.ts";
/** Citations as answers print them, and the reverse (see shared/paths.ts). */
export { cite, citePath, citeName, readQuotedPath } from "./shared/paths.ts";
/** For adapters that list files themselves (archives, uploads): the scan's skip-by-name rules. */
export { skipByName } from "./shared/skip-rules.ts";
export type { SkipReason, SkippedFile } from "./shared/skip-rules.ts";
/** What the hosts of the indexed code add to its languages (`EngineOptions.host`; profiles in each platform entry). */
export type { HostEnvironment, SinkKind } from "./shared/host-environment.ts";
export type {
  Engine,
  EngineOptions,
  IndexSummary,
  RunOptions,
  RefreshOptions,
  RefreshResult,
  SnippetAnswer,
} from "./core/engine/api.ts";
export type { Progress } from "./core/engine/indexer.ts";
export type { ArtifactSummary } from "./core/engine/artifact.ts";
export { EngineError, isEngineError } from "./shared/errors.ts";
/** For adapter authors: normalize a workspace-relative path, or undefined when it escapes the root. */
export { normalizeRelative } from "./shared/paths.ts";
export type { ErrorCode, ErrorData, ErrorSymbol, EngineErrorOf, EngineErrorOptions } from "./shared/errors.ts";
export type {
  FileRecord,
  Definition,
  ImportRecord,
  CallRecord,
  TypeRefRecord,
  BindingRecord,
  Diagnostic,
} from "./core/extract/record.ts";
export type { GoldGraph, GoldDefinition, GoldCallEdge, GoldGraphStream } from "./core/query/gold-json.ts";
export { goldGraphStream } from "./core/query/gold-json.ts";
export type {
  CodeGraph,
  SymbolNode,
  CallEdge,
  Resolution,
  ExternalCall,
  AmbiguousCall,
  InheritEdge,
  ImportEdge,
} from "./core/graph/model.ts";
export type { CallsAnswer, ImportersAnswer, SignatureAnswer, RelatedSymbol } from "./core/query/queries.ts";
export type {
  CallsPage,
  ImportersPage,
  ListOptions,
  PageInfo,
  TestsMode,
  TestCodeSummary,
  Usage,
} from "./core/query/pages.ts";
export { TESTS_MODES } from "./core/query/pages.ts";
export type { Completeness, CountByFile } from "./core/query/completeness.ts";
export type { TraceAnswer, TracePath, TraceHop, HopKind } from "./core/query/trace.ts";
export type {
  ImpactAnswer,
  ImpactDirection,
  ImpactEntry,
  ImpactRisk,
  ImpactRoute,
  ImpactTest,
} from "./core/query/impact.ts";
export { IMPACT_DIRECTIONS, IMPACT_DEFAULT_DEPTH } from "./core/query/impact.ts";
export type { TestsAnswer, TestHit, TestEvidence, RunPlan } from "./core/evidence/tests.ts";
export { RUN_LIMITS, type RunTestsAnswer, type RunTestsOptions, type TestRun } from "./core/evidence/run-tests.ts";
export { allowedArgv, allowedRunners, splitCommand } from "./core/evidence/run-command.ts";
export { summarizeOutput, type RunOutputSummary } from "./core/evidence/run-output.ts";
export { CHECK_RULES, checkText, toSarif, type CheckAnswer } from "./core/check/check.ts";
export { CHECK_CONFIG_FILES, parseCheckConfig, type CheckConfig, type CheckConfigSource } from "./core/check/config.ts";
export type { CheckFinding, CheckRuleId } from "./core/check/rules.ts";
export type { SymbolRef } from "./core/query/lookup.ts";
export type { ContextAnswer, ContextChunk, CutChunk, ContextOptions } from "./core/slice/context.ts";
export type { SearchHit } from "./core/search/search.ts";
export type { GrepAnswer, GrepHit, GrepOptions, GrepStop } from "./core/grep/grep.ts";
export { LOCATE_LIMITS } from "./core/locate/locate.ts";
export type { LocateAnswer, LocateOptions, LocatedFile, LocatedSymbol } from "./core/locate/locate.ts";
export type { Route, MountLine } from "./core/query/routes.ts";
export type { RouteEntry, RouteFilter, RouteMapAnswer, RouteMapOptions } from "./core/slice/route-map.ts";
export type { ClientCall } from "./core/query/route-calls.ts";
export type {
  FieldRead,
  ShapeAnswer,
  ShapeBreak,
  ShapeModel,
  ShapeOptions,
  ShapeRoute,
  ShapeSite,
} from "./core/slice/shape-check.ts";
export type { ToolEntry, ToolMapAnswer, ToolMapOptions } from "./core/map/tool-map.ts";
export type { Role } from "./core/slice/plan.ts";
export type { RepoMap, RepoMapOptions, MapSymbol, MapService, MapEntryPoint } from "./core/map/repo-map.ts";
export type { Encoding } from "./core/budget/tokenizer.ts";
export type { ChangesOptions } from "./core/engine/changes.ts";
export type {
  ChangesAnswer,
  ChangedSymbol,
  ChangedFile,
  ChangesChunk,
  ChangesCut,
  ChangesSide,
  ChangeRole,
  FileStatus,
} from "./core/changes/answer.ts";
export type { ChangesEnvelope } from "./core/changes/envelope.ts";
export type { ImpactItem, RouteImpact } from "./core/changes/impact.ts";
export type { ChangeKind } from "./core/changes/symbols.ts";
export type { Hunk } from "./core/changes/line-diff.ts";
export type {
  FileSystem,
  Store,
  WasmSource,
  Platform,
  Logger,
  LogLevel,
  FileStat,
  DirEntry,
  EntryKind,
  HeapUsage,
  ParseWorkers,
  WorkerChannel,
  ProcessRunner,
  ProcessResult,
} from "./core/ports.ts";
/** For adapters that run the parse pool's workers: the loop inside each worker and its messages. */
export { serveParseWorker } from "./core/engine/parse-worker.ts";
export type { ParseWorkerEndpoint, ParseJob, ParseReply } from "./core/engine/parse-worker.ts";
export { fenceTag, LANGUAGES, registerLanguage } from "./languages/index.ts";
export type { RenamePlan, RenameEdit, RenameWhy, UncertainSite } from "./core/rename/plan.ts";
export type { PlanFiles, ApplyReport } from "./core/rename/apply.ts";
export type { DataflowAnswer, SinkReach } from "./core/dataflow/answer.ts";
export type { FlowStep } from "./core/dataflow/flow.ts";
export type { DataflowOptions } from "./core/engine/api.ts";
export type { MermaidMap } from "./core/map/mermaid.ts";
export { applyEditsToText } from "./core/rename/apply.ts";
export type { QueryAnswer, QueryOptions, JsonValue } from "./core/query-language/query.ts";
export { QUERY_LIMITS } from "./core/query-language/query.ts";
export { MAX_HOPS, MAX_QUERY_CHARS } from "./core/query-language/parse.ts";
export { LABELS, EDGE_TYPES, NODE_PROPS, EDGE_PROPS } from "./core/query-language/view.ts";
export type { Label, EdgeType } from "./core/query-language/view.ts";
export type {
  FlowsAnswer,
  FlowItem,
  ClustersAnswer,
  ClusterItem,
  StructureOptions,
} from "./core/query-language/structure.ts";
export type { EntryKind as FlowEntryKind } from "./core/query-language/flows.ts";
export { querySchemaText } from "./core/query-language/schema.ts";
export type { Contracts, ContractCall, ContractImport, ContractRoute } from "./core/slice/contracts.ts";
export { checkRepoNames, createEngineGroup, crossCallersText, MAX_GROUP_REPOS, REPO_NAME } from "./core/group/group.ts";
export type {
  CrossCaller,
  EngineGroup,
  GroupCall,
  GroupImport,
  GroupMember,
  GroupRoute,
  GroupRouteMap,
} from "./core/group/group.ts";
