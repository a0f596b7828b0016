/** The class of the panel's root: every rule of {@link DEVTOOLS_CSS} is under it, so none reaches the app. */
export const ROOT_CLASS = 'tap-devtools';

/**
 * The panel's own style sheet, one `<style>` element: every selector starts with the root class. The root resets
 * what it could inherit from the app (`all: initial`) and its descendants return to the browser's defaults
 * (`all: revert`) before the panel's own rules, so the app's CSS neither styles the panel nor is styled by it.
 * A literal with nothing interpolated: a bundler drops it with the panel in a production build.
 */
export const DEVTOOLS_CSS = `
.tap-devtools { all: initial; position: fixed; z-index: 2147483000; display: flex; gap: 8px; max-width: calc(100vw - 16px);
  font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; }
.tap-devtools * { all: revert; box-sizing: border-box; font: inherit; color: inherit; }
.tap-devtools style { display: none; }
.tap-devtools.tap-bottom-right { bottom: 8px; right: 8px; flex-direction: column-reverse; align-items: flex-end; }
.tap-devtools.tap-bottom-left { bottom: 8px; left: 8px; flex-direction: column-reverse; align-items: flex-start; }
.tap-devtools.tap-top-right { top: 8px; right: 8px; flex-direction: column; align-items: flex-end; }
.tap-devtools.tap-top-left { top: 8px; left: 8px; flex-direction: column; align-items: flex-start; }
.tap-devtools button, .tap-devtools select { cursor: pointer; border: 1px solid #afb8c1; border-radius: 6px; background: #f6f8fa;
  padding: 4px 10px; min-height: 32px; }
.tap-devtools button:hover, .tap-devtools select:hover { background: #eaeef2; }
.tap-devtools button:focus-visible, .tap-devtools select:focus-visible, .tap-devtools .tap-panel:focus-visible {
  outline: 3px solid #0a58ca; outline-offset: 2px; }
.tap-devtools .tap-toggle { font-weight: 600; background: #1f2328; color: #fff; border-color: #1f2328; border-radius: 999px;
  padding: 6px 14px; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.25); }
.tap-devtools .tap-toggle:hover { background: #32383f; }
.tap-devtools .tap-panel { display: block; width: min(30rem, calc(100vw - 16px)); max-height: 60vh; overflow: auto;
  overscroll-behavior: contain; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px;
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.2); overflow-wrap: anywhere; }
.tap-devtools h2, .tap-devtools h3 { margin: 0 0 8px; font-weight: 600; }
.tap-devtools h2 { font-size: 15px; }
.tap-devtools h3 { font-size: 13px; margin-top: 12px; color: #59636e; text-transform: uppercase; letter-spacing: 0.04em; }
.tap-devtools dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.tap-devtools dl > div { display: contents; }
.tap-devtools dt { color: #59636e; }
.tap-devtools dd { margin: 0; }
.tap-devtools .tap-tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
.tap-devtools ol { list-style: none; margin: 0; padding: 0; }
.tap-devtools li { display: grid; grid-template-columns: max-content 1fr; gap: 0 8px; padding: 4px 0;
  border-top: 1px solid #eaeef2; }
.tap-devtools time, .tap-devtools .tap-meta { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color: #59636e; }
.tap-devtools .tap-detail { grid-column: 2; color: #59636e; }
.tap-devtools .tap-empty { color: #59636e; margin: 4px 0; }
`;
