/** The dashboard's one stylesheet (served by assets.ts). */
export const DASHBOARD_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca;
  --bad: #b3261e; --good: #1a7f37; --bg: #fff; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -10000px; top: 0; background: var(--bg); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.5rem; padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--ink); }
.find { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; flex: 1 1 20rem; }
.find input { flex: 1 1 12rem; min-width: 0; }
nav[aria-label="Main"] ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0;
  padding: .5rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
nav[aria-label="Main"] a[aria-current="page"] { font-weight: 700; color: var(--ink); }
main { padding: 1rem; max-width: 80rem; }
main.bare { max-width: 40rem; margin: 2rem auto; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
input, select, textarea, button { font: inherit; }
input, select, textarea { padding: .35rem .5rem; border: 1px solid var(--muted); border-radius: 4px; max-width: 100%; }
button { padding: .35rem .9rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: var(--bg); color: var(--accent); }
label { font-weight: 600; }
form.inline { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem 1rem; margin: .5rem 0 1rem; }
form.inline div, form.stack div { display: flex; flex-direction: column; gap: .2rem; }
form.stack { display: flex; flex-direction: column; gap: .75rem; max-width: 36rem; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 4px; margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; padding: .5rem .75rem; font-weight: 600; }
th, td { text-align: left; padding: .4rem .75rem; border-top: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: .5rem 1.5rem; margin: .5rem 0 1rem; }
.facts dt { color: var(--muted); font-size: .85rem; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: .75rem; margin: .5rem 0 1rem; }
.figure { border: 1px solid var(--line); border-radius: 4px; padding: .75rem; }
.figure .value { font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
pre { background: var(--soft); padding: .75rem; overflow-x: auto; border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
.alert:empty, .status:empty { display: none; }
.alert { border: 2px solid var(--bad); color: var(--bad); padding: .5rem .75rem; margin: .5rem 0 1rem; border-radius: 4px; }
.status { border: 1px solid var(--good); color: var(--good); padding: .5rem .75rem; margin: .5rem 0 1rem; border-radius: 4px; }
.error { color: var(--bad); }
.muted { color: var(--muted); }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0 1rem; }
dialog { max-width: min(40rem, 95vw); border: 1px solid var(--muted); border-radius: 6px; }
dialog::backdrop { background: rgba(0, 0, 0, .4); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .5rem; }
[hidden] { display: none !important; }
@media (max-width: 600px) { .top { padding: .5rem; } main { padding: .5rem; } th, td { padding: .35rem .5rem; } }
`;
