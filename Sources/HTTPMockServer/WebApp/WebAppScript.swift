#if Server
/// The traffic page's script, served from its own path (`/__admin/webapp/app.js`) as the Content-Security-Policy
/// requires. Every value that comes from a request reaches the page as text (`textContent`, text nodes,
/// `setAttribute` on fixed names): request paths, headers and bodies are whatever a client sent.
enum WebAppScript {
    static let source = ##"""
    'use strict';
    (function () {
      const API = '/__admin';
      const PAGE = 50;
      const MOST_ROWS = 2000;

      const $ = (id) => document.getElementById(id);
      const rows = new Map();
      let journalTotal = 0;
      let selectedID = null;
      let stubOffset = 0;
      let scenarioOffset = 0;
      // Each load of a list counts up: an answer that comes after a later load began is dropped, so a refresh
      // clicked twice never lists a stub twice.
      let stubLoads = 0;
      let scenarioLoads = 0;

      // An element with fixed attributes and children; strings become text nodes, never markup.
      function el(tag, attributes, children) {
        const node = document.createElement(tag);
        for (const [name, value] of Object.entries(attributes || {})) {
          if (name === 'class') node.className = value;
          else if (name === 'text') node.textContent = value;
          else node.setAttribute(name, value);
        }
        for (const child of children || []) {
          if (child === null || child === undefined) continue;
          node.append(typeof child === 'string' ? document.createTextNode(child) : child);
        }
        return node;
      }

      async function getJSON(path) {
        const response = await fetch(API + path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
        if (!response.ok) throw new Error(path + ': HTTP ' + response.status);
        return response.json();
      }

      function showProblem(text) {
        $('notice-text').textContent = text;
        $('notice').hidden = false;
      }

      // MARK: Views

      function showView(name) {
        for (const tab of document.querySelectorAll('.tab')) {
          const on = tab.dataset.view === name;
          tab.setAttribute('aria-pressed', on ? 'true' : 'false');
          $('view-' + tab.dataset.view).hidden = !on;
        }
        if (name === 'stubs') loadStubs(true);
        if (name === 'scenarios') loadScenarios(true);
      }

      // MARK: Requests

      // What a list row shows, from a serve event of GET /__admin/requests or a request event of the stream.
      function summarize(event) {
        const extra = event.httpmock || {};
        const request = event.request || {};
        let status = null;
        if (event.response && typeof event.response.status === 'number') status = event.response.status;
        else if (event.responseDefinition && typeof event.responseDefinition.status === 'number') status = event.responseDefinition.status;
        return {
          id: String(event.id || ''),
          journalID: typeof extra.journalID === 'number' ? extra.journalID : -1,
          method: String(request.method || ''),
          url: String(request.url || ''),
          loggedDate: typeof request.loggedDate === 'number' ? request.loggedDate : null,
          status: status,
          matched: event.wasMatched === true,
          stub: String(extra.stubSummary || ''),
          resolution: String(extra.resolution || ''),
          closest: Array.isArray(extra.closest) ? extra.closest : [],
          took: event.timing && typeof event.timing.totalTime === 'number' ? event.timing.totalTime : null,
        };
      }

      function time(milliseconds) {
        if (milliseconds === null) return '';
        const date = new Date(milliseconds);
        return date.toLocaleTimeString(undefined, { hour12: false }) + '.' + String(date.getMilliseconds()).padStart(3, '0');
      }

      function nearMissList(closest, most) {
        if (closest.length === 0) return null;
        const miss = closest[0];
        const differences = Array.isArray(miss.differences) ? miss.differences.slice(0, most) : [];
        return el('div', { class: 'nearmiss' }, [
          'Closest stub: ' + String(miss.summary || miss.stub || ''),
          el('ul', {}, differences.map((difference) => el('li', { text: String(difference) }))),
        ]);
      }

      function renderRow(summary) {
        const open = el('button', { type: 'button', class: 'path', 'aria-label': 'Details of ' + summary.method + ' ' + summary.url, text: summary.url });
        open.addEventListener('click', () => showDetail(summary.id));
        const pathCell = el('td', {}, [open, summary.matched ? null : nearMissList(summary.closest, 3)]);
        const statusText = summary.status === null ? '…' : String(summary.status);
        const answered = summary.matched
          ? el('td', { text: summary.stub })
          : el('td', {}, [el('span', { class: 'badge', text: 'Unmatched' }),
            summary.resolution && summary.resolution !== 'no stub answered' ? ' ' + summary.resolution : null]);
        const tr = el('tr', { class: summary.matched ? 'matched' : 'unmatched', 'data-journal-id': String(summary.journalID) }, [
          el('td', { text: time(summary.loggedDate) }),
          el('td', { text: summary.method }),
          pathCell,
          el('td', { class: summary.status !== null && summary.status >= 400 ? 'status-bad' : '', text: statusText }),
          answered,
          el('td', { text: summary.took === null ? '' : summary.took + ' ms' }),
        ]);
        if (summary.id === selectedID) tr.classList.add('selected');
        return tr;
      }

      // Adds or replaces the row of one request, newest first.
      function upsert(event) {
        const summary = summarize(event);
        if (!summary.id) return;
        const existing = rows.get(summary.id);
        if (existing && existing.summary.status !== null && summary.status === null) return;
        const tr = renderRow(summary);
        tr.hidden = !passes(summary);
        if (existing) {
          existing.tr.replaceWith(tr);
        } else {
          const body = $('request-rows');
          let before = null;
          for (const other of body.children) {
            if (Number(other.dataset.journalId) < summary.journalID) { before = other; break; }
          }
          body.insertBefore(tr, before);
        }
        rows.set(summary.id, { summary: summary, tr: tr });
        while (rows.size > MOST_ROWS) {
          const last = $('request-rows').lastElementChild;
          for (const [id, row] of rows) if (row.tr === last) rows.delete(id);
          last.remove();
        }
        updateCount();
      }

      function passes(summary) {
        const method = $('filter-method').value;
        if (method && summary.method.toUpperCase() !== method) return false;
        const matched = $('filter-matched').value;
        if (matched === 'matched' && !summary.matched) return false;
        if (matched === 'unmatched' && summary.matched) return false;
        const status = $('filter-status').value.trim().toLowerCase();
        if (status) {
          const code = summary.status === null ? '' : String(summary.status);
          if (/^[1-5]xx$/.test(status)) {
            if (code[0] !== status[0]) return false;
          } else if (code !== status) {
            return false;
          }
        }
        const path = $('filter-path').value;
        if (path && !summary.url.toLowerCase().includes(path.toLowerCase())) return false;
        return true;
      }

      function applyFilters() {
        for (const row of rows.values()) row.tr.hidden = !passes(row.summary);
        updateCount();
      }

      function updateCount() {
        let shown = 0;
        for (const row of rows.values()) if (!row.tr.hidden) shown += 1;
        const total = Math.max(journalTotal, rows.size);
        $('request-count').textContent = shown + ' shown of ' + rows.size + ' loaded (' + total + ' in the journal)';
        $('empty').hidden = rows.size > 0;
        $('older').hidden = rows.size >= total;
      }

      async function loadJournal(reset) {
        if (reset) {
          rows.clear();
          $('request-rows').replaceChildren();
          $('notice').hidden = true;
        }
        try {
          const page = await getJSON('/requests?limit=' + PAGE + '&offset=' + rows.size);
          journalTotal = page.meta && typeof page.meta.total === 'number' ? page.meta.total : 0;
          for (const event of page.requests || []) upsert(event);
          updateCount();
        } catch (error) {
          showProblem('The journal could not be read: ' + error.message);
        }
      }

      // MARK: One request

      function headerPairs(headers) {
        const pairs = [];
        for (const [name, value] of Object.entries(headers || {})) {
          for (const one of Array.isArray(value) ? value : [value]) pairs.push([name, String(one)]);
        }
        return pairs;
      }

      function headerTable(headers) {
        const pairs = headerPairs(headers);
        if (pairs.length === 0) return el('p', { class: 'hint', text: 'No headers.' });
        return el('dl', {}, pairs.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', { text: value })]));
      }

      function bodyBlock(body, base64) {
        if (body) return el('pre', { text: body });
        if (base64) return el('pre', { text: '(binary, base64) ' + base64 });
        return el('p', { class: 'hint', text: 'No body.' });
      }

      function shellQuote(text) {
        return "'" + String(text).replace(/'/g, "'\\''") + "'";
      }

      function curlCommand(event) {
        const request = event.request || {};
        const parts = ['curl'];
        if (request.method && request.method !== 'GET') parts.push('-X', shellQuote(request.method));
        parts.push(shellQuote(request.absoluteUrl || request.url || ''));
        for (const [name, value] of headerPairs(request.headers)) {
          if (['host', 'content-length', 'connection'].includes(name.toLowerCase())) continue;
          parts.push('-H', shellQuote(name + ': ' + value));
        }
        if (request.body) {
          parts.push('--data-binary', shellQuote(request.body));
        } else if (request.bodyAsBase64) {
          return 'printf %s ' + shellQuote(request.bodyAsBase64) + ' | base64 -d | ' + parts.join(' ') + ' --data-binary @-';
        }
        return parts.join(' ');
      }

      function parsedJSON(text) {
        try { return { value: JSON.parse(text) }; } catch (error) { return null; }
      }

      // A WireMock stub mapping that answers this request as it was answered (200 when no stub did).
      function stubMapping(event) {
        const request = event.request || {};
        const target = String(request.url || '/');
        const matcher = { method: request.method || 'GET', urlPath: target.split('?')[0] };
        const query = {};
        for (const [name, parameter] of Object.entries(request.queryParams || {})) {
          const values = Array.isArray(parameter.values) ? parameter.values : [];
          if (values.length === 1) query[name] = { equalTo: String(values[0]) };
          else if (values.length > 1) query[name] = { hasExactly: values.map((value) => ({ equalTo: String(value) })) };
        }
        if (Object.keys(query).length > 0) matcher.queryParameters = query;
        if (request.body) {
          matcher.bodyPatterns = [parsedJSON(request.body) ? { equalToJson: request.body } : { equalTo: request.body }];
        }
        const answer = { status: 200 };
        if (event.wasMatched && event.response) {
          answer.status = event.response.status;
          const headers = {};
          for (const [name, value] of Object.entries(event.response.headers || {})) {
            if (!['content-length', 'date', 'connection', 'transfer-encoding'].includes(name.toLowerCase())) headers[name] = value;
          }
          if (Object.keys(headers).length > 0) answer.headers = headers;
          const body = event.response.body;
          if (body) {
            const json = parsedJSON(body);
            if (json && typeof json.value === 'object' && json.value !== null) answer.jsonBody = json.value;
            else answer.body = body;
          }
        }
        return { name: matcher.method + ' ' + matcher.urlPath, request: matcher, response: answer };
      }

      function copyButton(label, text) {
        const button = el('button', { type: 'button', text: label });
        button.addEventListener('click', () => {
          if (!navigator.clipboard) return;
          navigator.clipboard.writeText(text()).then(
            () => { button.textContent = 'Copied'; },
            () => { button.textContent = 'Select the text to copy it'; });
        });
        return button;
      }

      // A streamed answer's parts and a WebSocket conversation's messages, each with its time from the start.
      function timelineBlocks(timeline) {
        const blocks = [];
        const content = (item) => item.text !== undefined ? String(item.text) : '(binary, base64) ' + String(item.base64 || '');
        const cut = (item) => item.cut ? ' (shown in part)' : '';
        const stream = timeline.stream;
        if (stream) {
          blocks.push(el('h3', { text: 'Streamed parts' }));
          blocks.push(el('p', { class: 'hint', text: stream.partCount + ' parts, ' + stream.byteCount + ' bytes, ' + (stream.ending ? String(stream.ending) : 'still open') }));
          blocks.push(el('ol', { class: 'timeline' }, (stream.parts || []).map((part) => el('li', {}, [
            el('span', { class: 'offset', text: '+' + part.offsetMilliseconds + ' ms, ' + part.bytes + ' bytes' + cut(part) }),
            el('pre', { text: content(part) }),
          ]))));
        }
        const conversation = timeline.webSocket;
        if (conversation) {
          const state = conversation.open ? 'open' : 'closed' + (conversation.closeCode === undefined ? '' : ' with ' + conversation.closeCode);
          blocks.push(el('h3', { text: 'WebSocket messages' }));
          blocks.push(el('p', { class: 'hint', text: conversation.messageCount + ' messages, ' + state }));
          blocks.push(el('ol', { class: 'timeline' }, (conversation.messages || []).map((message) => el('li', {}, [
            el('span', { class: 'offset', text: '+' + message.offsetMilliseconds + ' ms, ' + (message.fromClient ? 'from the client' : 'to the client') + cut(message) }),
            el('pre', { text: content(message) }),
          ]))));
        }
        return blocks;
      }

      async function showDetail(id) {
        selectedID = id;
        for (const row of rows.values()) row.tr.classList.toggle('selected', row.summary.id === id);
        const panel = $('detail');
        panel.hidden = false;
        panel.replaceChildren(el('p', { class: 'hint', text: 'Loading…' }));
        let event;
        try {
          event = await getJSON('/requests/' + encodeURIComponent(id));
        } catch (error) {
          panel.replaceChildren(el('p', { text: 'This request is no longer in the journal (' + error.message + ').' }));
          return;
        }
        if (selectedID !== id) return;
        const request = event.request || {};
        const extra = event.httpmock || {};
        const status = event.response ? event.response.status : (event.responseDefinition || {}).status;
        const heading = el('h2', { tabindex: '-1', text: String(request.method || '') + ' ' + String(request.absoluteUrl || request.url || '') });
        const output = el('pre', { hidden: '' });
        const showCurl = el('button', { type: 'button', text: 'Copy as curl' });
        showCurl.addEventListener('click', () => {
          output.textContent = curlCommand(event);
          output.hidden = false;
          if (navigator.clipboard) navigator.clipboard.writeText(output.textContent).catch(() => {});
        });
        const showStub = el('button', { type: 'button', text: 'Make a stub from this request' });
        showStub.addEventListener('click', () => {
          output.textContent = JSON.stringify(stubMapping(event), null, 2);
          output.hidden = false;
        });
        const facts = [
          ['Received', String(request.loggedDateString || '')],
          ['Status', status === undefined ? 'not answered yet' : String(status)],
          ['Answered by', event.wasMatched ? String(extra.stubSummary || extra.resolution || '') : String(extra.resolution || 'no stub')],
          ['Matched as', String(extra.matchedAs || '')],
          ['Took', event.timing ? event.timing.totalTime + ' ms' : ''],
          ['Client', String(request.clientIp || '')],
        ];
        if (extra.error) facts.push(['Error', String(extra.error)]);
        if (extra.bodyTruncation) facts.push(['Body', String(extra.bodyTruncation)]);
        const parts = [
          heading,
          el('div', { class: 'actions' }, [showCurl, showStub, copyButton('Copy the output', () => output.textContent)]),
          output,
          el('dl', {}, facts.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', { text: value })])),
        ];
        if (!event.wasMatched) {
          parts.push(el('h3', { text: 'Why no stub answered' }));
          parts.push(extra.report ? el('pre', { text: String(extra.report) }) : el('p', { class: 'hint', text: 'No report.' }));
        }
        parts.push(el('h3', { text: 'Request headers' }), headerTable(request.headers));
        parts.push(el('h3', { text: 'Request body' }), bodyBlock(request.body, request.bodyAsBase64));
        if (event.response) {
          parts.push(el('h3', { text: 'Response headers' }), headerTable(event.response.headers));
          parts.push(el('h3', { text: 'Response body' }), bodyBlock(event.response.body, event.response.bodyAsBase64));
        }
        panel.replaceChildren(...parts);
        heading.focus();
        try {
          const timeline = await getJSON('/webapp/requests/' + encodeURIComponent(id) + '/timeline');
          if (selectedID === id) panel.append(...timelineBlocks(timeline));
        } catch (error) {
          // Gone from the journal since: the details above are what there is.
        }
      }

      // MARK: Live

      function connect() {
        const source = new EventSource(API + '/webapp/events');
        source.addEventListener('open', () => {
          $('live').textContent = 'Live';
          $('live').classList.add('on');
        });
        source.addEventListener('error', () => {
          $('live').textContent = 'Disconnected; trying again…';
          $('live').classList.remove('on');
        });
        // Each time the stream (re)starts it observes the journal: what happened before is read from the list.
        source.addEventListener('ready', () => { loadJournal(true); });
        source.addEventListener('request', (message) => {
          const event = parsedJSON(message.data);
          if (event && event.value) {
            if (!rows.has(String(event.value.id || ''))) journalTotal += 1;
            upsert(event.value);
          }
        });
        source.addEventListener('dropped', (message) => {
          const event = parsedJSON(message.data);
          const count = event && event.value ? Number(event.value.dropped) : 0;
          showProblem(count + ' request events were dropped because this page could not keep up.');
        });
      }

      // MARK: Stubs

      function sourceText(source) {
        const kind = String((source || {}).kind || '');
        if (kind === 'file') return 'File: ' + String(source.place || '');
        if (kind === 'adminAPI') return 'Admin API: mapping ' + String(source.mappingId || '');
        return 'Code (registered in Swift)';
      }

      function statesText(states, prefix, joiner) {
        return (Array.isArray(states) ? states : []).map((one) => prefix + String(one.scenario || '') + joiner + String(one.state || ''));
      }

      function renderStub(stub) {
        const enabled = stub.enabled === true;
        const scenario = statesText(stub.requiredStates, 'needs ', ' in ').concat(statesText(stub.movesTo, 'moves ', ' to ')).join('; ');
        const name = stub.name === undefined ? null : el('div', { class: 'route', text: String(stub.name) });
        const remaining = stub.servesForever ? 'answers for ever' : String(stub.remainingResponses) + ' response(s) left';
        return el('tr', { class: enabled ? 'stub-row' : 'stub-row disabled', 'data-stub-id': String(stub.id || '') }, [
          el('td', {}, [
            name,
            el('div', { class: name ? 'summary' : 'route', text: String(stub.route || '') }),
            el('div', { class: 'summary', text: String(stub.id || '') + ' ' + String(stub.summary || '') }),
          ]),
          el('td', { class: 'source', text: sourceText(stub.source) }),
          el('td', { class: 'hits', title: remaining, text: String(typeof stub.hits === 'number' ? stub.hits : 0) }),
          el('td', { class: 'enabled', text: enabled ? 'Yes' : 'No (disabled)' }),
          el('td', { class: 'source', text: scenario }),
        ]);
      }

      async function loadStubs(reset) {
        const load = ++stubLoads;
        if (reset) stubOffset = 0;
        try {
          const page = await getJSON('/webapp/stubs?limit=' + PAGE + '&offset=' + stubOffset);
          if (load !== stubLoads) return;
          if (reset) $('stub-rows').replaceChildren();
          const stubs = Array.isArray(page.stubs) ? page.stubs : [];
          stubOffset += stubs.length;
          for (const stub of stubs) $('stub-rows').append(renderStub(stub));
          const total = page.meta && typeof page.meta.total === 'number' ? page.meta.total : stubOffset;
          $('stub-count').textContent = stubOffset + ' of ' + total + ' stubs';
          $('more-stubs').hidden = stubOffset >= total || stubs.length === 0;
          $('mock-disabled').hidden = page.mockEnabled !== false;
        } catch (error) {
          showProblem('The stubs could not be read: ' + error.message);
        }
      }

      // MARK: Scenarios

      const SVG = 'http://www.w3.org/2000/svg';

      // An SVG element: attributes set by name, text as a text node, never markup.
      function svg(tag, attributes, children) {
        const node = document.createElementNS(SVG, tag);
        for (const [name, value] of Object.entries(attributes || {})) {
          if (name === 'text') node.textContent = value;
          else node.setAttribute(name, String(value));
        }
        for (const child of children || []) if (child) node.append(child);
        return node;
      }

      function clip(text, most) {
        return text.length > most ? text.slice(0, most - 1) + '…' : text;
      }

      // The states in a row, in the order the scenario names them (a dashed "any state" first when a stub moves
      // the scenario from whatever state it is in); each move a curve, above the row when it goes right, below
      // when it goes left, a loop when it stays, labelled with its stub's route (its summary on hover).
      function scenarioGraph(scenario, index) {
        const current = String(scenario.state || '');
        const names = [];
        const add = (name) => { if (!names.includes(name)) names.push(name); };
        for (const state of Array.isArray(scenario.possibleStates) ? scenario.possibleStates : []) add(String(state));
        add(current);
        const moves = (Array.isArray(scenario.transitions) ? scenario.transitions : []).map((move) => ({
          from: move.from === null || move.from === undefined ? null : String(move.from),
          to: String(move.to || ''),
          route: String(move.route || ''),
          title: String(move.stub || '') + ' ' + String(move.summary || ''),
        }));
        for (const move of moves) { if (move.from !== null) add(move.from); add(move.to); }
        const nodes = (moves.some((move) => move.from === null) ? [{ name: null, label: 'any state' }] : [])
          .concat(names.map((name) => ({ name: name, label: name })));
        const PAD = 16, GAP = 110, HEIGHT = 34, CHAR = 7.5;
        let x = PAD;
        for (const node of nodes) {
          node.shown = clip(node.label, 28);
          node.width = Math.max(80, Math.round(node.shown.length * CHAR) + 28);
          node.x = x;
          node.center = x + node.width / 2;
          x += node.width + GAP;
        }
        const width = Math.max(x - GAP + PAD, 200);
        const pairs = new Map();
        const edges = moves.map((move) => {
          const from = nodes.find((node) => node.name === move.from);
          const to = nodes.find((node) => node.name === move.to);
          const key = String(nodes.indexOf(from)) + '>' + String(nodes.indexOf(to));
          const nth = pairs.get(key) || 0;
          pairs.set(key, nth + 1);
          const distance = Math.abs(to.center - from.center);
          const bend = from === to ? 36 + nth * 16 : 28 + distance * 0.22 + nth * 22;
          return { move: move, from: from, to: to, bend: bend, below: from !== to && to.center < from.center };
        });
        const above = Math.max(0, ...edges.filter((edge) => !edge.below).map((edge) => edge.bend));
        const below = Math.max(0, ...edges.filter((edge) => edge.below).map((edge) => edge.bend));
        const top = PAD + above + 14;
        const height = top + HEIGHT + below + 14 + PAD;
        const marker = 'arrow-' + index;
        const root = svg('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'img',
          'aria-label': 'States of scenario ' + String(scenario.name || '') + ', now in ' + current, 'data-scenario': String(scenario.name || '') }, [
          svg('defs', {}, [svg('marker', { id: marker, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, [
            svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }),
          ])]),
        ]);
        for (const edge of edges) {
          let d, labelX, labelY;
          if (edge.from === edge.to) {
            const c = edge.from.center;
            d = `M ${c - 14} ${top} C ${c - 48} ${top - edge.bend}, ${c + 48} ${top - edge.bend}, ${c + 14} ${top}`;
            labelX = c; labelY = top - edge.bend * 0.75 - 4;
          } else if (!edge.below) {
            // Out of a state right of its middle, into one left of it: a state's arrows in and out never meet.
            const a = edge.from.center + 10, b = edge.to.center - 10;
            d = `M ${a} ${top} C ${a} ${top - edge.bend}, ${b} ${top - edge.bend}, ${b} ${top}`;
            labelX = (a + b) / 2; labelY = top - edge.bend * 0.75 - 4;
          } else {
            const a = edge.from.center - 10, b = edge.to.center + 10, y = top + HEIGHT;
            d = `M ${a} ${y} C ${a} ${y + edge.bend}, ${b} ${y + edge.bend}, ${b} ${y}`;
            labelX = (a + b) / 2; labelY = y + edge.bend * 0.75 + 13;
          }
          root.append(svg('g', { class: 'edge' }, [
            svg('title', { text: (edge.move.from === null ? 'any state' : edge.move.from) + ' → ' + edge.move.to + ': ' + edge.move.title }),
            svg('path', { d: d, 'marker-end': 'url(#' + marker + ')' }),
            svg('text', { x: labelX, y: labelY, 'text-anchor': 'middle', text: clip(edge.move.route, 36) }),
          ]));
        }
        for (const node of nodes) {
          const classes = 'state' + (node.name === null ? ' any' : '') + (node.name === current ? ' current' : '');
          const group = svg('g', { class: classes, 'data-state': node.name === null ? '' : node.name }, [
            svg('title', { text: node.name === null ? 'any state' : node.label + (node.name === current ? ' (current)' : '') }),
            svg('rect', { x: node.x, y: top, width: node.width, height: HEIGHT, rx: 17 }),
            svg('text', { x: node.center, y: top + HEIGHT / 2 + 4.5, 'text-anchor': 'middle', text: node.shown }),
          ]);
          if (node.name === current) group.setAttribute('aria-current', 'true');
          root.append(group);
        }
        return el('div', { class: 'graph' }, [root]);
      }

      function renderScenario(scenario, index) {
        const name = String(scenario.name || '');
        const moves = Array.isArray(scenario.transitions) ? scenario.transitions : [];
        const more = typeof scenario.transitionCount === 'number' && scenario.transitionCount > moves.length
          ? el('p', { class: 'hint', text: moves.length + ' of ' + scenario.transitionCount + ' moves shown' }) : null;
        return el('article', { class: 'scenario', 'data-scenario': name }, [
          el('h3', { text: name }),
          el('p', { text: 'Current state: ' + String(scenario.state || '') }),
          scenarioGraph(scenario, index),
          moves.length === 0 ? el('p', { class: 'hint', text: 'No stub moves this scenario.' }) :
            el('ul', { class: 'transitions', 'aria-label': 'Moves' }, moves.map((move) =>
              el('li', { text: (move.from === null || move.from === undefined ? 'any state' : String(move.from)) + ' → ' + String(move.to || '') + ' (' + String(move.route || '') + ', stub ' + String(move.stub || '') + ')' }))),
          more,
        ]);
      }

      async function loadScenarios(reset) {
        const load = ++scenarioLoads;
        if (reset) scenarioOffset = 0;
        try {
          const page = await getJSON('/webapp/scenarios?limit=' + PAGE + '&offset=' + scenarioOffset);
          if (load !== scenarioLoads) return;
          if (reset) $('scenarios').replaceChildren();
          const scenarios = Array.isArray(page.scenarios) ? page.scenarios : [];
          const total = page.meta && typeof page.meta.total === 'number' ? page.meta.total : scenarios.length;
          if (total === 0) $('scenarios').replaceChildren(el('p', { class: 'hint', text: 'No stub names a scenario.' }));
          scenarios.forEach((scenario, index) => $('scenarios').append(renderScenario(scenario, scenarioOffset + index)));
          scenarioOffset += scenarios.length;
          $('scenario-count').textContent = total === 0 ? '' : scenarioOffset + ' of ' + total + ' scenarios';
          $('more-scenarios').hidden = scenarioOffset >= total || scenarios.length === 0;
        } catch (error) {
          showProblem('The scenarios could not be read: ' + error.message);
        }
      }

      // MARK: Start

      function start() {
        for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showView(tab.dataset.view));
        $('filters').addEventListener('submit', (event) => event.preventDefault());
        for (const id of ['filter-method', 'filter-matched']) $(id).addEventListener('change', applyFilters);
        for (const id of ['filter-status', 'filter-path']) $(id).addEventListener('input', applyFilters);
        $('older').addEventListener('click', () => loadJournal(false));
        $('reload-journal').addEventListener('click', () => loadJournal(true));
        $('refresh-stubs').addEventListener('click', () => loadStubs(true));
        $('more-stubs').addEventListener('click', () => loadStubs(false));
        $('refresh-scenarios').addEventListener('click', () => loadScenarios(true));
        $('more-scenarios').addEventListener('click', () => loadScenarios(false));
        updateCount();
        connect();
      }

      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
      else start();
    })();
    """##
}
#endif
