/**
 * The playground's code view: a file tree, whole files in a read-only CodeMirror 6 editor, and the
 * editor's questions (definition, references, hover, call hierarchy, copy context) answered by
 * EditorServices, with back/forward across every place opened from any panel and a quick-open
 * dialog (Ctrl+P). Why CodeMirror and not Monaco: docs/browser.md#the-code-editor.
 */
import { EditorSelection, EditorState, StateEffect, StateField, type Extension } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  hoverTooltip,
  keymap,
  lineNumbers,
  highlightActiveLine,
  drawSelection,
} from "@codemirror/view";
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting, type LanguageSupport } from "@codemirror/language";
import { defaultKeymap } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { javascript } from "@codemirror/lang-javascript";
import { h, replace } from "./dom.ts";
import type { CallHierarchy, EditorServices, Place, Position } from "./editor-services.ts";

/** The elements the code view draws into (from index.html). */
export interface CodeViewElements {
  panel: HTMLElement;
  tree: HTMLElement;
  title: HTMLElement;
  editor: HTMLElement;
  results: HTMLElement;
  status: HTMLElement;
  back: HTMLButtonElement;
  forward: HTMLButtonElement;
  actions: HTMLElement;
  quickOpen: HTMLDialogElement;
  quickInput: HTMLInputElement;
  quickList: HTMLElement;
}

/** What the code view asks of the rest of the page. */
export interface CodeViewHooks {
  /** A symbol was chosen in the editor (definition, hover, call hierarchy): every panel follows it. */
  onSymbol(symbol: string): void;
  /** The context bundle of `symbol`, as an agent gets it. */
  context(symbol: string): Promise<{ text: string; tokens: number }>;
  /** Symbols matching words, for quick open. */
  searchSymbols(query: string): Promise<Place[]>;
}

/** How an open is recorded: `record: false` for back/forward themselves. */
interface OpenOptions {
  record?: boolean;
  focus?: boolean;
  /** Scroll the page to the editor (default); false when the pick came from a picture the user stays on. */
  reveal?: boolean;
}

/** The code view's commands, for the page. */
export interface CodeView {
  open(place: Place, options?: OpenOptions): Promise<void>;
  setFiles(paths: string[]): void;
  reset(): void;
  back(): Promise<void>;
  forward(): Promise<void>;
  openQuick(): void;
  readonly path: string | undefined;
}

const setMark = StateEffect.define<{ from: number; to: number } | null>();
const markField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects)
      if (e.is(setMark))
        return e.value
          ? Decoration.set([Decoration.line({ class: "cm-opened" }).range(e.value.from)])
          : Decoration.none;
    return marks.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

function languageOf(path: string): LanguageSupport | [] {
  if (/\.pyi?$/.test(path)) return python();
  if (/\.(m|c)?[jt]sx?$/.test(path))
    return javascript({ typescript: /\.(m|c)?tsx?$/.test(path), jsx: /x$/.test(path) });
  return [];
}

/** Creates the code view over `services`. */
export function createCodeView(el: CodeViewElements, services: EditorServices, hooks: CodeViewHooks): CodeView {
  let files: string[] = [];
  let current: string | undefined;
  let run: AbortController | undefined;
  const history: Place[] = [];
  let at = -1;

  const commands = {
    definition: () => void goToDefinition(),
    references: () => void findReferences(),
    hover: () => void showHover(),
    calls: () => void showCalls(),
    copy: () => void copyContext(),
  };
  const keys = keymap.of([
    { key: "F12", run: () => (commands.definition(), true) },
    { key: "Shift-F12", run: () => (commands.references(), true) },
    { key: "Mod-k", run: () => (commands.hover(), true) },
    { key: "Shift-Alt-h", run: () => (commands.calls(), true) },
    { key: "Shift-Alt-c", run: () => (commands.copy(), true) },
    { key: "Alt-ArrowLeft", run: () => (void back(), true) },
    { key: "Alt-ArrowRight", run: () => (void forward(), true) },
    ...defaultKeymap,
  ]);
  const hover = hoverTooltip(
    async (view, pos) => {
      const p = positionAt(view, pos);
      if (!p) return null;
      const answer = await services.hover(p).catch(() => undefined);
      if (!answer) return null;
      return { pos, above: true, create: () => ({ dom: h("pre", { class: "cm-hover" }, answer.text) }) };
    },
    { hoverTime: 400 },
  );

  const base = (path: string): Extension[] => [
    lineNumbers(),
    highlightActiveLine(),
    drawSelection(),
    bracketMatching(),
    markField,
    keys,
    hover,
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    EditorView.lineWrapping,
    EditorState.readOnly.of(true),
    languageOf(path),
    // tabindex: axe counts the read-only content as the scroller's focusable part only with one.
    EditorView.contentAttributes.of({ "aria-label": `Code of ${path}`, "data-testid": "code", tabindex: "0" }),
  ];
  const view = new EditorView({ parent: el.editor, state: EditorState.create({ doc: "", extensions: base("") }) });

  function positionAt(v: EditorView, pos: number): Position | undefined {
    if (!current) return undefined;
    const word = v.state.wordAt(pos);
    if (!word) return undefined;
    const line = v.state.doc.lineAt(pos);
    return {
      path: current,
      line: line.number,
      column: word.from - line.from,
      word: v.state.sliceDoc(word.from, word.to),
    };
  }
  const cursor = () => positionAt(view, view.state.selection.main.head);

  function status(text: string, busy = false): void {
    el.status.textContent = text;
    if (busy) el.panel.dataset.busy = "true";
    else delete el.panel.dataset.busy;
  }

  async function open(place: Place, options: OpenOptions = {}): Promise<void> {
    run?.abort();
    const controller = (run = new AbortController());
    const same = history[at]?.path === place.path && history[at]?.line === place.line;
    if (options.record !== false && !same) {
      history.splice(at + 1);
      history.push({ path: place.path, line: place.line });
      at = history.length - 1;
    }
    showNav();
    if (place.path !== current) {
      status(`Opening ${place.path}…`, true);
      let text: string;
      try {
        ({ text } = await services.read(place.path, controller.signal));
      } catch (error) {
        if (controller.signal.aborted) return;
        status(`Could not open ${place.path}: ${(error as Error).message}`);
        el.panel.dataset.code = "error";
        return;
      }
      if (controller.signal.aborted) return;
      current = place.path;
      view.setState(EditorState.create({ doc: text, extensions: base(place.path) }));
      el.title.textContent = place.path;
      markTree();
    }
    const doc = view.state.doc;
    const line = doc.line(Math.max(1, Math.min(place.line, doc.lines)));
    // The cursor goes on the name asked for (a call's name, a definition's own), where the line has it.
    const name = place.name ?? place.symbol?.split(/[.:#/]/).at(-1);
    const found =
      place.column === undefined && name
        ? new RegExp(`\\b${name.replace(/[$]/g, "\\$&")}\\b`).exec(line.text)?.index
        : undefined;
    const from = line.from + Math.min(place.column ?? found ?? 0, line.length);
    view.dispatch({
      selection: EditorSelection.cursor(from),
      effects: [setMark.of({ from: line.from, to: line.to }), EditorView.scrollIntoView(from, { y: "center" })],
    });
    el.title.textContent = `${place.path}:${line.number}`;
    el.panel.dataset.path = place.path;
    el.panel.dataset.line = String(line.number);
    el.panel.dataset.code = "ready";
    status("");
    // On a narrow screen the editor is below the panels the pick came from: bring it into view.
    if (options.reveal !== false) el.editor.scrollIntoView({ block: "nearest", behavior: "instant" as ScrollBehavior });
    if (options.focus) view.focus();
  }

  function showNav(): void {
    el.back.disabled = at <= 0;
    el.forward.disabled = at >= history.length - 1;
    const prev = history[at - 1];
    const next = history[at + 1];
    el.back.title = prev ? `Back to ${prev.path}:${prev.line} (Alt+←)` : "Back (Alt+←)";
    el.forward.title = next ? `Forward to ${next.path}:${next.line} (Alt+→)` : "Forward (Alt+→)";
  }

  async function back(): Promise<void> {
    if (at <= 0) return;
    at--;
    await open(history[at]!, { record: false, focus: true });
  }
  async function forward(): Promise<void> {
    if (at >= history.length - 1) return;
    at++;
    await open(history[at]!, { record: false, focus: true });
  }

  function placeButton(p: Place, label: string): HTMLButtonElement {
    return h(
      "button",
      {
        type: "button",
        class: "link",
        "data-path": p.path,
        "data-line": p.line,
        "data-symbol": p.symbol,
        onclick: () => void open(p, { focus: true }),
      },
      label,
    );
  }
  const where = (p: Place) => `${p.path}:${p.line}`;
  const confidence = (p: Place) =>
    p.confidence !== undefined && p.confidence < 0.9
      ? h(
          "span",
          { class: "where", title: "How sure the engine is of this call edge" },
          ` (confidence ${p.confidence})`,
        )
      : null;

  function showResults(kind: string, heading: string, body: (Node | string | null)[]): void {
    el.results.dataset.kind = kind;
    replace(el.results, h("h3", { id: "code-results-title" }, heading), ...body);
  }

  async function ask<T>(
    what: string,
    work: (p: Position) => Promise<T>,
  ): Promise<{ p: Position; value: T } | undefined> {
    const p = cursor();
    if (!p) {
      status("Put the cursor on a name first.");
      return undefined;
    }
    status(`${what} ${p.word}…`, true);
    try {
      const value = await work(p);
      status("");
      return { p, value };
    } catch (error) {
      status(`${what} ${p.word} failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  async function goToDefinition(): Promise<void> {
    const r = await ask("Finding the definition of", (p) => services.definition(p));
    if (!r) return;
    const defs = r.value;
    if (defs.length === 0) {
      status(`No definition of ${r.p.word} in the index.`);
      return;
    }
    if (defs.length > 1)
      showResults("definitions", `${defs.length} definitions of ${r.p.word}`, [
        h(
          "ul",
          {},
          defs.map((d) => h("li", {}, placeButton(d, `${d.symbol} · ${where(d)}`))),
        ),
      ]);
    await open(defs[0]!, { focus: true });
    if (defs[0]!.symbol) hooks.onSymbol(defs[0]!.symbol);
  }

  async function findReferences(): Promise<void> {
    const r = await ask("Finding the references to", (p) => services.references(p));
    if (!r) return;
    const refs = r.value;
    showResults("references", `${refs.length} reference${refs.length === 1 ? "" : "s"} to ${r.p.word}`, [
      refs.length
        ? h(
            "ul",
            {},
            refs.map((x) =>
              h(
                "li",
                {},
                placeButton(x, where(x)),
                x.symbol ? h("span", { class: "where" }, ` in ${x.symbol}`) : null,
                confidence(x),
              ),
            ),
          )
        : h("p", { class: "empty" }, "No call of it in the index."),
    ]);
    el.results.querySelector<HTMLButtonElement>("button")?.focus();
  }

  async function showHover(): Promise<void> {
    const r = await ask("Reading the signature of", (p) => services.hover(p));
    if (!r) return;
    if (!r.value) {
      status(`No symbol named ${r.p.word} in the index.`);
      return;
    }
    showResults("hover", r.value.symbol, [
      h(
        "pre",
        { class: "hover-text", tabindex: 0, role: "region", "aria-label": `Signature of ${r.value.symbol}` },
        r.value.text,
      ),
    ]);
    hooks.onSymbol(r.value.symbol);
  }

  async function showCalls(): Promise<void> {
    const r = await ask("Finding the calls of", (p) => services.callHierarchy(p));
    if (!r) return;
    const c: CallHierarchy | undefined = r.value;
    if (!c) {
      status(`No symbol named ${r.p.word} in the index.`);
      return;
    }
    const list = (xs: CallHierarchy["incoming"], none: string) =>
      xs.length
        ? h(
            "ul",
            {},
            xs.map((x) =>
              h("li", {}, placeButton(x, x.symbol), h("span", { class: "where" }, ` ${where(x)}`), confidence(x)),
            ),
          )
        : h("p", { class: "empty" }, none);
    const name = c.symbol.symbol.split(/[.:#/]/).at(-1)!;
    c.incoming = c.incoming.map((x) => ({ ...x, name }));
    showResults("calls", `Calls of ${c.symbol.symbol}`, [
      h("h4", {}, `Incoming (${c.incoming.length})`),
      list(c.incoming, "Nothing in the index calls it."),
      h("h4", {}, `Outgoing (${c.outgoing.length})`),
      list(c.outgoing, "It calls nothing in the project."),
    ]);
    hooks.onSymbol(c.symbol.symbol);
    el.results.querySelector<HTMLButtonElement>("button")?.focus();
  }

  async function copyContext(): Promise<void> {
    const r = await ask("Slicing the context of", async (p) => {
      const def = (await services.definition(p))[0];
      if (!def?.symbol) return undefined;
      return { symbol: def.symbol, ...(await hooks.context(def.symbol)) };
    });
    if (!r) return;
    if (!r.value) {
      status(`No symbol named ${r.p.word} in the index.`);
      return;
    }
    try {
      await navigator.clipboard.writeText(r.value.text);
      status(`Copied the context of ${r.value.symbol}: ${r.value.tokens.toLocaleString("en")} tokens.`);
    } catch {
      showResults("context", `Context of ${r.value.symbol}`, [
        h("pre", { tabindex: 0, role: "region", "aria-label": `Context of ${r.value.symbol}` }, r.value.text),
      ]);
      status("The browser refused the clipboard: the context is shown below, copy it with Ctrl+C.");
    }
  }

  // The toolbar: each command also has a key in the editor.
  const toolbar: [string, string, () => void][] = [
    ["Definition", "Go to definition (F12)", commands.definition],
    ["References", "Find references (Shift+F12)", commands.references],
    ["Hover", "Signature and docstring (Ctrl+K)", commands.hover],
    ["Calls", "Call hierarchy (Shift+Alt+H)", commands.calls],
    ["Copy context", "Copy the context bundle for this symbol (Shift+Alt+C)", commands.copy],
    ["Quick open", "Go to a file or symbol (Ctrl+P)", () => openQuick()],
  ];
  replace(
    el.actions,
    toolbar.map(([label, title, fn]) =>
      h(
        "button",
        { type: "button", title, "data-command": label.toLowerCase().replace(/ /g, "-"), onclick: fn },
        label,
      ),
    ),
  );
  el.back.addEventListener("click", () => void back());
  el.forward.addEventListener("click", () => void forward());

  // The file tree: folders as disclosure widgets, files as buttons.
  function setFiles(paths: string[]): void {
    files = paths;
    type Dir = { dirs: Map<string, Dir>; files: string[] };
    const root: Dir = { dirs: new Map(), files: [] };
    for (const p of paths) {
      const parts = p.split("/");
      let d = root;
      for (const part of parts.slice(0, -1)) {
        if (!d.dirs.has(part)) d.dirs.set(part, { dirs: new Map(), files: [] });
        d = d.dirs.get(part)!;
      }
      d.files.push(p);
    }
    const draw = (d: Dir, depth: number): HTMLUListElement =>
      h(
        "ul",
        {},
        [...d.dirs].map(([name, sub]) =>
          h("li", {}, h("details", { open: depth < 2 }, h("summary", {}, `${name}/`), draw(sub, depth + 1))),
        ),
        d.files.map((p) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                class: "file",
                "data-path": p,
                title: p,
                onclick: () => void open({ path: p, line: 1 }, { focus: true }),
              },
              p.split("/").at(-1)!,
            ),
          ),
        ),
      );
    replace(el.tree, paths.length ? draw(root, 0) : h("p", { class: "empty" }, "No source files."));
    markTree();
  }
  function markTree(): void {
    for (const b of el.tree.querySelectorAll<HTMLButtonElement>("button.file")) {
      if (b.dataset.path === current) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
  }

  function reset(): void {
    run?.abort();
    current = undefined;
    history.length = 0;
    at = -1;
    showNav();
    files = [];
    view.setState(EditorState.create({ doc: "", extensions: base("") }));
    el.title.textContent = "No file open";
    delete el.panel.dataset.path;
    delete el.panel.dataset.line;
    delete el.panel.dataset.code;
    replace(el.tree, h("p", { class: "empty" }, "Open a project to see its files."));
    el.results.replaceChildren();
    delete el.results.dataset.kind;
    status("");
  }

  // Quick open: files by name, then symbols by the engine's search.
  let quickRun = 0;
  async function fillQuick(): Promise<void> {
    const text = el.quickInput.value.trim();
    const mine = ++quickRun;
    const low = text.toLowerCase();
    const fileHits = files
      .filter((p) => p.toLowerCase().includes(low))
      .slice(0, 12)
      .map((p) => ({ path: p, line: 1 }) as Place);
    const draw = (symbols: Place[]) =>
      replace(
        el.quickList,
        [...fileHits, ...symbols].map((p) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                "data-path": p.path,
                "data-line": p.line,
                "data-symbol": p.symbol,
                onclick: () => pick(p),
              },
              p.symbol ? `${p.symbol} · ${p.path}:${p.line}` : p.path,
            ),
          ),
        ),
      );
    draw([]);
    el.quickList.dataset.query = text;
    if (text.length < 2) return;
    const symbols = await hooks.searchSymbols(text).catch(() => [] as Place[]);
    if (mine !== quickRun) return;
    draw(symbols.slice(0, 12));
    el.quickList.dataset.ready = text;
  }
  function pick(p: Place): void {
    el.quickOpen.close();
    void open(p, { focus: true });
    if (p.symbol) hooks.onSymbol(p.symbol);
  }
  function openQuick(): void {
    if (el.quickOpen.open) return;
    el.quickInput.value = "";
    delete el.quickList.dataset.ready;
    el.quickOpen.showModal();
    el.quickInput.focus();
    void fillQuick();
  }
  el.quickInput.addEventListener("input", () => void fillQuick());
  el.quickInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      el.quickList.querySelector<HTMLButtonElement>("button")?.click();
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      el.quickList.querySelector<HTMLButtonElement>("button")?.focus();
    }
  });
  el.quickList.addEventListener("keydown", (e) => {
    const items = [...el.quickList.querySelectorAll<HTMLButtonElement>("button")];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "ArrowDown" && i >= 0) items[Math.min(i + 1, items.length - 1)]!.focus();
    else if (e.key === "ArrowUp" && i >= 0) (i === 0 ? el.quickInput : items[i - 1]!).focus();
    else return;
    e.preventDefault();
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "p") {
      e.preventDefault();
      openQuick();
    }
  });

  reset();
  return {
    open,
    setFiles,
    reset,
    back,
    forward,
    openQuick,
    get path() {
      return current;
    },
  };
}
