import{a as e,c as t,i as n,l as r,n as i,o as a,r as o,s,t as c}from"./index-C3qz7k_W.js";var l=`agentblame-session`;function u(e,t){return e!=null&&Object.hasOwn(e,t)?e[t]:void 0}function d(e,t){let n=u(e,t);return typeof n==`number`?n:void 0}function f(e){let t=null;for(let n of e.players){let r=d(e.shapley,n);r!==void 0&&Number.isFinite(r)&&(!t||r>t.value)&&(t={step:n,value:r})}return t}function p(e){let t=e=>e.error?0:e.failed&&f(e)?1:2;return e.map((e,n)=>({result:e,index:n,group:t(e),top:f(e)?.value??-1/0})).sort((e,t)=>e.group-t.group||t.top-e.top||e.index-t.index).map(e=>e.result)}var m=`ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/`;function h(e){let t=``;for(let n=0;n<e.length;n+=3){let r=e[n],i=n+1<e.length?e[n+1]:0,a=n+2<e.length?e[n+2]:0;t+=m[r>>2],t+=m[(r&3)<<4|i>>4],t+=n+1<e.length?m[(i&15)<<2|a>>6]:`=`,t+=n+2<e.length?m[a&63]:`=`}return t}function ee(e){let t=new Uint8Array(g(e)),n=0;for(let r=0;r<e.length;r++){let i=_(e,r);i>65535&&r++,i<128?t[n++]=i:i<2048?(t[n++]=192|i>>6,t[n++]=128|i&63):i<65536?(t[n++]=224|i>>12,t[n++]=128|i>>6&63,t[n++]=128|i&63):(t[n++]=240|i>>18,t[n++]=128|i>>12&63,t[n++]=128|i>>6&63,t[n++]=128|i&63)}return t}function g(e){let t=0;for(let n=0;n<e.length;n++){let r=_(e,n);r>65535&&n++,t+=r<128?1:r<2048?2:r<65536?3:4}return t}function _(e,t){let n=e.charCodeAt(t);if(n>=55296&&n<=56319&&t+1<e.length){let r=e.charCodeAt(t+1);if(r>=56320&&r<=57343)return 65536+(n-55296<<10)+(r-56320)}return n>=55296&&n<=57343?65533:n}function v(e){return`'sha256-${h(t(ee(e)))}'`}function y(e){let t=JSON.stringify(e);if(t===void 0)throw Error(`Report data: the session is not JSON-serialisable (got undefined).`);return t.replace(/[<>&\u2028\u2029]/g,e=>`\\u${e.charCodeAt(0).toString(16).padStart(4,`0`)}`)}var b=[[`coalitions`,`history`],[`coalitions`,`history`,`factualOutputs`,`fixedOutputs`]];function x(e,t){let{revision:n,...r}=e,i=y(r);if(g(i)<=t)return{json:i,omitted:[]};let a={json:i,omitted:[]};for(let e of b){let n=r.results.map(t=>{let n={...t};for(let t of e)delete n[t];return n});if(a={json:y({...r,results:n}),omitted:[...e]},g(a.json)<=t)return a}return a}function S(e){return e.replace(/[&<>"']/g,e=>C[e])}var C={"&":`&amp;`,"<":`&lt;`,">":`&gt;`,'"':`&quot;`,"'":`&#39;`};function w(e,t){if(e.length<=t)return e;let n=t,r=e.charCodeAt(n-1);return r>=55296&&r<=56319&&n--,`${e.slice(0,n)}… (${e.length-n} more characters)`}function T(e,t){let n=new Map;for(let e of t??[])n.set(e.step,e.fix);for(let t of e.results)for(let e of t.players)n.has(e)||n.set(e,null);let r=e.settings.fixChoice??{};for(let e of Object.keys(r))n.has(e)||n.set(e,null);return[...n].map(([e,t])=>({step:e,fix:t??u(r,e)??null}))}var E=`
(function () {
  'use strict';
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  function sortKey(row, index) {
    var cell = row.cells[index];
    if (!cell) return '';
    var raw = cell.getAttribute('data-v');
    if (raw !== null && raw !== '' && !isNaN(Number(raw))) return Number(raw);
    return (cell.textContent || '').trim().toLowerCase();
  }
  each(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies[0]) return;
    var headers = table.tHead.rows[0].cells;
    each(headers, function (th, index) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener('click', function () {
        var direction = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
        each(headers, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', direction);
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = sortKey(a, index), y = sortKey(b, index);
          var order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          return direction === 'ascending' ? order : -order;
        });
        each(rows, function (row) { body.appendChild(row); });
      });
    });
  });
  var list = document.getElementById('case-list');
  if (!list) return;
  var items = list.querySelectorAll('details.case');
  var tools = document.createElement('div');
  tools.className = 'case-tools';
  var input = document.createElement('input');
  input.type = 'search';
  input.placeholder = 'Filter cases by id, status or step';
  input.setAttribute('aria-label', 'Filter cases');
  var count = document.createElement('span');
  count.className = 'muted';
  function button(label, open) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', function () { each(items, function (d) { if (!d.hidden) d.open = open; }); });
    return b;
  }
  input.addEventListener('input', function () {
    var query = input.value.trim().toLowerCase();
    var shown = 0;
    each(items, function (d) {
      var summary = d.querySelector('summary');
      var hit = !query || (summary && (summary.textContent || '').toLowerCase().indexOf(query) >= 0);
      d.hidden = !hit;
      if (hit) shown++;
    });
    count.textContent = query ? shown + ' of ' + items.length + ' shown' : '';
  });
  tools.appendChild(input);
  tools.appendChild(button('Expand all', true));
  tools.appendChild(button('Collapse all', false));
  tools.appendChild(count);
  list.parentNode.insertBefore(tools, list);
})();
`;function D(e,t){let n=e.filter(e=>e.failed&&!e.error&&e.shapley),r=[...t];for(let e of n)for(let t of e.players)r.includes(t)||r.push(t);let i=e=>n.length===0?0:n.reduce((t,n)=>t+O(e(n)),0)/n.length;return{analysed:n.length,steps:r.map(e=>({step:e,shapley:i(t=>d(t.shapley,e)),fixAlone:i(t=>d(t.fixAlone,e)),leaveOneOut:i(t=>d(t.leaveOneOut,e)),lastTouch:n.filter(t=>t.lastTouch===e).length}))}}function O(e){return e!==void 0&&Number.isFinite(e)?e:0}function k(e,t,n,r,i=5){if(Number.isFinite(e)&&Number.isFinite(t)||([e,t]=[0,1]),e>t&&([e,t]=[t,e]),t-e<1e-12){let n=Math.abs(t)>1e-12?Math.abs(t)*.5:1;e-=e===0?0:n,t+=n}let a=te((t-e)/Math.max(1,i)),o=Math.floor(e/a+1e-9)*a,s=Math.ceil(t/a-1e-9)*a,c=[];for(let e=0;o+e*a<=s+a*1e-9;e++)c.push(ne(o+e*a,a));let l=[o,s],u=s-o;return{domain:l,ticks:c,toPixel:e=>n+(A(e,o,s)-o)/u*(r-n)}}function te(e){let t=10**Math.floor(Math.log10(e));for(let n of[1,2,2.5,5,10])if(e<=n*t*(1+1e-9))return n*t;return 10*t}function ne(e,t){let n=Math.max(0,-Math.floor(Math.log10(t))+2);return Number(e.toFixed(n))}function A(e,t,n){return Math.min(n,Math.max(t,e))}function j(e){return String(Math.round(e*10)/10)}var M=720,N=170,P=14,F=3,I=10,L=24;function R(e,t){let n=e.flatMap(e=>e.bars.flatMap(e=>[e.value,...e.ci??[]])).filter(Number.isFinite),r=k(Math.min(0,...n),Math.max(0,...n),N,644),i=Math.max(1,...e.map(e=>e.bars.length)),a=i*P+(i-1)*F+20,c=e.length*a+L,l=r.toPixel(0),u=[];u.push(`<svg class="chart" viewBox="0 0 ${M} ${c}" role="img" aria-label="${S(t.title)}">`),u.push(`<title>${S(t.title)}</title>`);for(let t of r.ticks){let n=j(r.toPixel(t));u.push(`<line class="grid" x1="${n}" x2="${n}" y1="0" y2="${e.length*a}"/>`),u.push(`<text class="tick" x="${n}" y="${e.length*a+16}" text-anchor="middle">${S(s(t,z(r.ticks)))}</text>`)}return e.forEach((e,n)=>{let i=n*a+I,c=n*a+a/2;u.push(`<g class="row">`),u.push(`<text class="label" x="160" y="${j(c+4)}" text-anchor="end">${S(w(e.label,22))}</text>`),e.bars.forEach((n,a)=>{let c=i+a*17,d=Number.isFinite(n.value)?n.value:0,f=r.toPixel(d),p=n.seriesClass??(d<0?`neg`:`pos`),m=`${w(e.label,200)}${n.series?` · ${n.series}`:``}: ${s(n.value)}${n.ci?` ${o(n.ci)}`:``}`;u.push(`<g><title>${S(m)}</title>`),u.push(`<rect class="bar ${p}" x="${j(Math.min(l,f))}" y="${j(c)}" width="${j(Math.max(1,Math.abs(f-l)))}" height="${P}" rx="2"/>`);let h=Math.max(l,f);if(n.ci&&n.ci.every(Number.isFinite)){let e=r.toPixel(n.ci[0]),t=r.toPixel(n.ci[1]),i=j(c+P/2);u.push(`<path class="whisker" d="M${j(e)} ${i}H${j(t)}M${j(e)} ${j(c+2)}V${j(c+P-2)}M${j(t)} ${j(c+2)}V${j(c+P-2)}"/>`),h=Math.max(h,t)}t.valueLabels!==!1&&u.push(`<text class="value" x="${j(h+6)}" y="${j(c+P-3)}">${S(s(n.value))}</text>`),u.push(`</g>`)}),u.push(`</g>`)}),u.push(`<line class="axis" x1="${j(l)}" x2="${j(l)}" y1="0" y2="${e.length*a}"/>`),u.push(`</svg>`),u.join(``)}function z(e){let t=0;for(let n of e){let e=String(n),r=e.indexOf(`.`);r>=0&&(t=Math.max(t,e.length-r-1))}return Math.min(t,3)}function B(e,t){let n=e.settings,r=e.batch?.cost??e.results.reduce((e,t)=>e+(Number.isFinite(t.cost)?t.cost:0),0),a=e.results.filter(e=>e.failed).length,o=e.results.filter(e=>e.error).length,s=e.cases.length+(e.games?.length??0),l=i(e.updatedAt),u=Number.isFinite(Date.parse(e.updatedAt))?new Date(Date.parse(e.updatedAt)).toISOString():``,d=(e,t)=>`<div><dt>${S(e)}</dt><dd>${t}</dd></div>`,f=[d(`Pipeline`,e.pipeline?S(w(e.pipeline.name,300)):`<span class="muted">none: coalition values were supplied by a game file</span>`),d(`File`,`<span class="mono">${S(w(e.fileName,300))}</span>`),d(`Analysed`,u?`<time datetime="${S(u)}">${S(l)}</time>`:S(w(l,300))),d(`Mode`,S(V(n))),d(`Worlds`,S(n.mode===`recorded`?`1 (each case’s recorded world)`:`${c(n.worlds)} shared by all coalitions`)),d(`Method`,S(H(n))),d(`Confidence`,S(`δ = ${n.delta} (intervals hold together with probability ≥ ${Number(((1-n.delta)*100).toFixed(2))} %)`)),d(`Stop rule`,S(W(n))),d(`Budget per case`,S(Number.isFinite(n.budget)?`${c(n.budget)} step-cost units`:`none`)),d(`Total step cost`,S(`${c(r)} units`)),d(`Seed`,S(String(n.seed))),d(`Cases`,S(`${c(s)} in the file, ${c(e.results.length)} run, ${c(a)} failed${o?`, ${c(o)} with errors`:``}${e.batch?`, ${c(e.batch.unfixable)} not fixable by any combination`:``}`))],p=e.status===`done`?``:`<p class="warning">${S(e.status===`running`?`Partial results: the analysis was still running when this report was made (${e.results.length} of ${s} cases finished).`:e.status===`cancelled`?`Partial results: the analysis was cancelled after ${e.results.length} of ${s} cases.`:`The analysis has not finished (${e.results.length} of ${s} cases have results).`)}</p>`,m=e.pipeline?`its default fix (the first one the definition lists)`:`the fix behind the game table’s values (computed outside agentblame)`,h=t.map(e=>`<tr><td>${S(w(e.step,300))}</td><td>${e.fix===null?`<span class="muted">${m}</span>`:S(w(e.fix,300))}</td></tr>`).join(``);return`<header>
<p class="eyebrow">agentblame report</p>
<h1>${S(w(e.name,300))}</h1>
<dl class="facts">${f.join(``)}</dl>
${p}
</header>
<section id="fixes" aria-labelledby="fixes-title">
<h2 id="fixes-title">Fixes considered</h2>
<p class="callout"><strong>Blame is relative to these fixes.</strong> A step’s value says how much swapping in the fix below repairs the failures, with the randomness held fixed; it does not say the step is wrong in any absolute sense. Other fixes, or an oracle for a step, can split the blame differently.</p>
${t.length?`<table><thead><tr><th>Step</th><th>Fix</th></tr></thead><tbody>${h}</tbody></table>`:`<p class="muted">No steps: nothing was analysed.</p>`}
</section>`}function V(e){switch(e.mode){case`recorded`:return`recorded: each failure is replayed with its own recorded noise (exact, deterministic)`;case`posterior`:return`posterior: noise abducted from the observed choices (counterfactual)`;case`prior`:return`prior: fresh noise (interventional: how often a fix helps on a new run, not why this run failed)`;default:return String(e.mode)}}function H(e){let t=`Monte Carlo sampling with the ${U(e)} estimator (${e.radius} radius, at most ${c(e.maxPermutations)} permutations)`;return e.method===`exact`?`exact Shapley over every coalition`:e.method===`mc`?t:`auto: exact up to 12 steps, else ${t}`}function U(e){let t=r().find(t=>t.name===e.estimator);return`“${t?t.label.toLowerCase():String(e.estimator)}”`}function W(e){switch(e.stop){case`top1`:return`top1: stop once the top step’s interval is apart from all others`;case`ranking`:return`ranking: stop once every adjacent pair of steps is apart`;case`width`:return`width: stop once every interval radius is at most ${n(e.width)}`;case`budget`:return`budget: run until the step-cost budget is spent`;default:return String(e.stop)}}function G(e,t){if(!e)return`<section id="batch" aria-labelledby="batch-title"><h2 id="batch-title">Blame across failures</h2><p class="muted">This session has no batch summary yet (the analysis did not finish).</p></section>`;let n=[...e.steps].sort((e,t)=>t.meanShapley-e.meanShapley),r=n[0],i=[...e.steps].sort((e,t)=>t.fixAloneRate-e.fixAloneRate)[0],l=r?`<p class="lead">Most blamed: <strong>${S(w(r.step,300))}</strong>, mean Shapley ${S(s(r.meanShapley))} ${S(o(r.ci))}, ${S(a(r.share))} of the repairable failure mass.${i&&i.fixAloneRate>0?` Fixing <strong>${S(w(i.step,300))}</strong> alone resolves ${S(a(i.fixAloneRate))} of failures.`:` No single fix resolves any failure on its own.`}</p>`:``,u=`<p class="muted">${S(`${c(e.failures)} failures, ${c(e.analyzed)} analysed, ${c(e.unfixable)} that no combination of the fixes repairs (counted apart); total step cost ${c(e.cost)}.`)}${e.stoppedEarly?` Analysis stopped early: the top step was already separated from the others.`:``}</p>`,d=R(n.map(e=>({label:e.step,bars:[{value:e.meanShapley,ci:e.ci}]})),{title:`Mean Shapley blame per step with confidence intervals`}),f=`${Number(((1-t)*100).toFixed(2))} %`,p=n.map(e=>`<tr><td>${S(w(e.step,300))}</td><td class="num ${q(e.meanShapley)}" data-v="${K(e.meanShapley)}">${S(s(e.meanShapley))}</td><td class="num" data-v="${K(e.ci[0])}">${S(o(e.ci))}</td><td class="num" data-v="${K(e.share)}">${S(a(e.share))}</td><td class="num" data-v="${K(e.fixAloneRate)}">${S(a(e.fixAloneRate))}</td><td class="num" data-v="${K(e.lastTouch)}">${S(c(e.lastTouch))}</td></tr>`).join(``);return`<section id="batch" aria-labelledby="batch-title">
<h2 id="batch-title">Blame across failures</h2>
${l}
${u}
${d}
<table class="sortable"><thead><tr><th>Step</th><th class="num">Mean Shapley</th><th class="num">${S(f)} CI</th><th class="num">Share</th><th class="num">Fixing alone resolves</th><th class="num">Last touch</th></tr></thead><tbody>${p}</tbody></table>
<p class="muted">Share: the step’s part of the total repairable failure mass. Last touch: failures whose last step to change its output is this one.</p>
</section>`}function K(e){return Number.isFinite(e)?String(e):e>0?`1e308`:`-1e308`}function q(e){return e===void 0||!Number.isFinite(e)||Math.abs(e)<5e-4?``:e>0?`pos-text`:`neg-text`}function J(e,t){let{analysed:n,steps:r}=D(e,t);if(n===0)return`<section id="baselines" aria-labelledby="baselines-title"><h2 id="baselines-title">Shapley and the baselines</h2><p class="muted">No analysed failures to compare.</p></section>`;let i=R(r.map(e=>({label:e.step,bars:[{value:e.shapley,series:`Shapley`,seriesClass:`b-shapley`},{value:e.fixAlone,series:`fix-alone`,seriesClass:`b-fixalone`},{value:e.leaveOneOut,series:`leave-one-out`,seriesClass:`b-loo`}]})),{title:`Mean Shapley, fix-alone and leave-one-out per step`}),a=[[`s0`,`Shapley`],[`s3`,`fix-alone`],[`s4`,`leave-one-out`]].map(([e,t])=>`<li><svg class="swatch" viewBox="0 0 12 12" aria-hidden="true"><rect class="series-fill ${e}" width="12" height="12" rx="2"/></svg>${t}</li>`).join(``),o=r.map(e=>`<tr><td>${S(w(e.step,300))}</td><td class="num ${q(e.shapley)}" data-v="${K(e.shapley)}">${S(s(e.shapley))}</td><td class="num" data-v="${K(e.fixAlone)}">${S(s(e.fixAlone))}</td><td class="num" data-v="${K(e.leaveOneOut)}">${S(s(e.leaveOneOut))}</td><td class="num" data-v="${K(e.lastTouch)}">${S(`${c(e.lastTouch)} of ${c(n)}`)}</td></tr>`).join(``);return`<section id="baselines" aria-labelledby="baselines-title">
<h2 id="baselines-title">Shapley and the baselines</h2>
<p>Means over ${S(c(n))} analysed failure${n===1?``:`s`}. <strong>Fix-alone</strong>, v({i}) − v(∅), gives every sufficient cause full credit and a cause that only works together with another none. <strong>Leave-one-out</strong>, v(all) − v(all − i), gives redundant causes nothing. <strong>Last touch</strong> blames the last step whose output differs from its all-fixed output. Shapley averages a step’s effect over every order of applying the fixes.</p>
<figure>${i}<figcaption><ul class="legend">${a}</ul></figcaption></figure>
<table class="sortable"><thead><tr><th>Step</th><th class="num">Shapley</th><th class="num">Fix-alone</th><th class="num">Leave-one-out</th><th class="num">Last touch</th></tr></thead><tbody>${o}</tbody></table>
</section>`}var Y=720,re=260,X=56,ie=12;function ae(e,t,n){let r=e.filter(e=>Number.isFinite(e.permutations)&&e.permutations>0);if(r.length===0)return``;let i=r[0].permutations,a=r[r.length-1].permutations,o=a/i>=4,l=e=>a===i?380:X+(o?Math.log(e/i)/Math.log(a/i):(e-i)/(a-i))*648,u=r.flatMap(e=>[...e.values,...e.ci.flat()]).filter(Number.isFinite),d=k(Math.min(...u),Math.max(...u),220,ie),f=[];f.push(`<svg class="chart convergence" viewBox="0 0 ${Y} ${re}" role="img" aria-label="${S(n)}">`),f.push(`<title>${S(n)}</title>`);for(let e of d.ticks){let t=j(d.toPixel(e));f.push(`<line class="grid" x1="${X}" x2="704" y1="${t}" y2="${t}"/>`),f.push(`<text class="tick" x="50" y="${j(d.toPixel(e)+4)}" text-anchor="end">${S(s(e,2))}</text>`)}for(let e of oe(i,a,o))f.push(`<text class="tick" x="${j(l(e))}" y="236" text-anchor="middle">${S(c(e))}</text>`);if(f.push(`<text class="tick" x="${j(380)}" y="254" text-anchor="middle">permutations${o?` (log scale)`:``}</text>`),d.domain[0]<0&&d.domain[1]>0){let e=j(d.toPixel(0));f.push(`<line class="axis" x1="${X}" x2="704" y1="${e}" y2="${e}"/>`)}t.forEach((e,t)=>{let n=`s${t%8}`,i=r.map(e=>`${j(l(e.permutations))},${j(d.toPixel(e.ci[t]?.[1]??e.values[t]))}`),a=r.map(e=>`${j(l(e.permutations))},${j(d.toPixel(e.ci[t]?.[0]??e.values[t]))}`).reverse(),o=r.map(e=>`${j(l(e.permutations))},${j(d.toPixel(e.values[t]))}`),u=r[r.length-1];f.push(`<g><title>${S(`${w(e,200)}: ${s(u.values[t])} after ${c(u.permutations)} permutations`)}</title>`),f.push(`<polygon class="band ${n}" points="${[...i,...a].join(` `)}"/>`),f.push(`<polyline class="series ${n}" points="${o.join(` `)}"/>`),f.push(`</g>`)}),f.push(`</svg>`);let p=t.map((e,t)=>`<li><svg class="swatch" viewBox="0 0 12 12" aria-hidden="true"><rect class="series-fill s${t%8}" width="12" height="12" rx="2"/></svg>${S(w(e,200))}</li>`).join(``);return`<figure class="convergence-figure">${f.join(``)}<figcaption><ul class="legend">${p}</ul></figcaption></figure>`}function oe(e,t,n){if(e===t)return[e];if(n){let n=[];for(let r=2**Math.ceil(Math.log2(e));r<=t;r*=2)n.push(r);let r=Math.ceil(n.length/8);return n.filter((e,t)=>t%r===0)}return k(e,t,0,1).ticks.filter(n=>n>=e&&n<=t&&Number.isInteger(n))}var Z=2e3;function se(e,t,n){let r=f(e),i=e.error?`error`:e.failed?e.fixable===!1?`unfixable`:`failed`:`passed`,a={error:`error`,passed:`passed`,unfixable:`failed, not fixable`,failed:`failed`}[i],o=`<summary><span class="case-id">${S(w(e.id,300))}</span><span class="badge ${i}">${a}</span>`+(r?`<span class="summary-top">top: ${S(w(r.step,60))} ${S(s(r.value))}</span>`:``)+`<span class="summary-meta">${S(`${e.method===`mc`?`Monte Carlo`:`exact`} · cost ${c(e.cost)}`)}</span></summary>`,l=[];return e.error&&l.push(`<p class="warning"><strong>Could not analyse this case:</strong> ${S(w(e.error,Z))}</p>`),l.push(ce(e)),e.shapley&&l.push(le(e,t)),e.coalitions&&e.players.length<=10&&l.push(ue(e)),(e.factualOutputs||e.fixedOutputs)&&l.push(de(e)),e.mismatches?.length&&l.push(`<h4>Replay mismatches</h4><p class="muted">The replay did not reproduce the recorded run here:</p><ul>${e.mismatches.map(e=>`<li>${S(w(e,Z))}</li>`).join(``)}</ul>`),e.history?.length&&l.push(`<h4>Monte Carlo convergence</h4>${ae(e.history,e.players,`Running Shapley estimates for case ${w(e.id,80)}`)}`),`<details class="case" id="case-${t}"${n?` open`:``}>${o}<div class="case-body">${l.join(`
`)}</div></details>`}function ce(e){let t=(e,t)=>`<div><dt>${S(e)}</dt><dd>${S(t)}</dd></div>`,r=[t(`v(no fix)`,n(e.vEmpty)),t(`v(all fixes)`,n(e.vAll)),t(`Method`,e.method===`mc`?`Monte Carlo, ${c(e.permutations)} permutations`:`exact`),t(`Coalitions evaluated`,c(e.evaluations)),t(`Step cost`,c(e.cost))];return e.stopReason&&r.push(t(`Stopped by`,e.stopReason)),e.fixable!==void 0&&r.push(t(`Fixable`,e.fixable?`yes, by some combination of fixes`:`no combination of fixes repairs it`)),r.push(t(`Last step to touch`,e.lastTouch?w(e.lastTouch,300):`none`)),`<dl class="facts compact">${r.join(``)}</dl>`}function le(e,t){let n=e.players.map(t=>{let n=d(e.shapley,t),r=u(e.ci,t),i=d(e.fixAlone,t),a=d(e.leaveOneOut,t);return`<tr><td>${S(w(t,300))}</td><td class="num ${q(n)}" data-v="${K(n??0)}">${S(s(n))}</td>`+(e.ci?`<td class="num">${S(o(r))}</td>`:``)+`<td class="num" data-v="${K(i??0)}">${S(s(i))}</td><td class="num" data-v="${K(a??0)}">${S(s(a))}</td><td>${e.lastTouch===t?`last touch`:``}</td></tr>`}).join(``),r=R(e.players.map(t=>{let n=u(e.ci,t);return{label:t,bars:[{value:d(e.shapley,t)??0,...n?{ci:n}:{}}]}}),{title:`Shapley blame per step for case ${w(e.id,80)}`}),i=e.players.reduce((t,n)=>t+(d(e.shapley,n)??0),0);return`<table class="sortable" id="case-${t}-blame"><thead><tr><th>Step</th><th class="num">Shapley</th>${e.ci?`<th class="num">CI</th>`:``}<th class="num">Fix-alone</th><th class="num">Leave-one-out</th><th>Baseline blame</th></tr></thead><tbody>${n}</tbody></table>
<p class="muted">The Shapley values add up to v(all) − v(no fix) = ${S(s(i))}.</p>
${r}`}function ue(e){let t=new Map(e.players.map((e,t)=>[e,t])),r=e=>e.reduce((e,n)=>e+2**(t.get(n)??0),0);return`<h4>Coalitions: v(S) with the steps in S fixed</h4><table class="sortable"><thead><tr><th>Steps fixed</th><th class="num">Size</th><th class="num">v(S)</th></tr></thead><tbody>${[...e.coalitions??[]].sort((e,t)=>e.fixed.length-t.fixed.length||r(e.fixed)-r(t.fixed)).map(e=>`<tr><td>${e.fixed.length?e.fixed.map(e=>S(w(e,60))).join(`, `):`<span class="muted">none (the factual run)</span>`}</td><td class="num">${S(c(e.fixed.length))}</td><td class="num" data-v="${K(e.value)}">${S(n(e.value))}</td></tr>`).join(``)}</tbody></table>`}function de(t){let n=t.factualOutputs??{},r=t.fixedOutputs??{},i=[...t.players];for(let e of[...Object.keys(n),...Object.keys(r)])i.includes(e)||i.push(e);return`<h4>Outputs</h4><table><thead><tr><th>Step</th><th>Factual run</th><th>All fixes applied</th></tr></thead><tbody>${i.map(t=>{let i=e(u(n,t)),a=e(u(r,t)),o=i!==a;return`<tr${o?` class="changed"`:``}><td>${S(w(t,300))}${o?` <span class="muted">(changed)</span>`:``}</td><td><pre>${S(w(i,Z))}</pre></td><td><pre>${S(w(a,Z))}</pre></td></tr>`}).join(``)}</tbody></table>`}var Q=`
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #5b6470; --line: #d8dde3; --soft: #f4f6f8; --accent: #2f5fd0;
  --pos: #d9534f; --neg: #2e8b57; --whisker: #1b1f24; --warn-bg: #fff6e0; --warn-line: #e0b54a;
  --s0: #2f5fd0; --s1: #d9534f; --s2: #2e8b57; --s3: #b8860b; --s4: #8e44ad; --s5: #16a2b8; --s6: #e67e22; --s7: #7f8c8d;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15181c; --fg: #e6e9ed; --muted: #9aa4b0; --line: #323942; --soft: #1e2227; --accent: #7fa6ff;
    --pos: #ff7b72; --neg: #56d364; --whisker: #e6e9ed; --warn-bg: #2d2613; --warn-line: #9e7b22;
    --s0: #7fa6ff; --s1: #ff7b72; --s2: #56d364; --s3: #e3b341; --s4: #d2a8ff; --s5: #39c5cf; --s6: #ffa657; --s7: #b1bac4;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body {
  margin: 0 auto; max-width: 1040px; padding: 32px 24px 64px;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  overflow-wrap: anywhere;
}
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0.1em 0 0.6em; }
h2 { font-size: 1.3rem; margin: 2.2em 0 0.6em; padding-bottom: 0.25em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4em 0 0.4em; }
h4 { font-size: 0.95rem; margin: 1.2em 0 0.3em; color: var(--muted); }
p { margin: 0.5em 0; }
.eyebrow { margin: 0; color: var(--muted); font-size: 0.85rem; letter-spacing: 0.08em; text-transform: uppercase; }
.lead { font-size: 1.05rem; }
.muted { color: var(--muted); }
.callout { border-left: 4px solid var(--accent); background: var(--soft); padding: 0.6em 0.9em; border-radius: 0 6px 6px 0; }
.warning { border-left: 4px solid var(--warn-line); background: var(--warn-bg); padding: 0.6em 0.9em; border-radius: 0 6px 6px 0; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 0.4em 1.4em; margin: 0.6em 0 1em; }
.facts div { min-width: 0; }
.facts dt { color: var(--muted); font-size: 0.8rem; }
.facts dd { margin: 0; }
.facts.compact { grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); font-size: 0.92rem; }
code, pre, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.88em; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 18em; overflow: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; font-size: 0.93rem; }
th, td { padding: 0.35em 0.7em; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { font-weight: 600; color: var(--muted); font-size: 0.82rem; border-bottom: 2px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:hover { background: var(--soft); }
.pos-text { color: var(--pos); }
.neg-text { color: var(--neg); }
th[aria-sort="ascending"] .sort::after { content: " \\2191"; }
th[aria-sort="descending"] .sort::after { content: " \\2193"; }
button { font: inherit; color: inherit; }
.sort { background: none; border: 0; padding: 0; cursor: pointer; font-weight: 600; color: inherit; text-align: inherit; }
.sort:hover { color: var(--accent); }
tr.changed td:first-child::before { content: "\\25CF  "; color: var(--accent); }
svg.chart { display: block; width: 100%; height: auto; margin: 0.4em 0 0.8em; font-size: 12px; font-family: inherit; }
svg.chart .label { fill: var(--fg); font-size: 12.5px; }
svg.chart .value, svg.chart .tick { fill: var(--muted); font-variant-numeric: tabular-nums; }
svg.chart .grid { stroke: var(--line); stroke-width: 1; }
svg.chart .axis { stroke: var(--muted); stroke-width: 1.2; }
svg.chart .bar.pos { fill: var(--pos); }
svg.chart .bar.neg { fill: var(--neg); }
svg.chart .bar.b-shapley { fill: var(--s0); }
svg.chart .bar.b-fixalone { fill: var(--s3); }
svg.chart .bar.b-loo { fill: var(--s4); }
svg.chart .whisker { stroke: var(--whisker); stroke-width: 1.5; fill: none; }
svg.chart .series { fill: none; stroke-width: 2; }
svg.chart .band { stroke: none; opacity: 0.1; }
${[0,1,2,3,4,5,6,7].map(e=>`.s${e}.series { stroke: var(--s${e}); } .s${e}.band, .s${e}.series-fill { fill: var(--s${e}); }`).join(`
`)}
svg.swatch { width: 12px; height: 12px; vertical-align: -1px; margin-right: 6px; }
.legend { list-style: none; padding: 0; margin: 0 0 0.5em; display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; font-size: 0.88rem; }
figure { margin: 0; }
.case-tools { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; margin: 0.6em 0; }
.case-tools input { flex: 1 1 260px; padding: 0.4em 0.6em; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); font: inherit; }
.case-tools button { padding: 0.35em 0.8em; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); cursor: pointer; }
details.case { border: 1px solid var(--line); border-radius: 8px; margin: 0.5em 0; background: var(--bg); }
details.case[open] { box-shadow: 0 1px 3px rgba(0, 0, 0, 0.08); }
details.case > summary { cursor: pointer; padding: 0.55em 0.9em; display: flex; flex-wrap: wrap; gap: 0.3em 0.9em; align-items: baseline; }
details.case > summary:hover { background: var(--soft); border-radius: 8px; }
.case-id { font-weight: 600; }
.case-body { padding: 0.2em 1em 1em; border-top: 1px solid var(--line); }
.badge { font-size: 0.75rem; padding: 0.05em 0.55em; border-radius: 999px; border: 1px solid var(--line); color: var(--muted); white-space: nowrap; }
.badge.failed { border-color: var(--pos); color: var(--pos); }
.badge.passed { border-color: var(--neg); color: var(--neg); }
.badge.error, .badge.unfixable { border-color: var(--warn-line); color: var(--fg); background: var(--warn-bg); }
.summary-top { font-variant-numeric: tabular-nums; }
.summary-meta { color: var(--muted); font-size: 0.85rem; margin-left: auto; }
footer { margin-top: 3em; color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); padding-top: 1em; }
@media print { details.case { break-inside: avoid; } .case-tools { display: none; } }
`,fe=.15,pe=4096,$=v(Q),me=v(E);function he(e,t={}){_e(e);let n=t.maxBytes??3e6,r=T(e,t.fixes),i=r.map(e=>e.step),a=`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${$}; script-src ${me}; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="agentblame">
<title>${S(w(e.name,300))} · agentblame report</title>
<style>${Q}</style>
</head>
<body>
`,o=[B(e,r),G(e.batch,e.settings.delta),J(e.results,i)].join(`
`),s=`<footer><p>Made by agentblame from the session saved ${S(w(e.updatedAt,300))}. This file is self-contained: it loads nothing and needs no JavaScript to read. It carries its session data, so dropping it into the agentblame workbench reopens the analysis.</p></footer>
<script>${E}<\/script>
`,c=g(a)+g(o)+g(s)+pe,u=x(e,Math.max(0,n-c-n*fe)),d=`<script type="application/json" id="${l}">${u.json}<\/script>
</body>
</html>
`;return`${a}${o}\n${ge(e,n-c-g(d),u.omitted)}\n${s}${d}`}function ge(e,t,n){let r=p(e.results),i=[],a=0;for(let[e,n]of r.entries()){let r=se(n,e,e===0),o=g(r)+1;if(a+o>t)break;i.push(r),a+=o}let o=r.length-i.length,s=[];return o>0&&s.push(`<p class="warning">To keep this report small, the drill-down shows the ${S(c(i.length))} most-blamed of ${S(c(r.length))} cases (cases with errors first, then failures by their largest Shapley value) and leaves out ${S(c(o))}. Every case is still in the session data inside this file; drop the report into the workbench to see them all.</p>`),n.length&&s.push(`<p class="warning">The session data inside this file leaves out the per-case ${S(n.join(`, `))} to keep the file small; the Shapley values, baselines and settings are complete.</p>`),`<section id="cases" aria-labelledby="cases-title">
<h2 id="cases-title">Cases</h2>
<p class="muted">Open a case for its Shapley values beside the baselines, the value of every coalition of fixes, and the outputs of the factual and the all-fixed run.</p>
${s.join(`
`)}
<div id="case-list">
${i.join(`
`)}
</div>
</section>`}function _e(e){let t=e=>`renderReport: session.${e}`;if(typeof e!=`object`||!e)throw Error(`renderReport: expected a session object.`);if(!Array.isArray(e.results))throw Error(`${t(`results`)} must be an array of case results.`);if(!Array.isArray(e.cases))throw Error(`${t(`cases`)} must be an array of cases.`);if(typeof e.settings!=`object`||e.settings===null)throw Error(`${t(`settings`)} is missing.`);for(let n of[`name`,`fileName`,`updatedAt`])if(typeof e[n]!=`string`)throw Error(`${t(n)} must be a string.`);e.results.forEach((e,n)=>{if(!e||typeof e.id!=`string`||!Array.isArray(e.players))throw Error(`${t(`results[${n}]`)} is not a case result (needs an id and players).`)})}function ve(e){let t=e.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029/\\:*?"<>|]/g,`_`).replace(/^[.\s]+/,``).replace(/[.\s]+$/,``);return t.length>120&&(t=t.slice(0,120).replace(/[\ud800-\udbff]$/,``)),`${t||`session`}.agentblame.html`}export{he as renderReport,ve as reportFileName};