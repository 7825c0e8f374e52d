//! `hookrt history --html`: one self-contained page (inline CSS and script, the records
//! embedded as JSON, nothing fetched) drawing each dispatch as a row and each hook run as a bar
//! from its start to its end, coloured by decision, with the run's details on hover and click.

use crate::runtime::history::Record;

/// The page for these records.
pub(crate) fn page(records: &[Record]) -> String {
    // `</script>` inside a string must not end the data block.
    let data = serde_json::to_string(records).unwrap_or_else(|_| "[]".into()).replace('<', "\\u003c");
    TEMPLATE.replace("/*DATA*/[]", &data)
}

const TEMPLATE: &str = r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hookrt history</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#1d2330;background:#fafbfc}
h1{font-size:18px;margin:0 0 4px}
#summary{color:#5a6275;margin-bottom:12px}
.legend span{display:inline-block;margin-right:12px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-2px;margin-right:4px}
.row{display:grid;grid-template-columns:330px 1fr;align-items:center;border-top:1px solid #e3e6ec;min-height:26px}
.label{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding-right:8px}
.label b{font-weight:600}
.track{position:relative;margin:3px 0;background:linear-gradient(90deg,#eef1f5 1px,transparent 1px) 0 0/10% 100%}
.bar{position:absolute;height:14px;border-radius:3px;min-width:3px;cursor:pointer;opacity:.9}
.bar:hover{opacity:1;outline:2px solid #1d2330}
.deny{background:#d93f3f}.allow{background:#2e9d5b}.ask,.defer{background:#e0a11b}.none{background:#7d8799}
.timeout{background:repeating-linear-gradient(45deg,#d93f3f,#d93f3f 4px,#8c1d1d 4px,#8c1d1d 8px)}
.failed{background:repeating-linear-gradient(45deg,#7d8799,#7d8799 4px,#4a5160 4px,#4a5160 8px)}
.tag{display:inline-block;padding:0 5px;border-radius:3px;color:#fff;font-size:11px;margin-right:6px}
#details{position:fixed;right:16px;bottom:16px;width:440px;max-height:60vh;overflow:auto;background:#fff;border:1px solid #c9ced8;border-radius:6px;padding:10px;box-shadow:0 4px 16px #0002;display:none;white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace}
</style></head>
<body>
<h1>hookrt history</h1>
<div id="summary"></div>
<div class="legend"><span><i class="deny"></i>deny</span><span><i class="allow"></i>allow</span><span><i class="ask"></i>ask / defer</span><span><i class="none"></i>no decision</span><span><i class="timeout"></i>timed out</span><span><i class="failed"></i>failed</span></div>
<div id="rows"></div>
<div id="details"></div>
<script type="application/json" id="data">/*DATA*/[]</script>
<script>
"use strict";
const records = JSON.parse(document.getElementById('data').textContent);
const max = Math.max(1, ...records.map(r => Math.max(r.durationMs, ...r.runs.map(x => x.startMs + x.durationMs))));
const runs = records.reduce((n, r) => n + r.runs.length, 0);
document.getElementById('summary').textContent =
  `${records.length} dispatch(es), ${runs} hook run(s); the full width is ${max.toFixed(1)} ms`;
const rows = document.getElementById('rows');
const details = document.getElementById('details');
function text(x) {
  return [`hook     ${x.id}`, `dialect  ${x.dialect} (${x.kind})`, `file     ${x.file}`, `matcher  ${x.matcher ?? '*'}`,
    `decision ${x.decision}`, `exit     ${x.exitCode ?? (x.timedOut ? 'timed out' : '-')}`,
    `start    +${x.startMs} ms, ran ${x.durationMs} ms`, x.error ? `error    ${x.error}` : '',
    x.stdout ? `stdout\n${x.stdout}` : '', x.stderr ? `stderr\n${x.stderr}` : ''].filter(Boolean).join('\n');
}
for (const r of records) {
  const row = document.createElement('div');
  row.className = 'row';
  const label = document.createElement('div');
  label.className = 'label';
  const tag = document.createElement('span');
  tag.className = 'tag ' + r.decision;
  tag.textContent = r.decision;
  const b = document.createElement('b');
  b.textContent = r.event;
  label.append(tag, b, ` ${r.ts.slice(11, 23)} · ${r.durationMs.toFixed(1)} ms`);
  label.title = (r.reason ? `reason: ${r.reason}\n` : '') + (r.session_id ? `session: ${r.session_id}` : '');
  const track = document.createElement('div');
  track.className = 'track';
  // One lane per run, so runs that overlap in time (parallel hooks) are all visible.
  track.style.height = (18 * Math.max(1, r.runs.length)) + 'px';
  r.runs.forEach((x, lane) => {
    const bar = document.createElement('div');
    bar.className = 'bar ' + (x.timedOut ? 'timeout' : x.error ? 'failed' : x.decision);
    bar.style.left = (100 * x.startMs / max) + '%';
    bar.style.width = (100 * x.durationMs / max) + '%';
    bar.style.top = (2 + 18 * lane) + 'px';
    bar.title = text(x);
    bar.dataset.hook = x.id;
    bar.onclick = () => { details.textContent = text(x); details.style.display = 'block'; };
    track.append(bar);
  });
  row.append(label, track);
  rows.append(row);
}
document.body.dataset.bars = String(document.querySelectorAll('.bar').length);
</script>
</body></html>
"##;
