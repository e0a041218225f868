import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { Finding } from '../project/findings';
import type { Reveal } from './reveal';

interface Props {
  /** The file's path in the project: the editor's name, as people see it. */
  path: string;
  text: string;
  findings: readonly Finding[];
  readOnly: boolean;
  reveal: Reveal | undefined;
  onChange(text: string): void;
}

/** A finding's line and column (from 1) as an offset in the text; past its end, the end. */
function offsetOf(doc: Text, line: number | null, column: number | null): number {
  if (line === null || line > doc.lines) return line === null ? 0 : doc.length;
  const at = doc.line(line);
  return Math.min(at.from + Math.max((column ?? 1) - 1, 0), at.to);
}

/** Each finding as a mark at its place: CI's words in the editor's margin and under the text. */
function diagnostics(doc: Text, findings: readonly Finding[]): Diagnostic[] {
  return findings
    .filter((f) => f.severity !== 'note')
    .map((f) => {
      const from = offsetOf(doc, f.line, f.column);
      // From the place to the end of its line: the value (or name) CI points at.
      const to = Math.min(Math.max(doc.lineAt(from).to, from + 1), doc.length);
      return { from, to, severity: f.severity === 'error' ? 'error' : 'warning', message: `${f.pointer ? `${f.pointer}: ` : ''}${f.message}` };
    });
}

/** The editor's look, as CodeMirror styles it: in the editor's own shadow root (see below). */
const look = EditorView.theme({
  '&': { minHeight: '20rem', maxHeight: '70vh', border: '1px solid #b8b8b8', fontSize: '0.95rem' },
  '&.cm-focused': { outline: '3px solid #1d4f73', outlineOffset: '2px' },
  '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, monospace' },
});

/**
 * The file as JSON text (CodeMirror 6): line numbers, CI's findings marked where they are, and the
 * keyboard's Tab left to move on (it does not indent), so a keyboard user never gets stuck in it.
 * It lives in a shadow root of its own: CodeMirror styles a shadow root with constructed stylesheets,
 * a document with <style> elements, which the studio's policy (style-src 'self') refuses.
 */
export function JsonEditor({ path, text, findings, readOnly, reveal, onChange }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });

  useEffect(() => {
    const shadow = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const editor = new EditorView({
      root: shadow,
      parent: shadow,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          look,
          // Read only: still focusable and selectable (its text can be read and copied), told as such (aria-readonly).
          EditorState.readOnly.of(readOnly),
          // Tab reaches it (a contenteditable is focusable; said outright, so checkers see its scroller can be reached).
          EditorView.contentAttributes.of({ 'aria-label': path, tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // One editor per file and mode: the text follows below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, readOnly]);

  // The fields editor changed the file: the text follows, where it differs.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === text) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }, [text]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnostics(editor.state.doc, findings)));
  }, [findings, text]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !reveal || reveal.target !== 'json') return;
    const at = offsetOf(editor.state.doc, reveal.line ?? null, reveal.column ?? null);
    editor.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
    editor.focus();
  }, [reveal]);

  return <div className="json-editor" ref={host} />;
}
