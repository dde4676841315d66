#if Server
/// The traffic page's HTML and style sheet (its script is ``WebAppScript``). No inline script or style: the
/// Content-Security-Policy (``WebApp/contentSecurityPolicy``) forbids both.
enum WebAppPage {
    static let html = ##"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>HTTPMock traffic</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/__admin/webapp/app.css">
    <script src="/__admin/webapp/app.js" defer></script>
    </head>
    <body>
    <header>
      <h1>HTTPMock</h1>
      <nav aria-label="Views">
        <button type="button" class="tab" id="tab-requests" data-view="requests" aria-pressed="true">Requests</button>
        <button type="button" class="tab" id="tab-stubs" data-view="stubs" aria-pressed="false">Stubs</button>
        <button type="button" class="tab" id="tab-scenarios" data-view="scenarios" aria-pressed="false">Scenarios</button>
      </nav>
      <p id="live" class="live" role="status" aria-live="polite">Connecting…</p>
    </header>
    <div id="notice" class="notice" role="alert" hidden>
      <span id="notice-text"></span>
      <button type="button" id="reload-journal">Reload the journal</button>
    </div>
    <main>
      <section id="view-requests" class="view" aria-label="Requests">
        <form id="filters" class="filters" role="search" aria-label="Filter requests">
          <label>Method
            <select id="filter-method">
              <option value="">Any</option>
              <option>GET</option><option>POST</option><option>PUT</option><option>PATCH</option>
              <option>DELETE</option><option>HEAD</option><option>OPTIONS</option>
            </select>
          </label>
          <label>Status <input id="filter-status" type="text" inputmode="numeric" size="6" placeholder="404 or 4xx"></label>
          <label>Answered by
            <select id="filter-matched">
              <option value="">Anything</option>
              <option value="matched">A stub</option>
              <option value="unmatched">No stub (unmatched)</option>
            </select>
          </label>
          <label>Path contains <input id="filter-path" type="search" size="24"></label>
        </form>
        <div class="split">
          <div class="list">
            <p id="request-count" class="count"></p>
            <table class="requests">
              <thead>
                <tr><th scope="col">Received</th><th scope="col">Method</th><th scope="col">Path</th>
                <th scope="col">Status</th><th scope="col">Answered by</th><th scope="col">Took</th></tr>
              </thead>
              <tbody id="request-rows"></tbody>
            </table>
            <p id="empty" class="hint">No requests yet. Send one to this server and it appears here.</p>
            <button type="button" id="older" hidden>Load older requests</button>
          </div>
          <section id="detail" class="detail" aria-label="Request details" hidden></section>
        </div>
      </section>
      <section id="view-stubs" class="view" aria-label="Stubs" hidden>
        <p class="hint">Every stub of the mock, in registration order: those registered in Swift code, loaded from
        files and created over the admin API, with how many requests each answered and whether it answers.</p>
        <button type="button" id="refresh-stubs">Refresh</button>
        <p id="mock-disabled" class="warning" hidden>The mock is disabled: no stub answers until it is enabled again.</p>
        <p id="stub-count" class="count"></p>
        <table class="stubs">
          <thead>
            <tr><th scope="col">Stub</th><th scope="col">Source</th><th scope="col">Hits</th>
            <th scope="col">Enabled</th><th scope="col">Scenario</th></tr>
          </thead>
          <tbody id="stub-rows"></tbody>
        </table>
        <button type="button" id="more-stubs" hidden>Load more stubs</button>
      </section>
      <section id="view-scenarios" class="view" aria-label="Scenarios" hidden>
        <p class="hint">Each scenario's states in the order its stubs name them, the current one highlighted, and
        the stubs that move it from one state to another.</p>
        <button type="button" id="refresh-scenarios">Refresh</button>
        <p id="scenario-count" class="count"></p>
        <div id="scenarios"></div>
        <button type="button" id="more-scenarios" hidden>Load more scenarios</button>
      </section>
    </main>
    </body>
    </html>
    """##

    static let css = ##"""
    :root {
      color-scheme: light dark;
      --ink: #1d1f21; --paper: #fdfdfc; --muted: #5c6166; --line: #d5d8dc; --accent: #2457c5;
      --bad: #b3261e; --bad-paper: #fdecea; --good: #1e6b35; --code: #f2f3f5;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --ink: #e6e8ea; --paper: #16181b; --muted: #a0a6ad; --line: #33373d; --accent: #8cb4ff;
        --bad: #ff8a80; --bad-paper: #3a1d1b; --good: #7fd49a; --code: #202328;
      }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
    header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
    h1 { font-size: 1.15rem; margin: 0; }
    h2 { font-size: 1.05rem; margin: .2rem 0 .6rem; overflow-wrap: anywhere; }
    h3 { font-size: .95rem; margin: 1rem 0 .3rem; }
    nav { display: flex; gap: .3rem; }
    button, select, input { font: inherit; color: inherit; }
    button { background: transparent; border: 1px solid var(--line); border-radius: 4px; padding: .25rem .6rem; cursor: pointer; }
    button:hover { border-color: var(--accent); }
    button:focus-visible, select:focus-visible, input:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    .tab[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); font-weight: 600; }
    .live { margin: 0 0 0 auto; color: var(--muted); }
    .live.on { color: var(--good); }
    .notice { margin: .5rem 1rem; padding: .5rem .8rem; border: 1px solid var(--bad); background: var(--bad-paper); border-radius: 4px; }
    main { padding: .6rem 1rem 2rem; }
    .filters { display: flex; flex-wrap: wrap; gap: .8rem; margin-bottom: .6rem; }
    .filters label { display: flex; align-items: center; gap: .35rem; }
    select, input { background: var(--paper); border: 1px solid var(--line); border-radius: 4px; padding: .2rem .35rem; }
    .split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
    @media (max-width: 900px) { .split { grid-template-columns: minmax(0, 1fr); } }
    .count, .hint { color: var(--muted); margin: .3rem 0; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .3rem .45rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; color: var(--muted); }
    tr.unmatched td { background: var(--bad-paper); }
    tr.unmatched td:first-child { box-shadow: inset 3px 0 0 var(--bad); }
    tr.selected td { outline: 1px solid var(--accent); }
    .path { background: none; border: none; padding: 0; color: var(--accent); text-align: left; overflow-wrap: anywhere; text-decoration: underline; }
    .badge { display: inline-block; font-size: .8rem; font-weight: 600; padding: 0 .35rem; border-radius: 3px; color: var(--paper); background: var(--bad); }
    .nearmiss { margin: .25rem 0 0; color: var(--ink); font-size: .85rem; }
    .nearmiss ul { margin: .1rem 0 0 1.1rem; padding: 0; }
    .status-bad { color: var(--bad); font-weight: 600; }
    .detail { position: sticky; top: .5rem; border: 1px solid var(--line); border-radius: 6px; padding: .7rem .9rem; max-height: calc(100vh - 1rem); overflow: auto; }
    .detail .actions { display: flex; flex-wrap: wrap; gap: .4rem; margin: .5rem 0; }
    dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15rem .8rem; margin: 0; }
    dt { color: var(--muted); }
    dd { margin: 0; overflow-wrap: anywhere; }
    pre { background: var(--code); padding: .5rem .6rem; border-radius: 4px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: .3rem 0; }
    .stub, .scenario { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; margin: .6rem 0; }
    .stub h3, .scenario h3 { margin-top: 0; }
    .stubs .route { font-weight: 600; overflow-wrap: anywhere; }
    .stubs .summary { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
    .stubs td.hits { font-variant-numeric: tabular-nums; text-align: right; }
    tr.disabled td { color: var(--muted); }
    tr.disabled .enabled { color: var(--bad); font-weight: 600; }
    .source { font-size: .85rem; overflow-wrap: anywhere; }
    .warning { color: var(--bad); font-weight: 600; }
    .graph { overflow-x: auto; margin: .4rem 0; }
    .graph svg { display: block; }
    .graph .state rect { fill: var(--paper); stroke: var(--line); stroke-width: 1.5; }
    .graph .state.current rect { stroke: var(--good); stroke-width: 3; }
    .graph .state.current text { fill: var(--good); font-weight: 600; }
    .graph .state.any rect { stroke-dasharray: 4 3; }
    .graph text { fill: var(--ink); font: 13px system-ui, sans-serif; }
    .graph .edge path { fill: none; stroke: var(--accent); stroke-width: 1.5; }
    .graph .edge text { fill: var(--muted); font-size: 11px; }
    .graph marker path { fill: var(--accent); stroke: none; }
    .transitions { margin: .3rem 0 0 1.1rem; padding: 0; }
    .timeline { margin: .3rem 0; padding-left: 1.4rem; }
    .offset { color: var(--muted); font-size: .85rem; }
    """##
}
#endif
