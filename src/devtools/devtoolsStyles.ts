/** The class of the panel's root: every rule of {@link DEVTOOLS_CSS} is under it, so none reaches the app. */
export const ROOT_CLASS = 'tap-devtools';

const root = `.${ROOT_CLASS}`;
const focus = '#0a58ca';

/**
 * The panel's own style sheet, one `<style>` element: every selector starts with the root class. The root resets
 * what it could inherit from the app (`all: initial`) and its descendants return to the browser's defaults
 * (`all: revert`) before the panel's own rules, so the app's CSS neither styles the panel nor is styled by it.
 */
export const DEVTOOLS_CSS = `
${root} { all: initial; position: fixed; z-index: 2147483000; display: flex; gap: 8px; max-width: calc(100vw - 16px);
  font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; }
${root} * { all: revert; box-sizing: border-box; font: inherit; color: inherit; }
${root} style { display: none; }
${root}.tap-bottom-right { bottom: 8px; right: 8px; flex-direction: column-reverse; align-items: flex-end; }
${root}.tap-bottom-left { bottom: 8px; left: 8px; flex-direction: column-reverse; align-items: flex-start; }
${root}.tap-top-right { top: 8px; right: 8px; flex-direction: column; align-items: flex-end; }
${root}.tap-top-left { top: 8px; left: 8px; flex-direction: column; align-items: flex-start; }
${root} button, ${root} select { cursor: pointer; border: 1px solid #afb8c1; border-radius: 6px; background: #f6f8fa;
  padding: 4px 10px; min-height: 32px; }
${root} button:hover, ${root} select:hover { background: #eaeef2; }
${root} button:focus-visible, ${root} select:focus-visible, ${root} .tap-panel:focus-visible {
  outline: 3px solid ${focus}; outline-offset: 2px; }
${root} .tap-toggle { font-weight: 600; background: #1f2328; color: #fff; border-color: #1f2328; border-radius: 999px;
  padding: 6px 14px; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.25); }
${root} .tap-toggle:hover { background: #32383f; }
${root} .tap-panel { display: block; width: min(30rem, calc(100vw - 16px)); max-height: 60vh; overflow: auto;
  overscroll-behavior: contain; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px;
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.2); overflow-wrap: anywhere; }
${root} h2, ${root} h3 { margin: 0 0 8px; font-weight: 600; }
${root} h2 { font-size: 15px; }
${root} h3 { font-size: 13px; margin-top: 12px; color: #59636e; text-transform: uppercase; letter-spacing: 0.04em; }
${root} dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
${root} dl > div { display: contents; }
${root} dt { color: #59636e; }
${root} dd { margin: 0; }
${root} .tap-tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
${root} ol { list-style: none; margin: 0; padding: 0; }
${root} li { display: grid; grid-template-columns: max-content 1fr; gap: 0 8px; padding: 4px 0;
  border-top: 1px solid #eaeef2; }
${root} time, ${root} .tap-meta { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color: #59636e; }
${root} .tap-detail { grid-column: 2; color: #59636e; }
${root} .tap-empty { color: #59636e; margin: 4px 0; }
`;
